/**
 * A reader that went away: `oceancode run --format json | head -1`, `oceancode sessions | head`. Node ignores
 * SIGPIPE, so a write to a closed pipe comes back as an EPIPE 'error' on the stream, which would crash the
 * process mid-command (a run's ledger left without SESSION.md or transcript). watchPipe turns that into a
 * flag the command reads: it stops what it was producing, stores what it must, and exits quietly with 141
 * (128 + SIGPIPE), as a POSIX tool the pipe stopped does.
 */

/** The exit code of a command whose stdout reader went away (128 + SIGPIPE). */
export const EXIT_PIPE_GONE = 141;

/** Errors that mean the other end is gone (EIO: the terminal itself went away, as after SIGHUP). */
const GONE_CODES = new Set(["EPIPE", "ECONNRESET", "EIO", "ERR_STREAM_DESTROYED"]);

interface Watched {
  gone: boolean;
  listeners: Array<() => void>;
}
const watched = new WeakMap<NodeJS.WritableStream, Watched>();

function markGone(state: Watched): void {
  if (state.gone) return;
  state.gone = true;
  for (const l of state.listeners.splice(0)) l();
}

/**
 * Watch `stream` for a reader that went away; `onGone` (optional) is called once when it happens. The
 * returned function says whether it has. Any other write error is handled the same way (nothing more can
 * be written there) rather than crashing the process.
 */
export function watchPipe(stream: NodeJS.WritableStream, onGone?: () => void): () => boolean {
  let w = watched.get(stream);
  if (!w) {
    const state: Watched = { gone: false, listeners: [] };
    w = state;
    watched.set(stream, state);
    stream.on("error", (e: NodeJS.ErrnoException) => {
      if (!state.gone && !GONE_CODES.has(e.code ?? "")) process.emitWarning(`output stream failed: ${e.message}`);
      markGone(state);
    });
  }
  const state = w;
  if (onGone) {
    if (state.gone) queueMicrotask(onGone);
    else state.listeners.push(onGone);
  }
  return () => state.gone;
}

/** Whether `stream`'s reader went away (false for a stream nobody watches). */
export function pipeGone(stream: NodeJS.WritableStream): boolean {
  return watched.get(stream)?.gone === true;
}

/** Write unless the stream is gone; never throws. */
export function safeWrite(stream: NodeJS.WritableStream, text: string): void {
  const s = stream as NodeJS.WritableStream & { destroyed?: boolean; writableEnded?: boolean };
  if (s.destroyed || s.writableEnded || pipeGone(stream)) return;
  try {
    stream.write(text);
  } catch {
    // gone between the check and the write
  }
}

/** Resolves once everything written to `stream` so far was handed to the OS, or failed (a gone reader). */
export function flushed(stream: NodeJS.WritableStream): Promise<void> {
  const s = stream as NodeJS.WritableStream & { destroyed?: boolean; writableEnded?: boolean };
  if (s.destroyed || s.writableEnded) return Promise.resolve();
  return new Promise((resolve) => {
    try {
      stream.write("", (err?: Error | null) => {
        // the write's callback runs before the stream's 'error' event: mark it here too
        const w = watched.get(stream);
        if (err && w) markGone(w);
        resolve();
      });
    } catch {
      resolve();
    }
  });
}

/**
 * What serve's routes need of runs: the bodies of runs launched in this process as they are appended (fed
 * from LaunchOptions.onBody), and an SSE stream of one run's bodies (the stored ones first, then live, ended
 * after the terminal body). A run of another process is followed by reading its updates.jsonl on a timer.
 */
import { PassThrough } from "node:stream";
import type { RunBody } from "./api.js";
import type { RunStore } from "./store.js";

type Listener = (body: RunBody) => void;

/** How often a run that lives in another process is re-read for new bodies. */
const POLL_MS = 250;

export class RunFeed {
  private readonly listeners = new Map<string, Set<Listener>>();
  /** the runs launched here and not ended, with how to wait for their end */
  readonly launched = new Map<string, Promise<unknown>>();

  constructor(private readonly store: RunStore) {}

  publish(body: RunBody): void {
    for (const l of this.listeners.get(body.run_id) ?? []) l(body);
  }

  private listen(runId: string, l: Listener): () => void {
    let set = this.listeners.get(runId);
    if (!set) this.listeners.set(runId, (set = new Set()));
    set.add(l);
    return () => {
      set.delete(l);
      if (set.size === 0) this.listeners.delete(runId);
    };
  }

  /**
   * The run's bodies as SSE frames (`id: <seq>`, `event: <type>`, `data: <body>`). Reading the store and
   * listening happen in one tick, so no body falls between the replay and the live ones; seq drops repeats.
   */
  stream(runId: string, stored: RunBody[], signal: AbortSignal, alive: () => boolean): PassThrough {
    const out = new PassThrough();
    let last = 0;
    let done = false;
    let timer: NodeJS.Timeout | undefined;
    const finish = () => {
      if (done) return;
      done = true;
      unlisten();
      if (timer) clearInterval(timer);
      out.end();
    };
    const write = (b: RunBody) => {
      if (done || b.seq <= last) return;
      last = b.seq;
      out.write(`id: ${b.seq}\nevent: ${b.type}\ndata: ${JSON.stringify(b)}\n\n`);
      if (b.terminal) finish();
    };
    const unlisten = this.listen(runId, write);
    for (const b of stored) write(b);
    if (!done && !this.launched.has(runId)) {
      // another process's run: follow its file; a writer gone without a terminal body ends the stream
      timer = setInterval(() => {
        for (const b of this.store.read(runId)?.bodies ?? []) write(b);
        if (!done && !alive()) finish();
      }, POLL_MS);
    }
    signal.addEventListener("abort", finish, { once: true });
    out.on("close", finish);
    return out;
  }
}

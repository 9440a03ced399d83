/**
 * The stdin ink reads: the terminal's input with each bracketed paste taken out. The pager turns on
 * mode ?2004, so the terminal wraps pasted text in ESC[200~ … ESC[201~. Here the text between the
 * markers is queued (verbatim) and replaced by one PASTE_TOKEN, which ink hands to the key handler in
 * order with the keys around it; the handler then takes the text from the queue. The pasted text itself
 * never goes through ink's key parser: it cannot be read as keys (a newline as Enter, a `y` as an
 * answer), and escape sequences in it cannot trip that parser.
 */
import { Readable } from "node:stream";

export const BRACKETED_PASTE_ON = "\x1b[?2004h";
export const BRACKETED_PASTE_OFF = "\x1b[?2004l";
export const PASTE_START = "\x1b[200~";
export const PASTE_END = "\x1b[201~";
/** What ink receives in place of a paste (it parses it as one key; the handler sees input "[200~"). */
export const PASTE_TOKEN = PASTE_START;
/** How long a partial start marker at the end of a chunk waits for the rest before it counts as typed. */
const PARTIAL_MARKER_MS = 30;
/** Gap between escapes that arrived in one chunk, so ink reads each as its own key (esc esc). */
const ESC_GAP_MS = 15;

/** The pasted texts waiting for their token to reach the key handler. */
export class PasteQueue {
  private readonly texts: string[] = [];
  push(text: string): void {
    this.texts.push(text);
  }
  /** the oldest waiting paste, if any */
  take(): string | undefined {
    return this.texts.shift();
  }
  get waiting(): number {
    return this.texts.length;
  }
}

/** The part of the terminal's stdin that ink uses. */
export interface TtyIn extends NodeJS.EventEmitter {
  isTTY?: boolean;
  setRawMode?(mode: boolean): unknown;
  setEncoding(enc: BufferEncoding): unknown;
  ref?(): unknown;
  unref?(): unknown;
  pause(): unknown;
}

/** Length of the longest suffix of `s` that is a proper prefix of `marker`. */
/**
 * A control key (ctrl+t, ctrl+o, ctrl+r…) that arrived in one chunk with the text typed after it (a busy machine,
 * type-ahead, automation) is handed over on its own: ink reads a chunk as one key, so "\x14/plan" was typed as
 * text with a visible ␔. Enter, newline, tab and escape sequences stay where they are.
 */
const CONTROL_KEY = /[\x00-\x08\x0b\x0c\x0e-\x1a\x1c-\x1f]/;
export function splitControls(text: string): string[] {
  if (!CONTROL_KEY.test(text) || text.length === 1) return [text];
  const out: string[] = [];
  let run = "";
  for (const ch of text) {
    if (CONTROL_KEY.test(ch)) {
      if (run) out.push(run);
      out.push(ch);
      run = "";
    } else run += ch;
  }
  if (run) out.push(run);
  return out;
}

function partialSuffix(s: string, marker: string): number {
  for (let n = Math.min(marker.length - 1, s.length); n > 0; n--) if (marker.startsWith(s.slice(s.length - n))) return n;
  return 0;
}

export class PagerInput extends Readable {
  readonly isTTY = true;
  readonly pastes = new PasteQueue();
  /** inside a paste: its text so far */
  private body: string | undefined;
  /** a chunk's tail that may be the start of a marker */
  private held = "";
  private timer: NodeJS.Timeout | undefined;
  /** output waiting behind a spaced-out escape, in order */
  private readonly queue: string[] = [];
  private gapTimer: NodeJS.Timeout | undefined;
  private readonly onData = (d: string | Buffer) => this.feed(typeof d === "string" ? d : d.toString("utf8"));

  constructor(private readonly tty: TtyIn) {
    super({ encoding: "utf8" });
    tty.setEncoding("utf8");
    tty.on("data", this.onData);
  }

  override _read(): void {
    /* data is pushed as the terminal sends it */
  }

  setRawMode(mode: boolean): this {
    this.tty.setRawMode?.(mode);
    return this;
  }
  ref(): this {
    this.tty.ref?.();
    return this;
  }
  unref(): this {
    this.tty.unref?.();
    return this;
  }

  /** Stop reading the terminal. */
  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    if (this.gapTimer) clearTimeout(this.gapTimer);
    this.tty.off("data", this.onData);
    this.tty.pause();
  }

  /** Process what the terminal sent (exposed for tests). */
  feed(chunk: string): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    let s = this.held + chunk;
    this.held = "";
    let out = "";
    while (s) {
      if (this.body === undefined) {
        const at = s.indexOf(PASTE_START);
        if (at < 0) {
          const keep = partialSuffix(s, PASTE_START);
          // a lone ESC is the Escape key: pass it on at once (ink times it out itself)
          if (keep > 1) {
            this.held = s.slice(s.length - keep);
            s = s.slice(0, s.length - keep);
            this.timer = setTimeout(() => this.flushHeld(), PARTIAL_MARKER_MS);
          }
          out += s;
          break;
        }
        out += s.slice(0, at);
        this.body = "";
        s = s.slice(at + PASTE_START.length);
      } else {
        const end = s.indexOf(PASTE_END);
        if (end < 0) {
          const keep = partialSuffix(s, PASTE_END);
          this.body += s.slice(0, s.length - keep);
          this.held = s.slice(s.length - keep);
          break;
        }
        this.pastes.push(this.body + s.slice(0, end));
        this.body = undefined;
        out += PASTE_TOKEN;
        s = s.slice(end + PASTE_END.length);
      }
    }
    if (out) this.deliver(out);
  }

  /**
   * Hand text to ink. Escapes that came in one chunk ("esc esc" from a busy link or automation) are
   * spaced out: ink would read ESC ESC as one (meta+escape) key.
   */
  private deliver(text: string): void {
    if (/^\x1b\x1b+$/.test(text)) this.queue.push(...text);
    else this.queue.push(...splitControls(text));
    if (!this.gapTimer) this.drain();
  }

  private drain(): void {
    this.gapTimer = undefined;
    while (this.queue.length) {
      const next = this.queue.shift()!;
      this.push(next);
      // a key ink must read alone (escape, a control key) gets a gap before what follows: a stream read would join them
      if ((next === "\x1b" || (next.length === 1 && CONTROL_KEY.test(next))) && this.queue.length) {
        this.gapTimer = setTimeout(() => this.drain(), ESC_GAP_MS);
        return;
      }
    }
  }

  private flushHeld(): void {
    this.timer = undefined;
    const h = this.held;
    this.held = "";
    if (h) this.deliver(h);
  }
}

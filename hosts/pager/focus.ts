/**
 * Terminal focus and the long-turn notification. The pager turns on focus reporting (CSI ?1004h): the
 * terminal then sends ESC[I when its window gains focus and ESC[O when it loses it. FocusFilter takes
 * those two out of the input before anything parses keys, and remembers the last one. When a turn that
 * ran at least `pager.notify_after_s` ends while the terminal is unfocused, the pager rings: a bell (BEL)
 * or an OSC 9 desktop notification. Inside tmux the default (auto) is off, as tmux turns a bell into its
 * own alert; `pager.notify` set to bell or osc9 asks for it anyway.
 */
import { EventEmitter } from "node:events";
import type { TtyIn } from "./tty-input.js";

export const FOCUS_ON = "\x1b[?1004h";
export const FOCUS_OFF = "\x1b[?1004l";
const FOCUS_IN = "\x1b[I";
const FOCUS_OUT = "\x1b[O";

export class FocusFilter extends EventEmitter implements TtyIn {
  /** undefined until the terminal reports (terminals without focus reporting never do) */
  focused: boolean | undefined;
  readonly isTTY = true;
  private readonly onData = (d: string | Buffer) => {
    const s = typeof d === "string" ? d : d.toString("utf8");
    let rest = "";
    let i = 0;
    while (i < s.length) {
      if (s.startsWith(FOCUS_IN, i) || s.startsWith(FOCUS_OUT, i)) {
        this.focused = s[i + 2] === "I";
        i += 3;
      } else rest += s[i++];
    }
    if (rest) this.emit("data", rest);
  };

  constructor(private readonly tty: TtyIn) {
    super();
    tty.on("data", this.onData);
  }
  setRawMode(mode: boolean): unknown {
    return this.tty.setRawMode?.(mode);
  }
  setEncoding(enc: BufferEncoding): unknown {
    return this.tty.setEncoding(enc);
  }
  ref(): unknown {
    return this.tty.ref?.();
  }
  unref(): unknown {
    return this.tty.unref?.();
  }
  pause(): unknown {
    this.tty.off("data", this.onData);
    return this.tty.pause();
  }
}

export type NotifyKind = "auto" | "bell" | "osc9" | "off";

/** What a finished turn writes to the terminal: BEL, an OSC 9 notification, or nothing. */
export function notification(opts: { kind: NotifyKind; afterS: number; turnMs: number; focused: boolean | undefined; inTmux: boolean; text: string }): string {
  if (opts.focused !== false || opts.turnMs < opts.afterS * 1000) return "";
  const kind = opts.kind === "auto" ? (opts.inTmux ? "off" : "bell") : opts.kind;
  if (kind === "bell") return "\x07";
  // OSC 9 carries text: keep it printable and short (no ESC or BEL inside)
  if (kind === "osc9") return `\x1b]9;${opts.text.replace(/[\x00-\x1f\x7f-\x9f]/g, " ").slice(0, 120)}\x07`;
  return "";
}

/** The `pager` config section, with its defaults for anything missing or malformed. */
export function notifySettings(section: Record<string, unknown>): { kind: NotifyKind; afterS: number } {
  const k = section.notify;
  const a = section.notify_after_s;
  return {
    kind: k === "bell" || k === "osc9" || k === "off" ? k : "auto",
    afterS: typeof a === "number" && Number.isFinite(a) && a >= 0 ? a : 30,
  };
}

/**
 * `oceancode -r` with no id: a full-screen list of this directory's sessions (title, updated, turns) before
 * the pager starts. Arrows move, typing filters, enter opens the pick, esc (or ctrl+c) leaves with nothing.
 * Plain ANSI on the terminal (no ink): it runs and is gone before the pager's screen is drawn.
 */
import { visibleLine } from "../terminal/sanitize.js";

export interface PickerSession {
  id: string;
  title?: string;
  updatedAt: number;
  turns: number;
}

/** The picker's state: pure, so its keys are tested without a terminal. */
export class PickerModel {
  filter = "";
  index = 0;
  constructor(private readonly all: readonly PickerSession[]) {}

  /** The sessions the filter keeps (title or id contains every typed word, any case). */
  shown(): PickerSession[] {
    const words = this.filter.toLowerCase().split(/\s+/).filter(Boolean);
    return this.all.filter((s) => words.every((w) => `${s.title ?? ""} ${s.id}`.toLowerCase().includes(w)));
  }

  /** One key (a chunk of terminal input): "pick" with the id, "quit", or undefined to go on. */
  key(k: string): { pick: string } | "quit" | undefined {
    if (k === "\r" || k === "\n") {
      const s = this.shown()[this.index];
      return s ? { pick: s.id } : undefined;
    }
    if (k === "\x1b" || k === "\x03") return "quit";
    if (k === "\x1b[A" || k === "\x1bOA") this.index = Math.max(0, this.index - 1);
    else if (k === "\x1b[B" || k === "\x1bOB") this.index = Math.min(Math.max(0, this.shown().length - 1), this.index + 1);
    else if (k === "\x7f" || k === "\b") this.setFilter(this.filter.slice(0, -1));
    else if (!k.startsWith("\x1b") && /^[^\x00-\x1f]+$/.test(k)) this.setFilter(this.filter + k);
    return undefined;
  }

  private setFilter(f: string): void {
    this.filter = f;
    this.index = 0;
  }
}

/** "3m ago", "2h ago", "5d ago". */
function ago(ms: number, now: number): string {
  const s = Math.max(0, Math.round((now - ms) / 1000));
  if (s < 60) return `${s}s ago`;
  if (s < 3600) return `${Math.floor(s / 60)}m ago`;
  if (s < 86_400) return `${Math.floor(s / 3600)}h ago`;
  return `${Math.floor(s / 86_400)}d ago`;
}

/** The screen for a state: header, filter line, one row per session (the selected one marked ›). */
export function pickerScreen(m: PickerModel, cols: number, rows: number, now = Date.now()): string {
  const list = m.shown();
  const room = Math.max(1, rows - 4);
  const top = Math.max(0, Math.min(m.index - room + 1, list.length - room));
  const cut = (t: string) => (t.length > cols - 1 ? `${t.slice(0, cols - 2)}…` : t);
  const lines = ["Resume a session  (↑↓ move · type to filter · enter opens · esc quits)", `filter: ${m.filter}`, ""];
  if (!list.length) lines.push("  (no session matches)");
  list.slice(top, top + room).forEach((s, i) => {
    const mark = top + i === m.index ? "›" : " ";
    const title = visibleLine(s.title?.trim() || "(untitled)");
    lines.push(cut(`${mark} ${title}  · ${ago(s.updatedAt, now)} · ${s.turns} turn${s.turns === 1 ? "" : "s"} · ${s.id}`));
  });
  return lines.join("\r\n");
}

/** Show the picker on a raw terminal until a pick (its id) or esc (undefined). */
export function pickSession(sessions: readonly PickerSession[], stdin: NodeJS.ReadStream, stdout: NodeJS.WriteStream): Promise<string | undefined> {
  const m = new PickerModel(sessions);
  const draw = () => stdout.write(`\x1b[H\x1b[2J${pickerScreen(m, stdout.columns || 80, stdout.rows || 24)}`);
  return new Promise((resolve) => {
    const wasRaw = stdin.isRaw;
    stdin.setRawMode(true);
    stdin.setEncoding("utf8");
    stdout.write("\x1b[?1049h"); // the alternate screen: the shell's scrollback is left as it was
    const done = (v: string | undefined) => {
      stdin.off("data", onData);
      stdin.setRawMode(wasRaw);
      stdin.pause();
      stdout.write("\x1b[?1049l");
      resolve(v);
    };
    const onData = (chunk: string) => {
      // a pasted or fast-typed run of letters arrives as one chunk; escape sequences come whole
      const keys = chunk.match(/\x1b\[[0-9;]*[A-Za-z~]|\x1bO[A-Za-z]|\x1b|[\s\S]/g) ?? [];
      for (const k of keys) {
        const r = m.key(k);
        if (r === "quit") return done(undefined);
        if (r) return done(r.pick);
      }
      draw();
    };
    stdin.on("data", onData);
    stdin.resume();
    draw();
  });
}

/**
 * A streamed answer rendered as it arrives, with work per chunk bounded by the chunk, not the answer:
 *
 * - Only new text is scanned (line by line, tracking code fences) for block ends: a blank line outside a
 *   fence, or a fence's closing line. Everything before a block end is a finished block: it is rendered
 *   once (per width) and its rows are kept.
 * - The open tail (text after the last block end) is re-rendered when the screen asks for rows; an open
 *   tail longer than TAIL_LINES lines shows only its last TAIL_LINES (the live area shows less than
 *   that), so one enormous code block does not make every chunk cost the whole block.
 *
 * `finish()` renders the tail in full and returns every row (what the transcript keeps).
 */
import { markdownRows, paintRows } from "./markdown.js";
import type { Paint } from "./style.js";

export const TAIL_LINES = 120;

interface Fence {
  char: string;
  len: number;
  /** the opening line as typed (for a windowed tail) */
  open: string;
}

export class MarkdownStream {
  /** finished blocks' source text */
  private chunks: string[] = [];
  /** the open tail: its complete lines, and the line still being typed */
  private tailLines: string[] = [];
  private partial = "";
  private fence: Fence | undefined;
  /** bumped on every push (the tail cache's key) */
  private version = 0;
  /** rows of the finished chunks for `key` (width + paint), rendered up to `upTo` chunks */
  private done: { key: string; rows: string[]; upTo: number } = { key: "", rows: [], upTo: 0 };
  private tailCache: { key: string; rows: string[] } | undefined;

  /** All the text so far (joins; not for per-chunk use). */
  get text(): string {
    return this.chunks.join("") + this.tailLines.map((l) => `${l}\n`).join("") + this.partial;
  }

  get empty(): boolean {
    return !this.chunks.length && !this.tailLines.length && !this.partial;
  }

  push(text: string): void {
    if (!text) return;
    this.version++;
    const parts = (this.partial + text).split("\n");
    this.partial = parts.pop()!;
    for (const line of parts) this.line(line);
  }

  /** One complete line: a block ends after a blank line outside a fence, or after a fence's closing line. */
  private line(line: string): void {
    this.tailLines.push(line);
    const m = /^\s*(`{3,}|~{3,})/.exec(line);
    if (this.fence) {
      if (m && m[1]![0] === this.fence.char && m[1]!.length >= this.fence.len && !line.slice(m[0].length).trim()) {
        this.fence = undefined;
        this.close();
      }
    } else if (m) this.fence = { char: m[1]![0]!, len: m[1]!.length, open: line };
    else if (!line.trim()) this.close();
  }

  private close(): void {
    const src = this.tailLines.map((l) => `${l}\n`).join("");
    this.tailLines = [];
    if (src.trim()) this.chunks.push(src);
  }

  private key(width: number, paint: Paint): string {
    return `${width}:${paint.color ? 1 : 0}${paint.links ? 1 : 0}`;
  }

  /** Rows of the finished blocks (each block rendered once per width and paint). */
  private doneRows(width: number, paint: Paint): string[] {
    const key = this.key(width, paint);
    if (this.done.key !== key) this.done = { key, rows: [], upTo: 0 };
    const d = this.done;
    while (d.upTo < this.chunks.length) {
      const rows = paintRows(markdownRows(this.chunks[d.upTo++]!, { width, paint }), paint);
      if (!rows.length) continue;
      if (d.rows.length) d.rows.push("");
      for (const r of rows) d.rows.push(r);
    }
    return d.rows;
  }

  /** Rows of the open tail; only its last TAIL_LINES lines unless `full`. */
  private tailRows(width: number, paint: Paint, full: boolean): string[] {
    const key = `${this.key(width, paint)}:${full ? 1 : 0}:${this.version}:${this.chunks.length}`;
    if (this.tailCache?.key === key) return this.tailCache.rows;
    const lines = full || this.tailLines.length <= TAIL_LINES ? this.tailLines : this.tailLines.slice(this.tailLines.length - TAIL_LINES);
    // a windowed open fence keeps its opening line, so the rest is still drawn as code
    const head = lines !== this.tailLines && this.fence ? `${this.fence.open}\n` : "";
    const tail = head + lines.map((l) => `${l}\n`).join("") + this.partial;
    const rows = tail.trim() ? paintRows(markdownRows(tail, { width, paint }), paint) : [];
    this.tailCache = { key, rows };
    return rows;
  }

  /** The last `max` rows for the live area. */
  lastRows(max: number, width: number, paint: Paint): string[] {
    const tail = this.tailRows(width, paint, false);
    if (tail.length >= max) return tail.slice(tail.length - max);
    const done = this.doneRows(width, paint);
    const gap = done.length && tail.length ? [""] : [];
    const need = max - tail.length - gap.length;
    return [...(need > 0 ? done.slice(Math.max(0, done.length - need)) : []), ...gap, ...tail];
  }

  /** Every row, the tail rendered in full (the transcript's copy once the answer is done). */
  finish(width: number, paint: Paint): string[] {
    const done = this.doneRows(width, paint);
    const tail = this.tailRows(width, paint, true);
    return done.length && tail.length ? [...done, "", ...tail] : [...done, ...tail];
  }
}

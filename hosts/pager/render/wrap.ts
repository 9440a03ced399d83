/**
 * Word wrap of styled spans to a width in terminal cells: greedy by words, a word longer than a row is
 * broken by characters (by grapheme-ish code points, wide characters counted as two cells).
 */
import { cells, type Span } from "./style.js";

/** Split spans into rows of at most `width` cells. `indent` spans open every row after the first. */
export function wrapSpans(spans: readonly Span[], width: number, hang: readonly Span[] = []): Span[][] {
  const w = Math.max(4, width);
  const hangW = hang.reduce((n, s) => n + cells(s.text), 0);
  const rows: Span[][] = [];
  let row: Span[] = [];
  let used = 0;
  const newRow = () => {
    trimEnd(row);
    rows.push(row);
    row = hang.map((h) => ({ ...h }));
    used = hangW;
  };
  for (const s of spans) {
    // hard newlines inside a span (a break token) start a new row
    const parts = s.text.split("\n");
    parts.forEach((part, pi) => {
      if (pi > 0) newRow();
      for (const tok of part.split(/(\s+)/)) {
        if (!tok) continue;
        const tw = cells(tok);
        const space = /^\s+$/.test(tok);
        if (used + tw <= w) {
          if (space && used === hangW && rows.length > 0) continue; // no leading blanks on a wrapped row
          push(row, tok, s);
          used += tw;
          continue;
        }
        if (space) {
          newRow();
          continue;
        }
        if (tw <= w - hangW && used > hangW) {
          newRow();
          push(row, tok, s);
          used += tw;
          continue;
        }
        // a word longer than the row: break it by characters
        for (const ch of tok) {
          const cw = cells(ch);
          if (used + cw > w && used > hangW) newRow();
          push(row, ch, s);
          used += cw;
        }
      }
    });
  }
  trimEnd(row);
  rows.push(row);
  return rows;
}

function push(row: Span[], text: string, like: Span): void {
  const last = row[row.length - 1];
  if (last && last.look === like.look) last.text += text;
  else row.push(like.look ? { text, look: like.look } : { text });
}

function trimEnd(row: Span[]): void {
  const last = row[row.length - 1];
  if (last && !last.look?.bg) last.text = last.text.replace(/\s+$/, "");
}

/** Cells of a row of spans. */
export function spansWidth(spans: readonly Span[]): number {
  let n = 0;
  for (const s of spans) n += cells(s.text);
  return n;
}

/** Cut a row of spans to `width` cells, with … when something was cut. */
export function truncateSpans(spans: readonly Span[], width: number): Span[] {
  if (spansWidth(spans) <= width) return [...spans];
  const out: Span[] = [];
  let used = 0;
  for (const s of spans) {
    let text = "";
    for (const ch of s.text) {
      const cw = cells(ch);
      if (used + cw > width - 1) break;
      text += ch;
      used += cw;
    }
    if (text) out.push({ ...s, text });
    if (used >= width - 1 || text.length < s.text.length) break;
  }
  out.push({ text: "…" });
  return out;
}

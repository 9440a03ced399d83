/**
 * A GFM pipe table drawn with box characters to fit a width: columns get their natural width when it
 * fits, else the widest are narrowed (never under 3 cells) and their cells wrap inside the column.
 */
import type { Tokens } from "marked";
import { inlineSpans } from "./inline.js";
import type { Look, Paint, Span } from "./style.js";
import { spansWidth, truncateSpans, wrapSpans } from "./wrap.js";

const BORDER: Look = { fg: "gray" };

/** Column widths (content cells, without padding) that fit `width` with borders and one space of padding. */
export function fitColumns(natural: readonly number[], width: number): number[] {
  const n = natural.length;
  const frame = n * 3 + 1; // "│ " before each column, " " after, and the closing "│"
  const room = Math.max(n * 3, width - frame);
  const cols = natural.map((w) => Math.max(1, w));
  let total = cols.reduce((a, b) => a + b, 0);
  while (total > room) {
    // narrow the widest column by one cell at a time (ties: the rightmost)
    let wi = 0;
    for (let i = 0; i < n; i++) if (cols[i]! >= cols[wi]!) wi = i;
    if (cols[wi]! <= 3) break;
    cols[wi]!--;
    total--;
  }
  return cols;
}

function pad(spans: Span[], width: number, align: "left" | "right" | "center" | null): Span[] {
  const gap = Math.max(0, width - spansWidth(spans));
  if (align === "right") return [{ text: " ".repeat(gap) }, ...spans];
  if (align === "center") {
    const l = Math.floor(gap / 2);
    return [{ text: " ".repeat(l) }, ...spans, { text: " ".repeat(gap - l) }];
  }
  return [...spans, { text: " ".repeat(gap) }];
}

function rule(cols: readonly number[], l: string, m: string, r: string): Span[] {
  return [{ text: l + cols.map((c) => "─".repeat(c + 2)).join(m) + r, look: BORDER }];
}

export function renderTable(t: Tokens.Table, width: number, paint: Paint): Span[][] {
  const head = t.header.map((c) => inlineSpans(c.tokens, paint, { bold: true }));
  const body = t.rows.map((r) => r.map((c) => inlineSpans(c.tokens, paint)));
  const n = head.length;
  const natural = head.map((h, i) => Math.max(spansWidth(h), ...body.map((r) => (r[i] ? spansWidth(r[i]!) : 0))));
  const cols = fitColumns(natural, width);
  const frameWidth = cols.reduce((a, b) => a + b + 3, 1);
  const line = (cells: Span[][]): Span[][] => {
    const wrapped = cols.map((w, i) => wrapSpans(cells[i] ?? [], w).map((row) => truncateSpans(row, w)));
    const height = Math.max(1, ...wrapped.map((w) => w.length));
    const rows: Span[][] = [];
    for (let k = 0; k < height; k++) {
      const row: Span[] = [{ text: "│", look: BORDER }];
      for (let i = 0; i < n; i++) {
        row.push({ text: " " }, ...pad(wrapped[i]![k] ?? [], cols[i]!, t.align[i] ?? null), { text: " " }, { text: "│", look: BORDER });
      }
      rows.push(row);
    }
    return rows;
  };
  // far too narrow for a frame: the cells as "a · b" rows
  if (frameWidth > width) return [head, ...body].map((r) => truncateSpans(r.flatMap((c, i) => (i ? [{ text: " · " }, ...c] : c)), width));
  const out: Span[][] = [rule(cols, "┌", "┬", "┐"), ...line(head), rule(cols, "├", "┼", "┤")];
  for (const r of body) out.push(...line(r));
  out.push(rule(cols, "└", "┴", "┘"));
  return out;
}

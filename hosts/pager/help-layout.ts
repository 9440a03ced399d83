/**
 * Two-column tables laid out to the terminal's width (/help): the left column as wide as its widest
 * cell (at most a third of the width), the right column wrapped at word boundaries within itself, so
 * no row runs back to column 0. Pure: rows in, display rows out.
 */
import type { HelpSection } from "../../extensions/session-commands/api.js";

/** Wrap `text` to `width` cells at spaces (a word longer than the width is cut). */
export function wrapWords(text: string, width: number): string[] {
  const w = Math.max(4, width);
  const out: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/).filter(Boolean)) {
    let rest = word;
    while (rest.length > w) {
      if (line) out.push(line);
      out.push(rest.slice(0, w));
      rest = rest.slice(w);
      line = "";
    }
    if (!line) line = rest;
    else if (line.length + 1 + rest.length <= w) line += ` ${rest}`;
    else {
      out.push(line);
      line = rest;
    }
  }
  if (line || !out.length) out.push(line);
  return out;
}

/** One laid-out row: the title of a section, or a left cell (maybe empty on continuation rows) and right text. */
export type TableRow = { kind: "title"; text: string } | { kind: "row"; left: string; right: string };

export function layoutTable(sections: readonly HelpSection[], width: number): TableRow[] {
  const indent = 2;
  const gap = 2;
  const out: TableRow[] = [];
  for (const sec of sections) {
    out.push({ kind: "title", text: sec.title });
    const widest = Math.max(0, ...sec.rows.map((r) => r[0].length));
    const left = Math.max(4, Math.min(widest, Math.floor((width - indent - gap) / 3)));
    const right = Math.max(8, width - indent - gap - left - 1);
    for (const [l, r] of sec.rows) {
      const lefts = wrapWords(l, left);
      const rights = wrapWords(r, right);
      for (let i = 0; i < Math.max(lefts.length, rights.length); i++) {
        out.push({ kind: "row", left: `${" ".repeat(indent)}${(lefts[i] ?? "").padEnd(left)}${" ".repeat(gap)}`, right: rights[i] ?? "" });
      }
    }
  }
  return out;
}

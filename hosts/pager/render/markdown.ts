/**
 * Markdown as terminal rows: marked's lexer (GFM) gives the tokens, this draws them. Headings without
 * their `#`, emphasis without `**`, lists with bullets, quotes behind a bar (distinct from the pager's
 * `> ` echo of your prompt), tables in box characters at the width, code fences coloured by lowlight.
 *
 * The text is made display-safe first (visible(): no ESC, C0, C1 or bidi control from the model reaches
 * the terminal); the only escapes in the output are our own SGR (and OSC 8 when links are on).
 */
import { Lexer, type Token, type Tokens } from "marked";
import { visible } from "../../terminal/sanitize.js";
import { highlightRows } from "./highlight.js";
import { inlineSpans } from "./inline.js";
import { cells, paintSpans, type Look, type Paint, type Span } from "./style.js";
import { renderTable } from "./table.js";
import { wrapSpans } from "./wrap.js";

export interface MdOptions {
  /** cells per row */
  width: number;
  paint: Paint;
}

const BAR: Span = { text: "│ ", look: { fg: "gray" } };
const BULLETS = ["•", "◦", "▪"];

/** Markdown source as painted rows (no trailing newline on any). */
export function renderMarkdown(src: string, o: MdOptions): string[] {
  return paintRows(markdownRows(src, o), o.paint);
}

export function paintRows(rows: readonly Span[][], paint: Paint): string[] {
  return rows.map((r) => paintSpans(r, paint));
}

/** Markdown source as rows of spans. */
export function markdownRows(src: string, o: MdOptions): Span[][] {
  const tokens = Lexer.lex(visible(src), { gfm: true });
  return blocks(tokens, o.width, o.paint, 0);
}

/** Block tokens as rows, one blank row between blocks. */
export function blocks(tokens: readonly Token[], width: number, paint: Paint, depth: number, look?: Look, tight = false): Span[][] {
  const out: Span[][] = [];
  for (const t of tokens) {
    const rows = block(t, width, paint, depth, look);
    if (!rows.length) continue;
    if (out.length && !tight) out.push([]);
    out.push(...rows);
  }
  return out;
}

function block(t: Token, width: number, paint: Paint, depth: number, look?: Look): Span[][] {
  switch (t.type) {
    case "space":
    case "def":
      return [];
    case "heading": {
      const h: Look = t.depth === 1 ? { bold: true, underline: true, fg: "cyan" } : t.depth === 2 ? { bold: true, fg: "cyan" } : { bold: true };
      return wrapSpans(inlineSpans(t.tokens, paint, { ...look, ...h }), width);
    }
    case "paragraph":
      return wrapSpans(inlineSpans(t.tokens, paint, look), width);
    case "text":
      return wrapSpans("tokens" in t && t.tokens ? inlineSpans(t.tokens, paint, look) : [{ text: String(t.text) }], width);
    case "code":
      return codeRows(String(t.text), t.lang as string | undefined, width);
    case "blockquote": {
      const inner = blocks(t.tokens ?? [], width - 2, paint, depth, { ...look, italic: true });
      return inner.map((r) => [BAR, ...r]);
    }
    case "list":
      return listRows(t as Tokens.List, width, paint, depth, look);
    case "table":
      return renderTable(t as Tokens.Table, width, paint);
    case "hr":
      return [[{ text: "─".repeat(Math.max(4, Math.min(width, 80))), look: { fg: "gray" } }]];
    case "html":
      return wrapSpans([{ text: String(t.text).replace(/\n+$/, "") }], width);
    default:
      return wrapSpans([{ text: String((t as { raw?: string }).raw ?? "").replace(/\n+$/, "") }], width);
  }
}

/** A code block: indented two cells, coloured when its language has a grammar, long lines wrapped. */
export function codeRows(code: string, lang: string | undefined, width: number): Span[][] {
  const lines = code.replace(/\t/g, "    ").split("\n");
  const coloured = highlightRows(code.replace(/\t/g, "    "), lang);
  const indent: Span = { text: "  " };
  const out: Span[][] = [];
  lines.forEach((line, i) => {
    const spans = coloured?.[i] ?? (line ? [{ text: line }] : []);
    // code keeps its spaces: wrap by cells, not by words
    out.push(...hardWrap(spans, width - 2).map((r) => [indent, ...r]));
  });
  return out;
}

function hardWrap(spans: readonly Span[], width: number): Span[][] {
  const w = Math.max(4, width);
  const rows: Span[][] = [[]];
  let used = 0;
  for (const s of spans) {
    let chunk = "";
    for (const ch of s.text) {
      const cw = ch.charCodeAt(0) < 0x7f ? 1 : cells(ch);
      if (used + cw > w) {
        if (chunk) rows[rows.length - 1]!.push({ ...s, text: chunk });
        rows.push([]);
        chunk = "";
        used = 0;
      }
      chunk += ch;
      used += cw;
    }
    if (chunk) rows[rows.length - 1]!.push({ ...s, text: chunk });
  }
  return rows;
}

function listRows(t: Tokens.List, width: number, paint: Paint, depth: number, look?: Look): Span[][] {
  const out: Span[][] = [];
  const start = typeof t.start === "number" ? t.start : 1;
  const last = start + t.items.length - 1;
  const numW = String(last).length;
  t.items.forEach((item, i) => {
    let mark: string;
    if (item.task) mark = item.checked ? "☑ " : "☐ ";
    else if (t.ordered) mark = `${String(start + i).padStart(numW)}. `;
    else mark = `${BULLETS[depth % BULLETS.length]} `;
    const markW = mark.length;
    const inner = blocks(item.tokens, width - markW, paint, depth + 1, look, !t.loose);
    if (t.loose && i > 0) out.push([]);
    inner.forEach((r, k) => {
      out.push(k === 0 ? [{ text: mark, look: { fg: "gray" } }, ...r] : [{ text: " ".repeat(markW) }, ...r]);
    });
    if (!inner.length) out.push([{ text: mark, look: { fg: "gray" } }]);
  });
  return out;
}

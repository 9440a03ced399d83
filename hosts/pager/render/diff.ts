/**
 * A file change (FileDiff from the edit and write tools) as coloured rows: line numbers, `-` rows red and
 * `+` rows green, the words that changed between a removed row and the added row that replaced it on a
 * brighter background (diff's word diff). Collapsed past a few hunks / rows; the output viewer (ctrl+r)
 * shows it whole.
 */
import { diffWordsWithSpace } from "diff";
import type { FileDiff } from "../../../extensions/engine/api.js";
import { visible } from "../../terminal/sanitize.js";
import { paintSpans, type Look, type Paint, type Span } from "./style.js";
import { truncateSpans } from "./wrap.js";

export const DIFF_HUNKS = 3;
export const DIFF_ROWS = 20;

/** The diff with every line display-safe (file text is untrusted: no escape from a file reaches the terminal). */
export function safeDiff(d: FileDiff): FileDiff {
  return { ...d, path: visible(d.path, { oneLine: true }), hunks: d.hunks.map((h) => ({ ...h, lines: h.lines.map((l) => visible(l, { oneLine: true }).replace(/\u2409/g, "  ")) })) };
}

/** "+3 −1", or "+12" for a new file (what a one-liner shows after the path). */
export function diffCounts(d: FileDiff): string {
  return d.created ? `+${d.added}` : `+${d.added} −${d.removed}`;
}

const DEL: Look = { fg: "red", bg: "del" };
const ADD: Look = { fg: "green", bg: "add" };
const DEL_WORD: Look = { fg: "brightRed", bg: "delWord", bold: true };
const ADD_WORD: Look = { fg: "brightGreen", bg: "addWord", bold: true };
const NUM: Look = { fg: "gray" };

/** Word spans of a removed/added pair, or undefined when the lines share too little for it to help. */
function wordPair(oldText: string, newText: string): { del: Span[]; add: Span[] } | undefined {
  if (oldText.length + newText.length > 2000) return undefined;
  const parts = diffWordsWithSpace(oldText, newText);
  let same = 0;
  for (const p of parts) if (!p.added && !p.removed) same += p.value.length;
  if (same < Math.min(oldText.length, newText.length) * 0.4) return undefined;
  const del: Span[] = [];
  const add: Span[] = [];
  for (const p of parts) {
    if (p.removed) del.push({ text: p.value, look: DEL_WORD });
    else if (p.added) add.push({ text: p.value, look: ADD_WORD });
    else {
      del.push({ text: p.value, look: DEL });
      add.push({ text: p.value, look: ADD });
    }
  }
  return { del, add };
}

interface DiffRow {
  spans: Span[];
}

/** Every row of the diff (no collapsing), each at most `width` cells. */
export function diffRowSpans(d: FileDiff, width: number): Span[][] {
  const maxNo = Math.max(1, ...d.hunks.map((h) => Math.max(h.oldStart + h.oldLines, h.newStart + h.newLines)));
  const numW = String(maxNo).length;
  const rows: DiffRow[] = [];
  const tabs = (s: string) => s.replace(/\t/g, "    ");
  d.hunks.forEach((h, hi) => {
    if (hi > 0) rows.push({ spans: [{ text: `${" ".repeat(numW)}   ⋮`, look: NUM }] });
    let oldNo = h.oldStart;
    let newNo = h.newStart;
    const lines = h.lines;
    // a preview of a file that may not be read has no line numbers
    const noNumbers = !d.created && h.oldStart === 0 && h.newStart === 0;
    const no = (n: number) => (noNumbers ? " ".repeat(numW) : String(n).padStart(numW));
    for (let i = 0; i < lines.length; ) {
      const l = lines[i]!;
      if (l[0] === "-" || l[0] === "+") {
        // a run of removed rows, then the added rows that replace them: pair them for word highlights
        const dels: string[] = [];
        const adds: string[] = [];
        while (i < lines.length && lines[i]![0] === "-") dels.push(tabs(lines[i++]!.slice(1)));
        while (i < lines.length && lines[i]![0] === "+") adds.push(tabs(lines[i++]!.slice(1)));
        const pairs = dels.map((t, k) => (adds[k] !== undefined && dels.length === adds.length ? wordPair(t, adds[k]!) : undefined));
        dels.forEach((t, k) => rows.push({ spans: [{ text: `${no(oldNo++)} `, look: NUM }, { text: "- ", look: DEL }, ...(pairs[k]?.del ?? [{ text: t, look: DEL }])] }));
        adds.forEach((t, k) => rows.push({ spans: [{ text: `${no(newNo++)} `, look: NUM }, { text: "+ ", look: ADD }, ...(pairs[k]?.add ?? [{ text: t, look: ADD }])] }));
        continue;
      }
      rows.push({ spans: [{ text: `${no(newNo)} `, look: NUM }, { text: `  ${tabs(l.slice(1))}` }] });
      oldNo++;
      newNo++;
      i++;
    }
  });
  return rows.map((r) => truncateSpans(r.spans, width));
}

/** The rows a transcript shows: the first DIFF_HUNKS hunks, at most DIFF_ROWS rows; `hidden` says how many rows were left out. */
export function collapsedDiff(d: FileDiff, width: number, paint: Paint): { rows: string[]; hidden: number } {
  const shown: FileDiff = { ...d, hunks: d.hunks.slice(0, DIFF_HUNKS) };
  const all = diffRowSpans(d, width);
  const some = diffRowSpans(shown, width).slice(0, DIFF_ROWS);
  return { rows: some.map((r) => paintSpans(r, paint)), hidden: Math.max(0, all.length - some.length) + (d.truncated ? 1 : 0) };
}

/** Every row, painted (the output viewer). */
export function fullDiff(d: FileDiff, width: number, paint: Paint): string[] {
  const rows = diffRowSpans(d, width).map((r) => paintSpans(r, paint));
  if (d.truncated) rows.push("… (the rest of the change is too long to keep)");
  return rows;
}

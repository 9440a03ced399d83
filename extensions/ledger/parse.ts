/**
 * Reading a transcript file back (the inverse of render.ts): its row sections, each a list of marker
 * lines and fenced blocks. Used to tell a sound transcript from a damaged one, and to recover rows from
 * a ledger written before rows.jsonl existed.
 */
import type { Row } from "../engine/api.js";
import { CRASH_HEADING } from "./turn-status.js";

export type Part = { kind: "block"; lang: string; body: string } | { kind: "line"; text: string };

export interface Section {
  seq: number;
  role: Row["role"];
  heading: string;
  /** offset of the heading in the file */
  index: number;
  parts: Part[];
}

export interface ParsedTranscript {
  /** from the `# Turn N` line; undefined when the file does not start with one */
  turn?: number;
  sections: Section[];
  /** the file ends inside a fenced block (cut short, or damaged) */
  openFence: boolean;
  /** lines outside any fence that render.ts never writes */
  stray: number;
}

const HEADING = /^### (user|note|assistant|tool) · seq (\d+)/;
const MARKER = /^(\*\*tool call\*\* |\*\*result\*\* |context added for the model:$)/;

export function parseTranscript(text: string): ParsedTranscript {
  const lines = text.split("\n");
  const first = /^# Turn (\d+)$/.exec(lines[0] ?? "");
  const out: ParsedTranscript = { ...(first ? { turn: Number(first[1]) } : {}), sections: [], openFence: false, stray: 0 };
  let fence = ""; // the open fence, "" when outside
  let lang = "";
  let body: string[] = [];
  let cur: Section | undefined;
  // inside a crash marker (turn-status.ts): its heading and paragraph belong to no row and are not stray
  let inCrash = false;
  let pos = 0;
  lines.forEach((l, i) => {
    const at = pos;
    pos += l.length + 1;
    if (fence) {
      if (l.startsWith(fence) && /^`+\s*$/.test(l) && l.trimEnd().length >= fence.length) {
        fence = "";
        if (cur) cur.parts.push({ kind: "block", lang, body: body.join("\n") });
        else out.stray++;
      } else body.push(l);
      return;
    }
    const f = /^(`{3,})(.*)$/.exec(l);
    if (f) {
      fence = f[1]!;
      lang = f[2]!.trim();
      body = [];
      return;
    }
    if (l.trim() === "") return;
    if (l.startsWith(CRASH_HEADING)) {
      inCrash = true;
      cur = undefined;
      return;
    }
    const h = HEADING.exec(l);
    if (!h && inCrash) return;
    if (h) {
      inCrash = false;
      cur = { seq: Number(h[2]), role: h[1] as Row["role"], heading: l, index: at, parts: [] };
      out.sections.push(cur);
    } else if (cur && MARKER.test(l)) cur.parts.push({ kind: "line", text: l });
    else if (!cur && (i === 0 ? first : /^session `.*` · started /.test(l))) return; // the turn header
    else out.stray++;
  });
  out.openFence = fence !== "";
  return out;
}

/** The shape render.ts gives a row: how many marker lines and fenced blocks its section holds. */
export function expectedShape(row: Row): { lines: number; blocks: number } {
  switch (row.role) {
    case "user":
      return { lines: row.context?.length ?? 0, blocks: 1 + (row.context?.length ?? 0) };
    case "note":
      return { lines: 0, blocks: 1 };
    case "assistant":
      return { lines: row.toolCalls.length, blocks: (row.text ? 1 : 0) + row.toolCalls.length };
    case "tool":
      return { lines: row.results.length, blocks: row.results.length };
  }
}

export function shapeOf(s: Section): { lines: number; blocks: number } {
  let lines = 0;
  let blocks = 0;
  for (const p of s.parts) p.kind === "line" ? lines++ : blocks++;
  return { lines, blocks };
}

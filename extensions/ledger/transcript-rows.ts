/**
 * Rows back from transcript Markdown, for ledgers (or turns) that have no rows.jsonl record. What the
 * Markdown does not keep is filled in from the journal (a row's time and step) or approximated, and
 * reported: a text's trailing newline (render.ts closes every block on a new line either way); a tool
 * result the model saw truncated (a transcript written before the output bound holds the whole output, so
 * the row gets that and the full copy's path is lost; a newer one holds what the model saw and the path).
 */
import type { AssistantRow, Row, ToolCall, ToolResult, Usage } from "../engine/api.js";
import type { JournalEntry } from "./api.js";
import type { Part, Section } from "./parse.js";
import { TranscriptUnreadable } from "./errors.js";

const ASSISTANT = /^### assistant · seq (\d+) · step (\d+)(?: · (.+?))?(?: · in (\d+) \/ out (\d+) \/ cache read (\d+) \/ cache write (\d+))?$/;
const TOOL = /^### tool · seq (\d+) · step (\d+)$/;
const CALL = /^\*\*tool call\*\* `(.*)` · id `(.*)`$/;
const RESULT = /^\*\*result\*\* `(.*?)` · id `(.*?)`(.*)$/;

export interface TranscriptRows {
  rows: Row[];
  /** seqs whose section could not be read */
  unreadable: number[];
  /** rows whose tool result was truncated for the model and an older transcript holds the whole output instead */
  wholeOutputs: number;
}

const Unreadable = () => TranscriptUnreadable();

function block(p: Part | undefined): string {
  if (!p || p.kind !== "block") throw Unreadable();
  return p.body;
}

function line(p: Part | undefined, re: RegExp): RegExpExecArray {
  const m = p && p.kind === "line" ? re.exec(p.text) : null;
  if (!m) throw Unreadable();
  return m;
}

function assistant(s: Section, base: { seq: number; turn: number; at: number }): AssistantRow {
  const h = ASSISTANT.exec(s.heading);
  if (!h) throw Unreadable();
  const parts = [...s.parts];
  const text = parts[0]?.kind === "block" && parts[0].lang === "markdown" ? block(parts.shift()) : "";
  const toolCalls: ToolCall[] = [];
  while (parts.length) {
    const m = line(parts.shift(), CALL);
    const input = JSON.parse(block(parts.shift())) as unknown;
    if (typeof input !== "object" || input === null || Array.isArray(input)) throw Unreadable();
    toolCalls.push({ id: m[2]!, name: m[1]!, input: input as Record<string, unknown> });
  }
  const usage: Usage | undefined = h[4] !== undefined ? { inputTokens: Number(h[4]), outputTokens: Number(h[5]), cacheReadTokens: Number(h[6]), cacheWriteTokens: Number(h[7]) } : undefined;
  return { role: "assistant", ...base, step: Number(h[2]), text, toolCalls, ...(usage ? { usage } : {}), ...(h[3] ? { model: h[3] } : {}) };
}

function results(s: Section): { results: ToolResult[]; whole: boolean } {
  const parts = [...s.parts];
  const out: ToolResult[] = [];
  let whole = false;
  while (parts.length) {
    const m = line(parts.shift(), RESULT);
    const flags = m[3]!;
    const full = /full output (\d+) bytes(?: kept at (.+?); this is what the model saw)?/.exec(flags);
    // older transcripts inlined the whole output; newer ones keep what the model saw and point at the spill file
    if (full && flags.includes("the model saw a truncated copy")) whole = true;
    const truncated = full ? { fullBytes: Number(full[1]), ...(full[2] ? { fullPath: full[2] } : {}) } : undefined;
    out.push({ callId: m[2]!, name: m[1]!, content: block(parts.shift()), isError: flags.includes(" · error"), ...(truncated ? { truncated } : {}) });
  }
  return { results: out, whole };
}

/**
 * @param sections the sections to read (e.g. only those rows.jsonl lacks)
 * @param hints journal entries by seq (time and step of each row)
 * @param startedAt the transcript header's time (for a row the journal does not know)
 */
export function rowsFromSections(sections: readonly Section[], turn: number, hints: Map<number, JournalEntry>, startedAt: number): TranscriptRows {
  const out: TranscriptRows = { rows: [], unreadable: [], wholeOutputs: 0 };
  let prevAt = startedAt;
  for (const s of sections) {
    const hint = hints.get(s.seq);
    const base = { seq: s.seq, turn: hint?.turn ?? turn, at: hint?.at ?? prevAt };
    try {
      let row: Row;
      if (s.role === "user" || s.role === "note") {
        const parts = [...s.parts];
        const text = block(parts.shift());
        if (s.role === "note") {
          if (parts.length) throw Unreadable();
          row = { role: "note", ...base, step: hint?.step ?? 0, text };
        } else {
          const context: string[] = [];
          while (parts.length) {
            line(parts.shift(), /^context added for the model:$/);
            context.push(block(parts.shift()));
          }
          row = { role: "user", ...base, step: hint?.step ?? 0, text, ...(context.length ? { context } : {}) };
        }
      } else if (s.role === "assistant") row = assistant(s, base);
      else {
        const h = TOOL.exec(s.heading);
        if (!h) throw Unreadable();
        const r = results(s);
        if (r.whole) out.wholeOutputs++;
        row = { role: "tool", ...base, step: Number(h[2]), results: r.results };
      }
      out.rows.push(row);
      prevAt = row.at;
    } catch {
      out.unreadable.push(s.seq);
    }
  }
  return out;
}

/** The start time in a transcript's header (`session \`…\` · started <ISO>`). */
export function headerTime(text: string): number | undefined {
  const m = /^session `.*` · started (\S+)$/m.exec(text.slice(0, 400));
  const t = m ? Date.parse(m[1]!) : NaN;
  return Number.isNaN(t) ? undefined : t;
}

/** Rows to Markdown, verbatim: every text and tool output as the model saw it, fenced so nothing can break out. */
import path from "node:path";
import type { Row, ToolResult } from "../engine/api.js";
import { turnEndedText } from "./kit/shared.js";
import type { SessionLedger } from "./ledger.js";

/** A fence longer than any backtick run in the text. */
export function fence(text: string): string {
  let longest = 0;
  for (const m of text.matchAll(/`+/g)) longest = Math.max(longest, m[0].length);
  return "`".repeat(Math.max(3, longest + 1));
}

function block(text: string, lang = ""): string {
  const f = fence(text);
  return `${f}${lang}\n${text}${text.endsWith("\n") ? "" : "\n"}${f}\n`;
}

export function turnHeader(turn: number, sessionId: string, at: number): string {
  return `# Turn ${turn}\n\nsession \`${sessionId}\` · started ${new Date(at).toISOString()}\n\n`;
}

/** `full` maps a tool call id to a whole output to inline (the ledger passes none: truncated results point at their spill file). */
export function renderRow(row: Row, full?: Map<string, string>): string {
  switch (row.role) {
    case "user": {
      let s = `### user · seq ${row.seq}\n\n${block(row.text)}\n`;
      for (const c of row.context ?? []) s += `context added for the model:\n\n${block(c)}\n`;
      return s;
    }
    case "note":
      // an interrupted turn's note carries the marker in its heading too
      return `### note · seq ${row.seq}${row.kind === "interrupted" ? " · interrupted" : ""}\n\n${block(row.text)}\n`;
    case "assistant": {
      const u = row.usage;
      const usage = u ? ` · in ${u.inputTokens} / out ${u.outputTokens} / cache read ${u.cacheReadTokens} / cache write ${u.cacheWriteTokens}` : "";
      let s = `### assistant · seq ${row.seq} · step ${row.step}${row.model ? ` · ${row.model}` : ""}${usage}\n\n`;
      if (row.text) s += `${block(row.text, "markdown")}\n`;
      for (const c of row.toolCalls) s += `**tool call** \`${c.name}\` · id \`${c.id}\`\n\n${block(JSON.stringify(c.input, null, 2), "json")}\n`;
      return s;
    }
    case "tool": {
      let s = `### tool · seq ${row.seq} · step ${row.step}\n\n`;
      for (const r of row.results) s += renderResult(r, full?.get(r.callId));
      return s;
    }
  }
}

/**
 * A truncated result is written as the model saw it, with a pointer to its spill file (tools.max_output_bytes
 * caps that file): the output is stored once, there, never copied into the transcript (a 400 MB output
 * would otherwise be read into memory and written twice). `whole` (older callers, repairs of old ledgers):
 * the text to inline instead.
 */
function renderResult(r: ToolResult, whole: string | undefined): string {
  const pointer = (t: NonNullable<ToolResult["truncated"]>) => `full output ${t.fullBytes} bytes${t.fullPath ? ` kept at ${t.fullPath}` : ""}; this is what the model saw`;
  const flags = [r.isError ? "error" : "", r.truncated ? (whole === undefined ? pointer(r.truncated) : `full output ${r.truncated.fullBytes} bytes; the model saw a truncated copy`) : ""].filter(Boolean);
  return `**result** \`${r.name}\` · id \`${r.callId}\`${flags.length ? ` · ${flags.join(" · ")}` : ""}\n\n${block(whole ?? r.content)}\n`;
}

/** Row headings of a transcript (`### <role> · seq N`), skipping anything inside fenced blocks. */
export function rowHeadings(markdown: string): Array<{ seq: number; index: number }> {
  const out: Array<{ seq: number; index: number }> = [];
  let open = 0; // length of the open fence, 0 when outside
  let pos = 0;
  for (const line of markdown.split("\n")) {
    const f = /^(`{3,})/.exec(line);
    if (open === 0 && f) open = f[1]!.length;
    else if (open > 0 && f && /^`+\s*$/.test(line) && f[1]!.length >= open) open = 0;
    else if (open === 0) {
      const m = /^### (?:user|note|assistant|tool) · seq (\d+)/.exec(line);
      if (m) out.push({ seq: Number(m[1]), index: pos });
    }
    pos += line.length + 1;
  }
  return out;
}

/** The highest `seq N` a transcript file holds (to resume after a crash). */
export function lastSeqIn(markdown: string): number {
  return rowHeadings(markdown).reduce((m, h) => Math.max(m, h.seq), 0);
}

/** index.md: one table line per turn. */
export function renderIndex(st: SessionLedger): string {
  const out = [`# Ledger of session \`${st.id}\``, ""];
  if (st.cutSeq > 0) out.push(`Every row up to seq ${st.cutSeq} is past the tideline; turns wholly past it are merged into [SESSION.md](SESSION.md).`, "");
  out.push("| Turn | Transcript | Seq | Steps | Started | Ended | Past tideline | Title |", "|---:|---|---|---:|---|---|---|---|");
  for (const t of st.turns) {
    out.push(`| ${t.turn} | [${path.basename(t.file)}](${t.file}) | ${t.firstSeq}–${t.lastSeq} | ${t.steps} | ${new Date(t.startedAt).toISOString()} | ${turnEndedText(t)} | ${t.pastTideline ? "yes" : "no"} | ${t.title.replace(/\|/g, "\\|")} |`);
  }
  return `${out.join("\n")}\n`;
}

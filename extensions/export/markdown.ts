/** The Markdown export: frontmatter, every turn (the ledger's transcript files when they exist), a ## Summary table, the ## Plan (todos). */
import fs from "node:fs";
import path from "node:path";
import type { Row, StoredSession } from "../engine/api.js";
import { readStoredTodos, renderTodoLines } from "../todos/kit.js";
import { crashedText, turnEndings } from "./status.js";

export interface TurnSummary {
  turn: number;
  steps: number;
  firstSeq: number;
  lastSeq: number;
  tools: number;
  errors: number;
  inputTokens: number;
  outputTokens: number;
  title: string;
}

function yamlString(s: string): string {
  return JSON.stringify(s);
}

function oneLine(text: string, max: number): string {
  const l = text.replace(/\s+/g, " ").trim();
  return l.length > max ? `${l.slice(0, max - 1)}…` : l;
}

export function summarizeTurns(rows: Row[]): TurnSummary[] {
  const out = new Map<number, TurnSummary>();
  for (const r of rows) {
    let t = out.get(r.turn);
    if (!t) {
      t = { turn: r.turn, steps: 0, firstSeq: r.seq, lastSeq: r.seq, tools: 0, errors: 0, inputTokens: 0, outputTokens: 0, title: "" };
      out.set(r.turn, t);
    }
    t.lastSeq = r.seq;
    t.steps = Math.max(t.steps, r.step);
    if (!t.title && (r.role === "user" || r.role === "note")) t.title = oneLine(r.text, 60);
    if (r.role === "assistant") {
      t.tools += r.toolCalls.length;
      t.inputTokens += (r.usage?.inputTokens ?? 0) + (r.usage?.cacheReadTokens ?? 0) + (r.usage?.cacheWriteTokens ?? 0);
      t.outputTokens += r.usage?.outputTokens ?? 0;
    }
    if (r.role === "tool") t.errors += r.results.filter((x) => x.isError).length;
  }
  return [...out.values()];
}

/** Render rows of one turn when no transcript file exists (the ledger's renderer is not ours to import). */
function renderTurnFromRows(rows: Row[]): string {
  const fence = (t: string) => "`".repeat(Math.max(3, ...[...t.matchAll(/`+/g)].map((m) => m[0].length + 1)));
  const block = (t: string) => `${fence(t)}\n${t}${t.endsWith("\n") ? "" : "\n"}${fence(t)}\n`;
  let s = "";
  for (const r of rows) {
    if (r.role === "user" || r.role === "note") s += `#### ${r.role} · seq ${r.seq}${r.role === "note" && r.kind === "interrupted" ? " · interrupted" : ""}\n\n${block(r.text)}\n`;
    else if (r.role === "assistant") {
      s += `#### assistant · seq ${r.seq} · step ${r.step}\n\n${r.text ? `${block(r.text)}\n` : ""}`;
      for (const c of r.toolCalls) s += `**tool call** \`${c.name}\` · id \`${c.id}\`\n\n${block(JSON.stringify(c.input, null, 2))}\n`;
    } else for (const x of r.results) s += `**result** \`${x.name}\` · id \`${x.callId}\`${x.isError ? " · error" : ""}\n\n${block(x.content)}\n`;
  }
  return s;
}

/** One heading level down, outside fenced blocks only (tool outputs stay verbatim). */
export function shiftHeadings(text: string): string {
  let open = 0;
  return text
    .split("\n")
    .map((line) => {
      const f = /^(`{3,})/.exec(line);
      if (open === 0 && f) open = f[1]!.length;
      else if (open > 0 && f && /^`+\s*$/.test(line) && f[1]!.length >= open) open = 0;
      else if (open === 0 && /^#{1,5} /.test(line)) return `#${line}`;
      return line;
    })
    .join("\n");
}

export function exportMarkdown(stored: StoredSession, ledgerDir: string | undefined, now = Date.now()): string {
  const { info, rows, totals } = stored;
  const turns = summarizeTurns(rows);
  const byTurn = new Map<number, Row[]>();
  for (const r of rows) (byTurn.get(r.turn) ?? byTurn.set(r.turn, []).get(r.turn)!).push(r);
  const title = info.title ?? turns[0]?.title ?? info.id;
  const endings = turnEndings(rows, ledgerDir);
  const incomplete = (how: string) => turns.filter((t) => endings.get(t.turn)?.incomplete === how).map((t) => t.turn);
  const fm = [
    "---",
    `session: ${yamlString(info.id)}`,
    `title: ${yamlString(title)}`,
    `model: ${yamlString(info.model)}`,
    `cwd: ${yamlString(info.cwd)}`,
    ...(info.parentId ? [`parent: ${yamlString(info.parentId)}`] : []),
    `created: ${new Date(info.createdAt).toISOString()}`,
    `exported: ${new Date(now).toISOString()}`,
    `turns: ${turns.length}`,
    `steps: ${totals.steps}`,
    `input_tokens: ${totals.usage.inputTokens}`,
    `output_tokens: ${totals.usage.outputTokens}`,
    `cache_read_tokens: ${totals.usage.cacheReadTokens}`,
    `cost_usd: ${totals.costUsd}`,
    ...(incomplete("interrupted").length ? [`interrupted_turns: [${incomplete("interrupted").join(", ")}]`] : []),
    ...(incomplete("crashed").length ? [`crashed_turns: [${incomplete("crashed").join(", ")}]`] : []),
    `source: ${ledgerDir ? "ledger transcripts" : "database rows"}`,
    "---",
    "",
    `# ${title}`,
    "",
  ];
  const body: string[] = [];
  for (const t of turns) {
    let text: string | undefined;
    if (ledgerDir) {
      try {
        text = fs.readFileSync(path.join(ledgerDir, "transcript", `turn-${String(t.turn).padStart(4, "0")}.md`), "utf8");
        // the transcript's own "# Turn N" heading becomes this document's "## Turn N"; its sections go one level down
        text = shiftHeadings(text);
      } catch {
        text = undefined;
      }
    }
    // a crashed turn rendered from rows gets the marker the ledger's transcript would carry
    const crashed = endings.get(t.turn)?.incomplete === "crashed" ? `#### crashed · after seq ${t.lastSeq}\n\n${crashedText(t.turn, t.lastSeq)}\n\n` : "";
    body.push(text ?? `## Turn ${t.turn}\n\n${renderTurnFromRows(byTurn.get(t.turn) ?? [])}${crashed}`);
  }
  const summary = [
    "## Summary",
    "",
    "| Turn | Steps | Seq | Tool calls | Errors | Prompt tokens | Output tokens | Ended | Title |",
    "|---:|---:|---|---:|---:|---:|---:|---|---|",
    ...turns.map((t) => `| ${t.turn} | ${t.steps} | ${t.firstSeq}–${t.lastSeq} | ${t.tools} | ${t.errors} | ${t.inputTokens} | ${t.outputTokens} | ${endings.get(t.turn)?.text || "–"} | ${t.title.replace(/\|/g, "\\|")} |`),
    `| **total** | ${totals.steps} | ${rows[0]?.seq ?? 0}–${rows.at(-1)?.seq ?? 0} | ${turns.reduce((n, t) => n + t.tools, 0)} | ${turns.reduce((n, t) => n + t.errors, 0)} | ${totals.usage.inputTokens + totals.usage.cacheReadTokens + totals.usage.cacheWriteTokens} | ${totals.usage.outputTokens} | | cost $${totals.costUsd.toFixed(4)} |`,
    "",
  ];
  // the session's todo list (the todos extension), when the model or a person wrote one (the floor is not shown)
  const todos = readStoredTodos(stored.info.overrides);
  const plan = todos && !todos.floor && todos.items.length ? ["## Plan", "", ...renderTodoLines(todos.items), ""] : [];
  return `${fm.join("\n")}${body.join("\n")}\n${summary.join("\n")}${plan.length ? `\n${plan.join("\n")}` : ""}`;
}

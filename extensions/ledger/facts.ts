/**
 * The mechanical facts of a turn, from its rows alone (no model calls): files touched by the file tools,
 * commands with exit codes from bash results, errors (and their fix when the same call later succeeds),
 * the goal, the environment, the code map, the next step.
 */
import path from "node:path";
import type { Row, ToolCall, ToolResult } from "../engine/api.js";
import type { SessionPage } from "./page.js";

const FILE_TOOLS: Record<string, string> = { read: "read", write: "write", edit: "edit", multiedit: "edit", apply_patch: "edit", patch: "edit" };
const SHELL_TOOLS = new Set(["bash", "shell", "sh"]);

function oneLine(text: string, max = 160): string {
  const l = text.replace(/\s+/g, " ").trim();
  return l.length > max ? `${l.slice(0, max - 1)}…` : l;
}

function filePathOf(input: Record<string, unknown>): string | undefined {
  for (const k of ["path", "file_path", "filePath", "file"]) if (typeof input[k] === "string") return input[k] as string;
  return undefined;
}

/** The exit code a bash result reports, if any ("exit code: 1", "exit 2", "[exit 0]"). */
export function exitCodeOf(content: string): number | undefined {
  const m = /\bexit(?:ed)?(?:\s+code)?\s*[:=]?\s*(-?\d+)\b/i.exec(content.slice(-400)) ?? /\bexit(?:ed)?(?:\s+code)?\s*[:=]?\s*(-?\d+)\b/i.exec(content.slice(0, 400));
  return m ? Number(m[1]) : undefined;
}

export interface FactContext {
  cwd: string;
  model: string;
  /** files touched so far: path -> ops (kept across turns for in-place lines) */
  files: Map<string, Set<string>>;
}

export function applyTurnFacts(page: SessionPage, rows: Row[], turn: number, fc: FactContext): void {
  const t = `(t${turn})`;
  const calls = new Map<string, ToolCall>();
  let lastAssistant = "";
  for (const row of rows) {
    if (row.role === "user" && !page.has("goal")) page.upsert("Goal", "goal", `${oneLine(row.text, 300)} ${t}`);
    if (row.role === "assistant") {
      for (const c of row.toolCalls) calls.set(c.id, c);
      if (row.text.trim()) lastAssistant = row.text;
      if (row.model && page.get("env:model") !== undefined && !page.get("env:model")!.includes(row.model)) page.upsert("Environment", "env:model", `model: ${row.model} ${t}`);
    }
    if (row.role === "tool") for (const r of row.results) applyResult(page, calls.get(r.callId), r, t, fc);
  }
  if (!page.has("env:cwd")) page.upsert("Environment", "env:cwd", `working directory: ${fc.cwd} ${t}`);
  if (!page.has("env:model")) page.upsert("Environment", "env:model", `model: ${fc.model} ${t}`);
  if (lastAssistant) {
    page.upsert("Next step", "next", `after turn ${turn}: ${oneLine(lastAssistant, 240)} ${t}`);
    const q = /([^.!?\n]*\?)\s*$/.exec(lastAssistant.trim());
    if (q) page.upsert("Open questions", `q:${oneLine(q[1]!, 80)}`, `${oneLine(q[1]!, 240)} ${t}`);
  }
}

function applyResult(page: SessionPage, call: ToolCall | undefined, r: ToolResult, t: string, fc: FactContext): void {
  const name = (call?.name ?? r.name).toLowerCase();
  const input = call?.input ?? {};
  const op = FILE_TOOLS[name];
  const file = op ? filePathOf(input) : undefined;
  if (op && file && !r.isError) {
    const rel = path.isAbsolute(file) ? path.relative(fc.cwd, file) || file : file;
    const ops = fc.files.get(rel) ?? new Set<string>();
    ops.add(op);
    fc.files.set(rel, ops);
    page.upsert("Files touched", `file:${rel}`, `\`${rel}\` — ${[...ops].join(", ")} ${t}`);
    const dir = path.dirname(rel);
    const names = [...fc.files.keys()].filter((f) => path.dirname(f) === dir).map((f) => path.basename(f));
    page.upsert("Code map", `dir:${dir}`, `\`${dir}/\` — ${names.join(", ")} ${t}`);
  }
  let subject = file ?? "";
  if (SHELL_TOOLS.has(name) && typeof input.command === "string") {
    subject = input.command;
    const code = exitCodeOf(r.content);
    const status = code !== undefined ? `exit ${code}` : r.isError ? "failed" : "ok";
    page.upsert("Commands", `cmd:${oneLine(subject, 200)}`, `\`${oneLine(subject, 200)}\` → ${status} ${t}`);
    if (code !== undefined && code !== 0 && !r.isError) r = { ...r, isError: true };
  }
  const ekey = `err:${name}:${oneLine(subject, 200)}`;
  if (r.isError) {
    page.upsert("Errors and fixes", ekey, `\`${name}\`${subject ? ` \`${oneLine(subject, 120)}\`` : ""}: ${oneLine(r.content, 200)} ${t}`);
  } else if (page.has(ekey)) {
    const old = page.get(ekey)!;
    if (!old.includes("→ fixed")) page.upsert("Errors and fixes", ekey, `${old} → fixed ${t}`);
  }
}

/**
 * A tool call as one readable row, never raw JSON: `$ npm test` for bash, `Read src/a.ts · lines 10-59`,
 * `Search "TODO" in src (*.ts)`, `Edit src/a.ts +3 −1`, `github·create_issue(title: "Fix…", body: …)` for an
 * MCP tool, and `name(key: value, …)` with short values for anything else. todo_write's body is its list.
 * Plain text: the caller makes it display-safe (visibleLine) and styles it.
 */
import path from "node:path";
import type { FileDiff, ToolCall } from "../../../extensions/engine/api.js";
import { diffCounts } from "./diff.js";

const str = (v: unknown): string | undefined => (typeof v === "string" && v ? v : undefined);
const num = (v: unknown): number | undefined => (typeof v === "number" && Number.isFinite(v) ? v : undefined);

/** A path shown relative to the project when inside it. */
export function shortPath(p: string, cwd: string | undefined): string {
  if (!cwd || !path.isAbsolute(p)) return p;
  const rel = path.relative(cwd, p);
  return rel && !rel.startsWith("..") && !path.isAbsolute(rel) ? rel : p;
}

function clip(s: string, n: number): string {
  const one = s.replace(/\s*\n\s*/g, " ⏎ ");
  return one.length > n ? `${one.slice(0, n - 1)}…` : one;
}

/** `key: value` pairs, each value short (strings quoted and clipped, objects as {…}). */
export function shortArgs(input: Record<string, unknown>, max = 3): string {
  const parts: string[] = [];
  for (const [k, v] of Object.entries(input)) {
    if (parts.length >= max) {
      parts.push("…");
      break;
    }
    let shown: string;
    if (typeof v === "string") shown = `"${clip(v, 40)}"`;
    else if (typeof v === "number" || typeof v === "boolean" || v === null) shown = String(v);
    else if (Array.isArray(v)) shown = `[${v.length}]`;
    else shown = "{…}";
    parts.push(`${k}: ${shown}`);
  }
  return parts.join(", ");
}

export function toolLine(call: ToolCall, opts: { cwd?: string; diff?: FileDiff } = {}): string {
  const i = call.input;
  const p = (k: string) => {
    const v = str(i[k]);
    return v ? shortPath(v, opts.cwd) : undefined;
  };
  switch (call.name) {
    case "bash": {
      const cmd = str(i.command) ?? "";
      const first = cmd.split("\n")[0] ?? "";
      return `$ ${first}${cmd.includes("\n") ? " …" : ""}${i.run_in_background === true ? "  (background)" : ""}`;
    }
    case "read": {
      const off = num(i.offset);
      const lim = num(i.limit);
      const range = off !== undefined || lim !== undefined ? ` · lines ${off ?? 1}-${lim !== undefined ? (off ?? 1) + lim - 1 : "end"}` : "";
      return `Read ${p("file_path") ?? "?"}${range}`;
    }
    case "edit":
    case "write": {
      const verb = call.name === "edit" ? "Edit" : opts.diff?.created ? "Create" : "Write";
      return `${verb} ${p("file_path") ?? "?"}${opts.diff ? ` ${diffCounts(opts.diff)}` : ""}`;
    }
    case "grep": {
      const where = p("path");
      const glob = str(i.glob);
      return `Search "${clip(str(i.pattern) ?? "", 60)}"${where ? ` in ${where}` : ""}${glob ? ` (${glob})` : ""}`;
    }
    case "glob": {
      const where = p("path");
      return `Find ${str(i.pattern) ?? "?"}${where ? ` in ${where}` : ""}`;
    }
    case "ls":
      return `List ${p("path") ?? "."}`;
    case "todo_write": {
      const n = Array.isArray(i.todos) ? i.todos.length : 0;
      return `Update todos (${n} item${n === 1 ? "" : "s"})`;
    }
    case "web_fetch":
    case "fetch":
      return `Fetch ${str(i.url) ?? "?"}`;
    case "web_search":
      return `Web search "${clip(str(i.query) ?? "", 60)}"`;
    case "task":
    case "agent":
      return `Task "${clip(str(i.description) ?? str(i.prompt) ?? "", 60)}"`;
  }
  const mcp = /^mcp__(.+?)__(.+)$/.exec(call.name);
  if (mcp) return `${mcp[1]}·${mcp[2]}(${shortArgs(i)})`;
  return `${call.name}(${shortArgs(i)})`;
}

export interface TodoRow {
  mark: string;
  text: string;
  status: string;
}

/** todo_write's list as checklist rows (☑ done, ▶ in progress, ☐ pending, ✗ cancelled). */
export function todoRows(input: Record<string, unknown>): TodoRow[] {
  const todos = Array.isArray(input.todos) ? input.todos : [];
  const out: TodoRow[] = [];
  for (const t of todos) {
    if (!t || typeof t !== "object") continue;
    const o = t as Record<string, unknown>;
    const status = str(o.status) ?? "pending";
    const text = (status === "in_progress" ? str(o.activeForm) : undefined) ?? str(o.content) ?? "";
    const mark = status === "completed" ? "☑" : status === "in_progress" ? "▶" : status === "cancelled" ? "✗" : "☐";
    out.push({ mark, text, status });
  }
  return out;
}

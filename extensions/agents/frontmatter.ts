/**
 * An agent file's YAML frontmatter (read as skills read theirs: oceancode/api/skills readFrontmatter) translated into one AgentSpec,
 * whichever ecosystem wrote it:
 *   Claude Code / oceancode / Grok: `name`, `description`, `tools` (a comma list or a YAML list of tool
 *     names; absent = all tools), `model` (sonnet | opus | haiku | inherit | an id);
 *   OpenCode: the file name is the name; `description`, `mode` (primary | subagent | all; primary agents
 *     are not sub-agents), `model`, `tools` as a map tool -> bool (false turns a tool off), `disable`.
 * A frontmatter that does not parse yields a warning naming the file; the agent loads under its file name
 * with its first body line as description.
 */
import { type FrontmatterData } from "../skills/api.js";
import { readFrontmatter, toolList } from "../skills/kit.js";
import type { AgentSpec, ToolSelection } from "./api.js";

const NAME_OK = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;

export type Parsed = Pick<FrontmatterData, "data" | "body" | "error">;

export function parseFrontmatter(text: string): Parsed {
  const { data, body, error } = readFrontmatter(text);
  return { data, body, ...(error ? { error } : {}) };
}

export { toolList };

function claudeTools(v: unknown): ToolSelection | { error: string } {
  if (v === undefined || v === null) return { mode: "all" };
  const names = toolList(v);
  if (!names) return { error: "'tools' is neither a list nor a comma-separated string; all tools are allowed" };
  if (names.includes("*")) return { mode: "all" };
  return { mode: "allow", names };
}

function openCodeTools(v: unknown): ToolSelection | { error: string } {
  if (v === undefined || v === null) return { mode: "all" };
  if (typeof v === "object" && !Array.isArray(v)) {
    const off = Object.entries(v as Record<string, unknown>)
      .filter(([, on]) => on === false || on === "false")
      .map(([k]) => k);
    return off.length ? { mode: "deny", names: off } : { mode: "all" };
  }
  return claudeTools(v); // a Claude-style list in an OpenCode file means what it says
}

function str(v: unknown): string | undefined {
  return typeof v === "string" && v.trim() ? v.trim() : typeof v === "number" ? String(v) : undefined;
}

/** The first non-empty line of a body, without a leading `#`. */
export function firstLine(body: string): string {
  for (const line of body.split(/\r?\n/)) {
    const t = line.replace(/^#+\s*/, "").trim();
    if (t) return t.length > 200 ? `${t.slice(0, 197)}...` : t;
  }
  return "";
}

/** Translate one agent file (its text) into an AgentSpec; `fallback` is the file name without `.md`. */
export function translate(ecosystem: string, text: string, fallback: string, file: string): AgentSpec {
  const p = parseFrontmatter(text);
  const d = p.data;
  const warnings: string[] = [];
  if (p.error) warnings.push(`${p.error}; loaded as '${fallback}'`);
  const opencode = ecosystem === "opencode";
  let name = opencode ? fallback : (str(d.name) ?? fallback);
  if (!NAME_OK.test(name)) {
    warnings.push(`name '${name}' is not a valid agent name; loaded as '${fallback}'`);
    name = fallback;
  }
  const prompt = p.body.replace(/^\s*\n/, "").trimEnd();
  const sel = opencode ? openCodeTools(d.tools) : claudeTools(d.tools);
  if ("error" in sel) warnings.push(sel.error);
  const mode = str(d.mode);
  const invocable = !(opencode && (mode === "primary" || d.disable === true));
  const model = str(d.model);
  return {
    name,
    description: (str(d.description) ?? (firstLine(prompt) || name)).replace(/\s+/g, " "),
    prompt,
    tools: "error" in sel ? { mode: "all" } : sel,
    ...(model ? { model } : {}),
    invocable,
    ...(warnings.length ? { warning: `${file}: ${warnings.join("; ")}` } : {}),
  };
}

/**
 * An agent file's YAML frontmatter (js-yaml, as skills parse theirs) translated into one AgentSpec,
 * whichever ecosystem wrote it:
 *   Claude Code / oceancode / Grok: `name`, `description`, `tools` (a comma list or a YAML list of tool
 *     names; absent = all tools), `model` (sonnet | opus | haiku | inherit | an id);
 *   OpenCode: the file name is the name; `description`, `mode` (primary | subagent | all; primary agents
 *     are not sub-agents), `model`, `tools` as a map tool -> bool (false turns a tool off), `disable`.
 * A frontmatter that does not parse yields a warning naming the file; the agent loads under its file name
 * with its first body line as description.
 */
import { load } from "js-yaml";
import type { AgentSpec, ToolSelection } from "./api.js";

const FENCE = /^---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;
const NAME_OK = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;

export interface Parsed {
  data: Record<string, unknown>;
  body: string;
  error?: string;
}

export function parseFrontmatter(text: string): Parsed {
  const src = text.replace(/^\uFEFF/, "");
  if (!src.startsWith("---")) return { data: {}, body: src };
  const m = FENCE.exec(src);
  if (!m) return { data: {}, body: src.replace(/^---[^\n]*\n?/, ""), error: "the frontmatter has no closing ---" };
  const body = src.slice(m[0].length);
  let data: unknown;
  try {
    data = m[1]!.trim() === "" ? {} : load(m[1]!);
  } catch (e) {
    const msg = e instanceof Error ? e.message.split("\n")[0]! : String(e);
    return { data: {}, body, error: `the frontmatter is not valid YAML (${msg})` };
  }
  if (data === null || data === undefined) return { data: {}, body };
  if (typeof data !== "object" || Array.isArray(data)) return { data: {}, body, error: "the frontmatter is not a YAML mapping" };
  return { data: data as Record<string, unknown>, body };
}

/** A tool list as Claude Code writes it: a YAML list or one comma / space separated string (`Bash(git *)` stays one name). */
export function toolList(v: unknown): string[] | undefined {
  if (Array.isArray(v)) return v.map((x) => String(x).trim()).filter(Boolean);
  if (typeof v === "string") return v.split(/,\s*|\s+(?![^(]*\))/).map((s) => s.trim()).filter(Boolean);
  return undefined;
}

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

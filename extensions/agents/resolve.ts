/**
 * What a child session gets from its agent: the tool allow-list (the agent's selection matched against
 * the registered tools) and the model (aliases mapped onto the parent's provider).
 */
import type { PointContribution } from "../../kernel/api.js";
import { type ModelNameEntry, type ToolDefinition } from "../engine/api.js";
import { ModelNames } from "../engine/kit.js";
import { AGENT_TOOL, type ToolSelection } from "./api.js";

/** Claude Code's and OpenCode's names for tools oceancode spells differently (lower case). */
const ALIASES: Readonly<Record<string, string>> = { multiedit: "edit", list: "ls", patch: "edit", bashoutput: "job_output", killshell: "job_kill" };

/**
 * Tools a child never gets: `agent` (no nesting, as in Claude Code), and the skill and MCP tools (the
 * guide: sub-agent children are sent the built-in tools only).
 */
export function childMayHave(name: string): boolean {
  return name !== AGENT_TOOL && name !== "skill" && !name.startsWith("mcp__");
}

function matcher(raw: string): (t: Pick<ToolDefinition, "name" | "claudeName">) => boolean {
  const bare = raw.replace(/\(.*\)$/, "").trim().toLowerCase();
  const want = ALIASES[bare] ?? bare;
  if (want.includes("*")) {
    const re = new RegExp(`^${want.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace(/\*/g, ".*")}$`);
    return (t) => re.test(t.name.toLowerCase()) || (t.claudeName !== undefined && re.test(t.claudeName.toLowerCase()));
  }
  return (t) => t.name.toLowerCase() === want || t.claudeName?.toLowerCase() === want;
}

/** The child's allow-list, in registry order, and the names that matched no tool. */
export function childTools(sel: ToolSelection, registered: ReadonlyArray<Pick<ToolDefinition, "name" | "claudeName">>): { tools: string[]; unknown: string[] } {
  const pool = registered.filter((t) => childMayHave(t.name));
  if (sel.mode === "all") return { tools: pool.map((t) => t.name), unknown: [] };
  const matchers = sel.names.map((n) => ({ n, m: matcher(n) }));
  const unknown = matchers.filter(({ m }) => !registered.some(m)).map(({ n }) => n);
  const hit = (t: Pick<ToolDefinition, "name" | "claudeName">) => matchers.some(({ m }) => m(t));
  const tools = sel.mode === "allow" ? pool.filter(hit) : pool.filter((t) => !hit(t));
  return { tools: tools.map((t) => t.name), unknown };
}

/**
 * Model aliases (lower case) -> full ids. One source: the provider manifests' contributes.models (the
 * anthropic manifest lists Claude Code's sonnet, opus, haiku), read with ModelNames.
 */
export type ModelAliases = ReadonlyMap<string, string>;
const NO_ALIASES: ModelAliases = new Map();

/** The aliases the live provider manifests list. */
export function modelAliases(providers: ReadonlyArray<PointContribution<string[]>>, models: ReadonlyArray<PointContribution<ModelNameEntry[]>>): ModelAliases {
  return new Map(ModelNames.fromContributions(providers, models).aliases());
}

/**
 * The child's model id (`provider/model`): absent or `inherit` -> the parent's; an alias -> its model when
 * that is on the parent's provider, else the parent's model (the alias names a family the parent's
 * provider does not serve); `provider/model` as written; a bare id on the parent's provider.
 */
export function childModel(spec: string | undefined, parent: string, aliases: ModelAliases = NO_ALIASES): string {
  const s = spec?.trim();
  if (!s || s === "inherit") return parent;
  const provider = parent.slice(0, Math.max(0, parent.indexOf("/")));
  const alias = aliases.get(s.toLowerCase());
  if (alias) return alias.startsWith(`${provider}/`) ? alias : parent;
  if (s.includes("/")) return s;
  return provider ? `${provider}/${s}` : s;
}

/** The child's model for an agent, and why the agent's own choice was not used (untrusted agents). */
export interface ChildModelPick {
  model: string;
  /** set when an untrusted agent named a model the user has not configured: what it named */
  refused?: string;
}

/**
 * An untrusted agent's `model` is repo text: it may only pick a model the user configured (`configured`:
 * the session's model, its sub-agent model, the `model` and `subagent.model` config); anything else, a
 * `scripted/<file>` model above all (the repo would write the tool calls), falls back to `base`.
 */
export function pickChildModel(spec: string | undefined, base: string, parent: string, opts: { trusted: boolean; configured: readonly string[]; aliases?: ModelAliases }): ChildModelPick {
  const wanted = childModel(spec, base, opts.aliases);
  if (opts.trusted || wanted === base) return { model: wanted };
  const known = new Set([base, parent, ...opts.configured.map((c) => childModel(c, parent, opts.aliases))]);
  return known.has(wanted) ? { model: wanted } : { model: base, refused: wanted };
}

/** The notice an untrusted agent's refused model gets (in the tool result and the log). */
export function refusedModelNote(agent: { qualifiedName: string; tier: string; plugin?: string }, refused: string, used: string): string {
  const where = agent.plugin ? `plugin '${agent.plugin}' is not trusted` : `the ${agent.tier} tier is not trusted here (oceancode trust repo on)`;
  return `[sub-agent '${agent.qualifiedName}' asked for model '${refused}', which you have not configured, and ${where}: it ran on ${used}]`;
}

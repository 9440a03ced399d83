/**
 * The published contract `oceancode/api/agents`.
 *
 * Agents found by the discovery walk's reader "agents" at every tier (local, repo, user, plugin) and in
 * every ecosystem's root: Claude Code and oceancode `agents/*.md`, OpenCode `agent/*.md` and `agents/*.md`,
 * Grok `agents/*.md` and `personas/*.md`. Each file is translated into one shape (AgentSpec): a name, a
 * description, a system prompt (the body), a tool selection and a model. One catalog, resolved with the
 * skills' collision rule and stable ids `<tier>.<eco>:<name>` (see oceancode/api/skills). The built-in
 * `general-purpose` agent exists with no file.
 *
 * The `agent` tool (Claude Code's `Task`: `{subagent_type, description, prompt, run_in_background?}`) runs
 * one as a child session: its body opens the system prompt, only its tools are offered (never `agent`
 * itself: no nesting), it stops at engine.max_subagent_steps, and its final text is the tool's result.
 */

/** The tool's name; Claude Code hook matchers see it as `Task`. */
export const AGENT_TOOL = "agent";
export const AGENT_TOOL_CLAUDE_NAME = "Task";
/** The agent that exists with no file: every tool, a generic prompt. */
export const GENERAL_PURPOSE = "general-purpose";

/**
 * Which tools an agent may use, as its file says:
 * - "all": every tool the child may have (Claude Code: no `tools` key);
 * - allow: only these (Claude Code `tools: Read, Grep`; names are ours or Claude Code's, case-insensitive, `*` globs);
 * - deny: every tool but these (OpenCode `tools: {write: false}` keeps the rest; an entry `true` re-allows).
 */
export type ToolSelection = { mode: "all" } | { mode: "allow"; names: string[] } | { mode: "deny"; names: string[] };

/** One agent file, translated (what the reader returns, before the catalog names it). */
export interface AgentSpec {
  /** the bare name (frontmatter `name`, else the file name) */
  name: string;
  description: string;
  /** the body: the child's system prompt */
  prompt: string;
  tools: ToolSelection;
  /** as written: `sonnet` | `opus` | `haiku` | `inherit` | a model id (`provider/model` or a bare id) */
  model?: string;
  /** false: the model cannot start it (OpenCode `mode: primary`, `disable: true`) */
  invocable: boolean;
  /** why the frontmatter (or part of it) was not used; the agent still loads */
  warning?: string;
}

export interface Agent extends AgentSpec {
  /** what the model passes as subagent_type: bare when unique, else `<tier>:<name>`; plugin agents `<plugin>:<name>` */
  qualifiedName: string;
  /** `<tier>.<eco>:<name>`; `bundled.ocean_code:general-purpose` for the built-in */
  id: string;
  tier: string;
  ecosystem: string;
  plugin?: string;
  /** the agent file; "" for the built-in */
  file: string;
  /** a narrower copy with the same bare name won the bare name */
  shadowed: boolean;
  /** its root is trusted without asking (local, user, bundled, a plugin installed with trust); repo: see AgentsService.trusted */
  rootTrusted?: boolean;
}

/** The `agents` service. */
export interface AgentsService {
  /** every agent found, walk order (narrowest first), then the built-in; cached until reload() */
  list(): Agent[];
  reload(): Agent[];
  /** a qualified name, a stable id, or a bare name (the narrowest copy); only agents the model may start */
  resolve(name: string): Agent | undefined;
  /** the `<available_agents>` block for the system prompt */
  listing(): string;
  /**
   * Is the agent's file trusted (its root trusted without asking, or the repo tier with `trust repo on`)?
   * An untrusted agent's text is inert: it cannot choose a model the user has not configured (a
   * `scripted/<file>` model would let the repo write the tool calls). Absent: treated as not trusted.
   */
  trusted?(agent: Agent): boolean;
}

/** A model named by its provider: `id` is `provider/model` (GET /session/{id}/subagent answers one). */
export interface ModelRef {
  provider: string;
  model: string;
  id: string;
}

/** The services this contract names, typed for `ctx.services.get(name)` and `kernel.service(name)`. */
declare module "../../kernel/api.js" {
  interface ServiceMap {
    agents: AgentsService;
  }
}

/** The session slot of the sub-agent model override (typed, stored with the session: see SessionSlots in oceancode/api/engine). */
declare module "../engine/api.js" {
  interface SessionSlots {
    /** the sub-agent model override (SUBAGENT_OVERRIDE in subagent.ts) */
    subagent: string;
  }
}

/**
 * The published contract `oceancode/api/plan-mode`: the names plan mode uses. The service itself
 * (PlanModeService, service "plan-mode") is declared in `oceancode/api/todos`, beside the `/plan`
 * command that calls it.
 */

export type { PlanModeService } from "../todos/api.js";
import type { PlanModeService } from "../todos/api.js";

/** The session override that names the session's agent (session.info.overrides.agent); survives --continue. */
export const AGENT_KEY = "agent";
export const PLAN_AGENT = "plan";
export const BUILD_AGENT = "build";
export type AgentName = typeof PLAN_AGENT | typeof BUILD_AGENT;
export const AGENTS: readonly AgentName[] = [PLAN_AGENT, BUILD_AGENT];

/** Where plan mode may write, relative to the session's working directory. */
export const PLANS_DIR = ".oceancode/plans";
/** The tool that asks to leave plan mode. */
export const PLAN_EXIT_TOOL = "plan_exit";

/**
 * The tools plan mode offers and allows (besides write/edit under PLANS_DIR and plan_exit): reading,
 * searching, a background job's output, the todo list, skills (inert text), sub-agents (a child session
 * inherits the parent's overrides, so it runs in plan mode too), MCP resources (reads), web reads.
 * Everything else (bash, job_kill, MCP tools, use_tool) is denied.
 */
export const READ_ONLY_TOOLS: ReadonlySet<string> = new Set([
  "read",
  "grep",
  "glob",
  "ls",
  "job_output",
  "todo_write",
  "skill",
  "agent",
  "list_resources",
  "read_resource",
  "webfetch",
  "web_fetch",
  "websearch",
  "web_search",
]);
/** The write tools that may write plan files. */
export const PLAN_WRITE_TOOLS: ReadonlySet<string> = new Set(["write", "edit"]);

/** The refusal every denied call in plan mode carries (the model reads it). */
export const PLAN_DENY_REASON = "plan mode: editing is off; call plan_exit to ask to switch to the build agent";

/** The services this contract names, typed for `ctx.services.get(name)` and `kernel.service(name)`. */
declare module "../../kernel/api.js" {
  interface ServiceMap {
    "plan-mode": PlanModeService;
  }
}

/** The session slot plan mode keeps the agent in (typed, stored with the session: see SessionSlots in oceancode/api/engine). */
declare module "../engine/api.js" {
  interface SessionSlots {
    /** the session's agent (AGENT_KEY): "plan", or a name a client recorded; absent: build */
    agent: string;
  }
}

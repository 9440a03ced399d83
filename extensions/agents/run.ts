/**
 * Run one agent as a child session of the calling session: createSession with parentId and a profile
 * (the agent's body opens the system prompt, its tools are the allow-list), one prompt, then close. The
 * engine stops a child at engine.max_subagent_steps; the parent's AbortSignal aborts the child's prompt
 * (its model request and tools), so esc esc / SIGINT stop it with its parent.
 */
import type { EngineService, SessionInfo, TurnEndReason, ToolOutput } from "../engine/api.js";
import type { Agent } from "./api.js";
import { childTools, pickChildModel, refusedModelNote, type ModelAliases } from "./resolve.js";

export interface ChildOutcome {
  sessionId?: string;
  /** the agent's own model was not used (an untrusted agent naming a model the user has not configured) */
  notice?: string;
  reason: TurnEndReason;
  text: string;
  steps: number;
  error?: string;
}

export interface ChildRequest {
  agent: Agent;
  prompt: string;
  parent: SessionInfo;
  /** the model a child whose agent names none (or `inherit`) runs on; default the parent's */
  base?: string;
  signal: AbortSignal;
  /** is the agent file trusted? (absent: not trusted) */
  trusted?: boolean;
  /** the models the user configured (config `model`, `subagent.model`): what an untrusted agent may pick */
  configured?: readonly string[];
  /** model aliases (sonnet -> anthropic/claude-sonnet-4-6), from the provider manifests */
  aliases?: ModelAliases;
  /** told when an untrusted agent's model is refused */
  warn?: (msg: string) => void;
}

export async function runChild(engine: EngineService, req: ChildRequest): Promise<ChildOutcome> {
  const { agent, parent } = req;
  const base = req.base ?? parent.model;
  const pick = pickChildModel(agent.model, base, parent.model, { trusted: req.trusted === true, configured: req.configured ?? [], ...(req.aliases ? { aliases: req.aliases } : {}) });
  const model = pick.model;
  const notice = pick.refused !== undefined ? refusedModelNote(agent, pick.refused, model) : undefined;
  if (notice) req.warn?.(notice);
  const { tools } = childTools(agent.tools, engine.tools.list());
  let child;
  try {
    child = await engine.createSession({ cwd: parent.cwd, model, parentId: parent.id, profile: { system: agent.prompt, tools } });
  } catch (e) {
    return { reason: "error", text: "", steps: 0, error: e instanceof Error ? e.message : String(e), ...(notice ? { notice } : {}) };
  }
  try {
    const r = await engine.prompt(child, req.prompt, { signal: req.signal });
    return { sessionId: child.info.id, reason: r.reason, text: r.text, steps: child.totals.steps, ...(r.error ? { error: r.error } : {}), ...(notice ? { notice } : {}) };
  } finally {
    await engine.closeSession(child, req.signal.aborted ? "interrupted" : "subagent done").catch(() => undefined);
  }
}

/** The tool result the parent's model reads for a child's outcome. */
export function outcomeOutput(agent: Agent, o: ChildOutcome): ToolOutput {
  const out = outcomeBody(agent, o);
  return o.notice ? { ...out, content: `${o.notice}\n${out.content}` } : out;
}

function outcomeBody(agent: Agent, o: ChildOutcome): ToolOutput {
  const metadata = { agent: agent.id, ...(o.sessionId ? { session: o.sessionId } : {}), reason: o.reason, steps: o.steps };
  const text = o.text.trim() || "(the sub-agent gave no final text)";
  switch (o.reason) {
    case "end_turn":
      return { content: text, metadata };
    case "step_cap":
      return { content: `[sub-agent '${agent.qualifiedName}' stopped at its step cap (${o.steps} steps) before it finished; its last text follows]\n${text}`, metadata };
    case "max_tokens":
      return { content: `${text}\n[sub-agent '${agent.qualifiedName}' hit the output limit]`, metadata };
    case "aborted":
      return { content: `sub-agent '${agent.qualifiedName}' was interrupted`, isError: true, metadata };
    default:
      return { content: `sub-agent '${agent.qualifiedName}' failed: ${o.error ?? o.reason}`, isError: true, metadata };
  }
}

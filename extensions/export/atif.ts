/**
 * The ATIF export (Harbor's Agent Trajectory Interchange Format). We write the newest version string,
 * ATIF-v1.8, and keep to the fields every version accepts: user and system steps carry a message only;
 * agent steps carry tool_calls (arguments as objects), their observation (results keyed by
 * source_call_id), and metrics; final_metrics sums them.
 *
 * A step carries no field for "incomplete" in any version, so a turn that did not finish is marked where it
 * stopped by a system step: the engine's stored "interrupted" note for an interrupted turn, and for a crashed
 * one (known from the ledger's index) a system step the export adds. `extra.incomplete_turns` lists them.
 *
 * The session's todo list (the todos extension, stored on the session) has no ATIF field either: it goes in
 * `extra.todos` as `{items: [{content, status, active_form?, by}], planned, floor}`.
 */
import type { Row, StoredSession, Usage } from "../engine/api.js";
import { readStoredTodos } from "../todos/kit.js";
import { crashedText, turnEndings } from "./status.js";

export const ATIF_VERSION = "ATIF-v1.8";

export interface AtifToolCall {
  tool_call_id: string;
  function_name: string;
  arguments: Record<string, unknown>;
}
export interface AtifMetrics {
  prompt_tokens: number;
  completion_tokens: number;
  cached_tokens: number;
  cost_usd?: number;
}
export interface AtifStep {
  step_id: number;
  source: "system" | "user" | "agent";
  message: string;
  timestamp?: string;
  model_name?: string;
  tool_calls?: AtifToolCall[];
  observation?: { results: Array<{ source_call_id: string; content: string }> };
  metrics?: AtifMetrics;
}
export interface AtifTrajectory {
  schema_version: string;
  session_id: string;
  agent: { name: string; version: string; model_name?: string };
  steps: AtifStep[];
  final_metrics: { total_prompt_tokens: number; total_completion_tokens: number; total_cached_tokens: number; total_cost_usd?: number; total_steps: number };
  notes?: string;
  extra?: Record<string, unknown>;
}

export type CostFn = (model: string, usage: Usage) => number | undefined;

/** A turn that did not finish, and the step_id of the system step that marks where it stopped. */
export interface AtifIncompleteTurn {
  turn: number;
  status: "interrupted" | "crashed";
  marker_step_id: number;
}

/** `ledgerDir`: the session's ledger directory, whose index says which turns crashed. */
export function exportAtif(stored: StoredSession, agentVersion: string, cost?: CostFn, ledgerDir?: string): AtifTrajectory {
  const steps: AtifStep[] = [];
  let pending: AtifStep | undefined;
  const fin = { total_prompt_tokens: 0, total_completion_tokens: 0, total_cached_tokens: 0, total_cost_usd: 0, total_steps: 0 };
  let costKnown = true;
  const push = (s: Omit<AtifStep, "step_id">): AtifStep => {
    const step = { step_id: steps.length + 1, ...s } as AtifStep;
    steps.push(step);
    return step;
  };
  const endings = turnEndings(stored.rows, ledgerDir);
  const incomplete: AtifIncompleteTurn[] = [];
  let prev: Row | undefined;
  const closeCrashed = (last: Row | undefined) => {
    if (!last || endings.get(last.turn)?.incomplete !== "crashed") return;
    const marker = push({ source: "system", message: crashedText(last.turn, last.seq), timestamp: new Date(last.at).toISOString() });
    incomplete.push({ turn: last.turn, status: "crashed", marker_step_id: marker.step_id });
    pending = undefined;
  };
  for (const r of stored.rows as Row[]) {
    if (prev && prev.turn !== r.turn) closeCrashed(prev);
    prev = r;
    const timestamp = new Date(r.at).toISOString();
    if (r.role === "user") {
      const ctx = r.context?.length ? `\n\n${r.context.join("\n\n")}` : "";
      push({ source: "user", message: r.text + ctx, timestamp });
      pending = undefined;
    } else if (r.role === "note") {
      const step = push({ source: "system", message: r.text, timestamp });
      if (r.kind === "interrupted") incomplete.push({ turn: r.turn, status: "interrupted", marker_step_id: step.step_id });
      pending = undefined;
    } else if (r.role === "assistant") {
      const u = r.usage;
      const step = push({
        source: "agent",
        message: r.text,
        timestamp,
        ...(r.model ? { model_name: r.model } : {}),
        ...(r.toolCalls.length ? { tool_calls: r.toolCalls.map((c) => ({ tool_call_id: c.id, function_name: c.name, arguments: c.input })) } : {}),
      });
      if (u) {
        const c = cost?.(r.model ?? stored.info.model, u);
        step.metrics = { prompt_tokens: u.inputTokens + u.cacheReadTokens + u.cacheWriteTokens, completion_tokens: u.outputTokens, cached_tokens: u.cacheReadTokens, ...(c !== undefined ? { cost_usd: c } : {}) };
        fin.total_prompt_tokens += step.metrics.prompt_tokens;
        fin.total_completion_tokens += u.outputTokens;
        fin.total_cached_tokens += u.cacheReadTokens;
        if (c === undefined) costKnown = false;
        else fin.total_cost_usd += c;
      }
      pending = r.toolCalls.length ? step : undefined;
    } else if (r.role === "tool") {
      // results belong to the agent step that made the calls
      const ids = new Set((pending?.tool_calls ?? []).map((c) => c.tool_call_id));
      const results = r.results.filter((x) => ids.has(x.callId)).map((x) => ({ source_call_id: x.callId, content: x.content }));
      if (pending && results.length) pending.observation = { results: [...(pending.observation?.results ?? []), ...results] };
      pending = undefined;
    }
  }
  closeCrashed(prev);
  fin.total_steps = steps.length;
  return {
    schema_version: ATIF_VERSION,
    session_id: stored.info.id,
    agent: { name: "oceancode", version: agentVersion, model_name: stored.info.model },
    steps,
    final_metrics: {
      total_prompt_tokens: fin.total_prompt_tokens,
      total_completion_tokens: fin.total_completion_tokens,
      total_cached_tokens: fin.total_cached_tokens,
      ...(costKnown ? { total_cost_usd: fin.total_cost_usd } : { total_cost_usd: stored.totals.costUsd }),
      total_steps: fin.total_steps,
    },
    extra: {
      cwd: stored.info.cwd,
      created_at: new Date(stored.info.createdAt).toISOString(),
      ...(stored.info.parentId ? { parent_session_id: stored.info.parentId } : {}),
      ...(incomplete.length ? { incomplete_turns: incomplete } : {}),
      ...todosExtra(stored),
    },
  };
}

/** The stored todo list as `extra.todos` (absent when the session never had one). */
function todosExtra(stored: StoredSession): Record<string, unknown> {
  const t = readStoredTodos(stored.info.overrides);
  if (!t || t.items.length === 0) return {};
  return {
    todos: {
      items: t.items.map((i) => ({ content: i.content, status: i.status, ...(i.activeForm ? { active_form: i.activeForm } : {}), by: i.by })),
      planned: t.planned,
      floor: t.floor,
    },
  };
}

/** One session turn for a run (api.session / api.resume / the pipeline's steps): what it said, touched and cost. */
import type { EngineService, Session, SessionEvent } from "../engine/api.js";
import type { SessionOutcome, SessionSpec } from "./api.js";
import { BudgetSpent, isProviderBackOff, PauseRun, WorkflowError } from "./errors.js";
import type { SessionOverrides } from "../engine/api.js";

/** Tools whose `path`/`file_path` input is a file they change. */
const WRITING_TOOLS = new Set(["write", "edit", "multi_edit", "apply_patch"]);

export interface TurnHost {
  engine: EngineService;
  project: string;
  /** the run's -m, else the configured model */
  defaultModel: string;
  signal: AbortSignal;
  /** sessions this run holds open, by id (closed when the run ends) */
  open: Map<string, Session>;
  budgetSpent(): boolean;
}

export function checkSpec(raw: unknown, where: string): SessionSpec {
  if (!raw || typeof raw !== "object" || Array.isArray(raw)) throw WorkflowError(`${where}: expects an object { prompt, model?, agent?, tools? }`);
  const s = raw as Record<string, unknown>;
  if (typeof s.prompt !== "string" || !s.prompt.trim()) throw WorkflowError(`${where}: prompt must be a non-empty string`);
  if (s.model !== undefined && typeof s.model !== "string") throw WorkflowError(`${where}: model must be a string`);
  if (s.agent !== undefined && typeof s.agent !== "string") throw WorkflowError(`${where}: agent must be a string`);
  if (s.tools !== undefined && (!Array.isArray(s.tools) || s.tools.some((t) => typeof t !== "string"))) throw WorkflowError(`${where}: tools must be a list of tool names`);
  return { prompt: s.prompt, model: s.model as string | undefined, agent: s.agent as string | undefined, tools: s.tools as string[] | undefined };
}

export async function newSession(h: TurnHost, spec: SessionSpec): Promise<Session> {
  const model = spec.model ? h.engine.resolveModel(spec.model) : h.defaultModel;
  const unready = await h.engine.checkModel(model);
  if (unready) throw WorkflowError(unready);
  const overrides: SessionOverrides = {};
  if (spec.agent === "plan") overrides.agent = "plan";
  else if (spec.agent !== undefined && spec.agent !== "build") throw WorkflowError(`unknown agent '${spec.agent}' (plan or build)`);
  const session = await h.engine.createSession({ cwd: h.project, model, overrides, ...(spec.tools ? { profile: { tools: spec.tools } } : {}) });
  h.open.set(session.info.id, session);
  return session;
}

export async function sessionById(h: TurnHost, id: string): Promise<Session> {
  const held = h.open.get(id);
  if (held) return held;
  const s = await h.engine.openSession(id);
  h.open.set(id, s);
  return s;
}

/** One prompt to the end of its turn. Throws BudgetSpent when the budget ran out before or during it. */
export async function turn(h: TurnHost, session: Session, prompt: string): Promise<SessionOutcome> {
  if (h.budgetSpent()) throw BudgetSpent();
  const files = new Set<string>();
  let todos: SessionOutcome["todos"] = [];
  const costBefore = session.totals.costUsd;
  const onEvent = (e: SessionEvent) => {
    if (e.type !== "tool_call_start") return;
    const input = e.call.input as Record<string, unknown>;
    if (WRITING_TOOLS.has(e.call.name)) {
      const p = input.file_path ?? input.path;
      if (typeof p === "string") files.add(p);
    }
    if (e.call.name === "todo_write" && Array.isArray(input.todos)) {
      todos = (input.todos as Array<Record<string, unknown>>).map((t) => ({ content: String(t.content ?? t.text ?? ""), status: String(t.status ?? "pending") }));
    }
  };
  const r = await h.engine.prompt(session, prompt, { signal: h.signal, onEvent });
  if (h.budgetSpent() && (r.reason === "error" || r.reason === "aborted")) throw BudgetSpent();
  if (r.reason === "aborted") throw WorkflowError("the session's turn was interrupted");
  if (r.reason === "error" && isProviderBackOff(r.error)) throw PauseRun("back_off_paused", { error: `session ${session.info.id}: ${r.error}` });
  if (r.reason === "error" || r.reason === "blocked") throw WorkflowError(`session ${session.info.id}: ${r.error ?? r.reason}`);
  return { sessionId: session.info.id, text: r.text, todos, filesTouched: [...files], costUsd: session.totals.costUsd - costBefore };
}

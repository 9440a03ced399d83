/**
 * One run: its id and store directory, the budget (model requests of the sessions it starts, counted by the
 * engine.modelRequest tap in index.ts), the bodies (appended, then handed to onBody), the outcome and its
 * terminal body, and the live-run registry that pause / resume / stop act on.
 */
import type { EngineService, Session } from "../engine/api.js";
import type { BuiltinRunContext, RunBody, RunOutcome, RunStatus } from "./api.js";
import { RunStore, newRunId } from "./store.js";
import { isBudgetSpent, pauseOf } from "./errors.js";
import type { SessionOverrides } from "../engine/api.js";

export interface LiveRun {
  id: string;
  workflow: string;
  kind: "workflow" | "goal";
  limit: number | null;
  spent: number;
  /** sessions started (or reopened) by this run: their model requests count */
  sessions: Set<string>;
  open: Map<string, Session>;
  controller: AbortController;
  /** held while paused through the control seam; host calls wait on it */
  gate?: { promise: Promise<void>; release(): void };
  emit(fields: Record<string, unknown>, status?: RunStatus): void;
}

const live = new Map<string, LiveRun>();

export function liveRun(id: string): LiveRun | undefined {
  return live.get(id);
}

/** The live run a session's model request belongs to (its own or its parent's). */
export function runOfSession(id: string, parentId?: string): LiveRun | undefined {
  for (const r of live.values()) if (r.sessions.has(id) || (parentId !== undefined && r.sessions.has(parentId))) return r;
  return undefined;
}

export function budgetSpent(r: LiveRun): boolean {
  return r.limit !== null && r.spent >= r.limit;
}

/** The engine as a run sees it: sessions it creates or opens are the run's. */
function runEngine(engine: EngineService, run: LiveRun, overrides: SessionOverrides): EngineService {
  const own = {
    createSession: async (opts: Parameters<EngineService["createSession"]>[0]) => {
      // the run's session bounds (--max-usd, --max-minutes) hold for every session it starts
      const s = await engine.createSession({ ...opts, overrides: { ...overrides, ...(opts.overrides ?? {}) } });
      run.sessions.add(s.info.id);
      return s;
    },
    openSession: async (id: string, o?: { wait?: boolean }) => {
      run.sessions.add(id);
      return engine.openSession(id, o);
    },
    // a paused run (the control seam) starts no new turn until resumed or stopped: built-ins (pipeline, goal)
    // prompt through here, as a script's host calls wait on the same gate
    prompt: async (...a: Parameters<EngineService["prompt"]>) => {
      while (run.gate && !run.controller.signal.aborted) await run.gate.promise;
      return engine.prompt(...a);
    },
  };
  return new Proxy(engine, {
    get(target, key, recv) {
      if (key in own) return own[key as keyof typeof own];
      const v = Reflect.get(target, key, recv) as unknown;
      return typeof v === "function" ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
}

export interface StartRun {
  workflow: string;
  kind: "workflow" | "goal";
  project: string;
  args: unknown;
  budget: number | null;
  model?: string;
  /** session overrides for every session the run creates (max_usd, max_minutes) */
  overrides?: SessionOverrides;
  store: RunStore;
  engine: EngineService;
  signal?: AbortSignal;
  onBody?(body: RunBody): void;
  execute(ctx: BuiltinRunContext, run: LiveRun): Promise<RunOutcome>;
}

export async function startRun(req: StartRun): Promise<RunBody> {
  const id = newRunId();
  const controller = new AbortController();
  const onOuter = () => controller.abort();
  req.signal?.addEventListener("abort", onOuter, { once: true });
  if (req.signal?.aborted) controller.abort();
  req.store.create({ run_id: id, workflow: req.workflow, kind: req.kind, project: req.project, started_at: new Date().toISOString(), pid: process.pid });
  let seq = 0;
  const body = (status: RunStatus, terminal: boolean, fields: Record<string, unknown>): RunBody => ({
    type: req.kind === "goal" ? "goal_updated" : "workflow_updated",
    run_id: id,
    workflow: req.workflow,
    seq: ++seq,
    at: new Date().toISOString(),
    status,
    terminal,
    budget: { limit: run.limit, spent: run.spent },
    ...fields,
  });
  const put = (b: RunBody) => {
    req.store.append(b);
    req.onBody?.(b);
    return b;
  };
  const run: LiveRun = {
    id,
    workflow: req.workflow,
    kind: req.kind,
    limit: req.budget,
    spent: 0,
    sessions: new Set(),
    open: new Map(),
    controller,
    emit: (fields, status = "running") => {
      put(body(status, false, fields));
    },
  };
  live.set(id, run);
  put(body("running", false, { progress: "started" }));
  let outcome: RunOutcome;
  try {
    const ctx: BuiltinRunContext = {
      runId: id,
      args: req.args,
      project: req.project,
      ...(req.model ? { model: req.model } : {}),
      budget: { limit: req.budget, spent: () => run.spent },
      signal: controller.signal,
      emit: (f) => run.emit(f),
      engine: runEngine(req.engine, run, req.overrides ?? {}),
    };
    outcome = await req.execute(ctx, run);
    if (controller.signal.aborted && outcome.status !== "cancelled") outcome = { status: "cancelled", error: "the run was stopped" };
  } catch (e) {
    if (isBudgetSpent(e) || budgetSpent(run)) outcome = { status: "budget_limited", error: `the budget of ${run.limit} model call${run.limit === 1 ? "" : "s"} is spent` };
    else if (pauseOf(e)) outcome = { status: pauseOf(e)!.status, ...pauseOf(e)!.fields };
    else if (controller.signal.aborted) outcome = { status: "cancelled", error: "the run was stopped" };
    else outcome = { status: "failed", error: e instanceof Error ? e.message : String(e) };
  } finally {
    req.signal?.removeEventListener("abort", onOuter);
  }
  for (const s of run.open.values()) await req.engine.closeSession(s, "exit").catch(() => undefined);
  live.delete(id);
  const { status, ...rest } = outcome;
  return put(body(status, true, rest));
}

/** Hold a live run's host calls (the control seam's pause); false when no such run lives here. */
export function pauseRun(id: string): boolean {
  const r = live.get(id);
  if (!r) return false;
  if (!r.gate) {
    let release = () => undefined as void;
    const promise = new Promise<void>((res) => (release = res));
    r.gate = { promise, release };
    r.emit({ progress: "paused" }, "user_paused");
  }
  return true;
}

export function resumeRun(id: string, opts: { budget?: number } = {}): boolean {
  const r = live.get(id);
  if (!r) return false;
  if (opts.budget !== undefined) r.limit = opts.budget;
  const g = r.gate;
  r.gate = undefined;
  g?.release();
  r.emit({ progress: "resumed" });
  return true;
}

export function stopRun(id: string): boolean {
  const r = live.get(id);
  if (!r) return false;
  r.controller.abort();
  r.gate?.release();
  return true;
}

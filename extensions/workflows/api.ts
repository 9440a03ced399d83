/**
 * The published contract `oceancode/api/workflows` (service name "workflows").
 *
 * Workflows are JavaScript modules run in QuickJS compiled to WebAssembly (sandbox.ts): a script reaches
 * nothing but the host API below (`WorkflowApi`). Built-ins (pipeline; goal from extensions/goal) are
 * TypeScript registered with `registerBuiltin`. Every run writes the run store (store.ts):
 * `<data dir>/workflow-runs/<run_id>/{run.json,updates.jsonl}`, one body per change.
 * Contract version: WORKFLOWS_API_VERSION (bumped on any incompatible change of these types).
 */
import type { EngineService } from "../engine/api.js";

export const WORKFLOWS_API_VERSION = 1;

export type RunStatus =
  | "running"
  | "complete"
  | "failed"
  | "cancelled"
  | "budget_limited"
  | "user_paused"
  | "back_off_paused"
  | "no_progress_paused"
  | "infra_paused"
  | "blocked";

export const PAUSE_STATUSES: ReadonlySet<RunStatus> = new Set(["user_paused", "back_off_paused", "no_progress_paused", "infra_paused", "blocked"]);

/** One line of updates.jsonl and of `workflow run`'s stdout. */
export interface RunBody {
  type: "workflow_updated" | "goal_updated";
  run_id: string;
  workflow: string;
  seq: number;
  at: string;
  status: RunStatus;
  terminal: boolean;
  budget: { limit: number | null; spent: number };
  progress?: string;
  error?: string;
  result?: unknown;
  [field: string]: unknown;
}

/** run.json, written once at a run's start. */
export interface RunMeta {
  run_id: string;
  workflow: string;
  kind: "workflow" | "goal";
  project: string;
  started_at: string;
  pid: number;
}

export interface RunOutcome {
  status: Exclude<RunStatus, "running">;
  result?: unknown;
  error?: string;
}

export interface BuiltinRunContext {
  runId: string;
  args: unknown;
  project: string;
  model?: string;
  /** spent counts model requests of this run's sessions */
  budget: { limit: number | null; spent(): number };
  /** stop / ctrl-c */
  signal: AbortSignal;
  /** appends a non-terminal body (status running) */
  emit(fields: Record<string, unknown>): void;
  /** the engine, seen through the run: sessions it creates count to the run's budget, a spent budget refuses the next request */
  engine: EngineService;
}

export interface BuiltinWorkflow {
  name: string;
  description: string;
  kind: "workflow" | "goal";
  /** a usage error message, or undefined */
  validate?(args: unknown): string | undefined;
  run(ctx: BuiltinRunContext): Promise<RunOutcome>;
}

// ---------------------------------------------------------------- the script host API (what `api` is inside a script)

export interface SessionSpec {
  prompt: string;
  /** provider/model or a short name; default: the run's -m, else the configured model */
  model?: string;
  /** "plan": read-only plan mode */
  agent?: string;
  /** the only tools the session may use */
  tools?: string[];
}

export interface SessionOutcome {
  sessionId: string;
  text: string;
  todos: Array<{ content: string; status: string }>;
  filesTouched: string[];
  costUsd: number;
}

export interface BudgetView {
  limit: number | null;
  spent: number;
  remaining: number | null;
}

/** The object a script's entry function receives. Every method is async and checked on the host. */
export interface WorkflowApi {
  readonly args: unknown;
  session(spec: SessionSpec): Promise<SessionOutcome>;
  resume(sessionId: string, prompt: string): Promise<SessionOutcome>;
  parallel(specs: SessionSpec[], opts?: { concurrency?: number }): Promise<SessionOutcome[]>;
  progress(text: string): Promise<void>;
  budget(): Promise<BudgetView>;
  /** a headless run pauses (user_paused, exit 3) with the question in its terminal body */
  ask(question: string): Promise<string>;
  sleep(ms: number): Promise<void>;
  log(...parts: unknown[]): Promise<void>;
}

/** A workflow as discovery lists it. */
export interface WorkflowEntry {
  name: string;
  description: string;
  source: "builtin" | "project" | "user";
  /** the script's file (absent for built-ins) */
  file?: string;
  /** project-tier scripts run only when named explicitly; false until the project is trusted */
  trusted: boolean;
}

export interface LaunchOptions {
  args?: unknown;
  budget?: number | null;
  model?: string;
  auto?: boolean;
  /** session bounds for each session the run starts (the bounds extension enforces them) */
  maxUsd?: number;
  maxMinutes?: number;
  signal?: AbortSignal;
  /** each body as it is appended */
  onBody?(body: RunBody): void;
}

export interface WorkflowsService {
  readonly version: number;
  registerBuiltin(def: BuiltinWorkflow): void;
  /** built-ins first, then project, then user scripts (shadowing and duplicates dropped with warnings) */
  list(project: string): Promise<{ entries: WorkflowEntry[]; warnings: string[] }>;
  /** Launch a run in this process; resolves to its terminal body. */
  launch(target: string, project: string, opts: LaunchOptions): Promise<RunBody>;
  /** Control a run live in this process (serve wiring uses these). false: no such live run here. */
  pause(runId: string): boolean;
  resume(runId: string, opts?: { budget?: number }): boolean;
  stop(runId: string): boolean;
}

/** The services this contract names, typed for `ctx.services.get(name)` and `kernel.service(name)`. */
declare module "../../kernel/api.js" {
  interface ServiceMap {
    workflows: WorkflowsService;
  }
}

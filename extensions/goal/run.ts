/** One goal run's records: its id, run.json, and each body (numbered) appended to updates.jsonl and handed to a sink. */
import type { GoalBody, GoalOutcome, RunStatus } from "./api.js";
import type { GoalState } from "./loop.js";
import { newRunId, RunStore } from "./store.js";

export function goalBody(runId: string, objective: string, seq: number, s: GoalState, status: RunStatus, outcome?: GoalOutcome): GoalBody {
  return {
    type: "goal_updated",
    run_id: runId,
    workflow: "goal",
    seq,
    at: new Date().toISOString(),
    status,
    terminal: status !== "running",
    budget: s.budget,
    phase: s.phase,
    round: s.round,
    deliverables: s.deliverables,
    gaps: s.gaps,
    sessions: s.sessions,
    objective,
    ...(s.progress !== undefined ? { progress: s.progress } : {}),
    ...(outcome?.error !== undefined ? { error: outcome.error } : {}),
    ...(outcome?.result !== undefined ? { result: outcome.result } : {}),
  };
}

export class GoalRecorder {
  readonly runId = newRunId();
  private seq = 0;
  private readonly store: RunStore;
  /** the first store write that failed (the run goes on; the host says so at the end) */
  trouble?: string;

  constructor(
    dataDir: string,
    private readonly objective: string,
    private readonly sink: (b: GoalBody) => void,
  ) {
    this.store = new RunStore(dataDir);
  }

  /** run.json; throws when the store cannot be written (before anything runs). */
  start(project: string): void {
    this.store.create({ run_id: this.runId, workflow: "goal", kind: "goal", project, started_at: new Date().toISOString(), pid: process.pid });
  }

  record(s: GoalState, status: RunStatus = "running", outcome?: GoalOutcome): GoalBody {
    const b = goalBody(this.runId, this.objective, ++this.seq, s, status, outcome);
    this.sink(b);
    try {
      this.store.append(b);
    } catch (e) {
      this.trouble ??= (e as Error).message;
    }
    return b;
  }
}

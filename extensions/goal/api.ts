/**
 * The published contract `oceancode/api/goal`: goal mode's update body and options. A goal run writes the
 * workflow run store (`<data dir>/workflow-runs/<run_id>/`: run.json + updates.jsonl) in the shape the
 * workflows extension reads, so `oceancode workflow runs --all` lists it.
 */

import type { Session } from "../engine/api.js";

/** The run statuses and run.json are the workflows contract's: a goal run is a run of the shared store. */
export type { RunMeta, RunStatus } from "../workflows/api.js";
import type { RunStatus } from "../workflows/api.js";

export type GoalPhase = "plan" | "work" | "verify";

/** One verifiable piece of the objective: what it is and how a skeptic will check it. */
export interface Deliverable {
  id: string;
  text: string;
  check: string;
}

/** The sessions a goal run started (their ids: `oceancode export` reads each). */
export interface GoalSessions {
  planner?: string;
  worker?: string;
  /** every skeptic session, across rounds */
  skeptics: string[];
}

/** One `goal_updated` body: streamed as a JSON line on stdout and appended to updates.jsonl. */
export interface GoalBody {
  type: "goal_updated";
  run_id: string;
  workflow: "goal";
  seq: number;
  at: string;
  status: RunStatus;
  terminal: boolean;
  budget: { limit: number | null; spent: number };
  phase: GoalPhase;
  round: number;
  deliverables: Deliverable[];
  gaps: string[];
  sessions: GoalSessions;
  objective: string;
  progress?: string;
  error?: string;
  result?: unknown;
  /** a RunBody of the shared store (its open shape) */
  [field: string]: unknown;
}

/** What a goal run is given. */
export interface GoalOptions {
  objective: string;
  /** the project directory (every session's cwd) */
  project: string;
  /** provider/model of every session */
  model: string;
  /** model calls for the whole run; null: unbounded */
  budget: number | null;
  /** skeptics per verify round (config goal.skeptics, default 2) */
  skeptics: number;
  /** work rounds before the run pauses (config goal.max_rounds, default 8) */
  maxRounds: number;
  signal: AbortSignal;
  /** called with each session the run creates, before its first prompt (a host marks its sessions) */
  onSession?(session: Session): void;
}

/** How a goal run ended (the terminal body's status and its error or result). */
export interface GoalOutcome {
  status: Exclude<RunStatus, "running">;
  error?: string;
  result?: unknown;
}

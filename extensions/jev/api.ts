/**
 * The published contract `oceancode/api/jev` (service "jev"): the opt-in decision layer that asks TypeSafe
 * Jev (System One) small typed questions at seven decision points and records every decision.
 *
 * The layer is on only when the global AND the project config say `jev.enabled: true` and an endpoint is
 * usable (docs/jev.md). Each point has a mode: off | shadow | act (unset = shadow once the layer is on;
 * act is never a default). The deterministic rules run first; a point only advises what they left open.
 * The wire format lives in one adapter file (client/wire.ts); everything else speaks these types.
 */

/** The seven decision points, by their names in decision rows. */
export type JevPoint = "permission" | "output" | "recall" | "triage" | "tool_tiers" | "skills" | "supervisor";
export const JEV_POINTS: readonly JevPoint[] = ["permission", "output", "recall", "triage", "tool_tiers", "skills", "supervisor"];
/** The config key of each point's mode (`jev.<key>`); `jev.permission` and `jev.tool_tiers` are accepted as aliases. */
export const JEV_MODE_KEYS: Readonly<Record<JevPoint, string>> = {
  permission: "permissions",
  output: "output",
  recall: "recall",
  triage: "triage",
  tool_tiers: "tools",
  skills: "skills",
  supervisor: "supervisor",
};

export type JevMode = "off" | "shadow" | "act";

/** A question, as the caller words it (ids are the caller's). Instructions refer to state fields by backticked path. */
export type JevQuestion =
  | { type: "noul"; instructions: string; criteria?: { true: string; false: string } }
  | { type: "choice"; instructions: string; options: readonly string[] }
  | { type: "score"; instructions: string; criteria: readonly string[] };

/** An answer: the probability of yes; a choice with its probabilities; a probability-weighted score 0..levels-1. */
export type JevAnswer =
  | { type: "noul"; noul: number }
  | { type: "choice"; choice: string; confidence: number; probabilities: Readonly<Record<string, number>> }
  | { type: "score"; score: number; confidence: number; probabilities: readonly number[] };

/** A state: named fields (never a concatenated prompt). Long text fields are head/tail truncated to fit the cap. */
export type JevState = Record<string, unknown>;

/** Hard cap on a state's JSON bytes. */
export const JEV_STATE_CAP = 48_000;

export type JevOutcome = "acted" | "shadow" | "fallback" | "held" | "unavailable" | "invalid" | "injection" | "off";

export interface JevAsk {
  point: JevPoint;
  sessionId: string;
  state: JevState;
  questions: Readonly<Record<string, JevQuestion>>;
  /** give up after this long (point 1 in act: jev.deadline_ms); default: the client's timeout */
  deadlineMs?: number;
  signal?: AbortSignal;
  /** top-level state fields that are the user's own words, exempt from the injection guard (default: task, goal, prompt) */
  exempt?: readonly string[];
}

/** What one ask gave: answers (every question answered with valid probabilities), or why not. */
export type JevResult =
  | {
      ok: true;
      answers: Readonly<Record<string, JevAnswer>>;
      latencyMs: number;
      /** the endpoint's own time (Server-Timing), when it sent one */
      serverMs?: number;
      model: string;
      inputTokens?: number;
      stateHash: string;
      /** a text field was head/tail truncated to fit the cap */
      truncated: boolean;
      /** the state as sent (after truncation) */
      state: JevState;
    }
  | {
      ok: false;
      outcome: Extract<JevOutcome, "unavailable" | "invalid" | "injection" | "off">;
      reason: string;
      latencyMs: number;
      stateHash: string;
      truncated: boolean;
      state: JevState;
    };

/** One line of `<ledger root>/<session>/jev-decisions.jsonl` (the guide's fields). */
export interface JevDecisionRow {
  type: "decision";
  at: number;
  session: string;
  point: JevPoint;
  mode: JevMode;
  outcome: JevOutcome;
  /** what the point's policy concluded (e.g. "allow", "ask", "keep:3") */
  verdict: string;
  /** today's behaviour without the layer (e.g. "ask", "head") */
  baseline: string;
  latency_ms: number;
  server_ms?: number;
  model: string;
  input_tokens?: number;
  state_hash: string;
  /** the state, or for one over 8 KiB a head/tail excerpt (the full state then in jev-states/<hash>.json) */
  state: unknown;
  /** the full answers, or for a skipped or failed decision the reason */
  answers: Readonly<Record<string, JevAnswer>> | string;
}

/** A person's answer to an advised permission prompt, joined to its decision by state hash. */
export interface JevLabelRow {
  type: "label";
  at: number;
  session: string;
  point: JevPoint;
  state_hash: string;
  label: "allow" | "deny";
}

export interface JevPointStatus {
  point: JevPoint;
  mode: JevMode;
  /** why this mode (e.g. "layer off: the project config has no jev.enabled", "OC_JEV=shadow") */
  why: string;
}

export interface JevStatus {
  enabled: boolean;
  /** why the layer is off, when it is */
  reason?: string;
  /** the endpoint's host, or "off" */
  endpoint: string;
  model: string;
  points: readonly JevPointStatus[];
}

export interface JevService {
  /** The layer's state: on or off and why, each point's mode, the endpoint host. */
  status(): JevStatus;
  /** A point's effective mode ("off" whenever the layer is off). */
  mode(point: JevPoint): JevMode;
  /** A named threshold from jev.thresholds (global config only), else `fallback`. */
  threshold(name: string, fallback: number): number;
  /**
   * Put one point's questions to Jev in one request: truncation to the cap, the injection guard, the
   * rate cap and back-off, the deadline. Never throws; a failure is a result with its outcome.
   */
  ask(req: JevAsk): Promise<JevResult>;
  /** Append a decision row (best effort: a write failure is logged once, never thrown). */
  record(row: Omit<JevDecisionRow, "type" | "at">): void;
  /** Append a label row for a person's answer to an advised prompt. */
  label(row: Omit<JevLabelRow, "type" | "at">): void;
  /** The global budgets the points read (additive). */
  settings(): JevSettings;
  /**
   * Work a point does off the critical path (shadow mode): a closing session waits for it, bounded, so
   * its decision row lands. Present when the jev extension runs the service.
   */
  track?(work: Promise<unknown>): void;
}

/** The layer's budgets, from the global config only (additive). */
export interface JevSettings {
  model: string;
  /** point 1 in act waits at most this long (jev.deadline_ms, 1500) */
  deadlineMs: number;
  /** jev.supervisor_every_steps (4) */
  supervisorEverySteps: number;
  /** jev.supervisor_max_continuations (1) */
  supervisorMaxContinuations: number;
}

/**
 * What each file under extensions/jev/points/ exports (additive): the installer that taps hooks, the
 * point's questions (for `jev questions`) and its pure policy over recorded answers (for `jev verdicts`).
 */
export interface JevPointModule {
  point: JevPoint;
  install: (ctx: import("../../kernel/api.js").ExtensionContext, jev: JevService) => void;
  questions: Readonly<Record<string, JevQuestion>>;
  /** the verdict for recorded answers; `threshold` as JevService.threshold */
  verdict: (answers: Readonly<Record<string, JevAnswer>>, threshold: (name: string, fallback: number) => number, state?: JevState) => string;
}

/** The services this contract names, typed for `ctx.services.get(name)` and `kernel.service(name)`. */
declare module "../../kernel/api.js" {
  interface ServiceMap {
    jev: JevService;
  }
}

/**
 * The published contract `oceancode/api/bounds` (service "bounds"): a session's spend and clock bounds,
 * and the one parser of bound values shared by `run --max-usd/--max-minutes`, the variables and /limits.
 */
import type { Session } from "../engine/api.js";

/** Where a bound's value came from: the session (a run flag or /limits, stored), the environment, or none. */
export type BoundSource = "session" | "env";

export interface Bound {
  value: number;
  source: BoundSource;
}

export interface SessionLimits {
  /** the spend cap in USD (session.totals.costUsd counts against it) */
  usd?: Bound;
  /** the clock, in minutes per prompt (a run), counted from the prompt's start */
  minutes?: Bound;
  /** what the session has spent so far (USD) */
  spentUsd: number;
}

export interface BoundsService {
  /** The session's effective bounds: its stored values over OC_MAX_USD / OC_MAX_MINUTES. */
  limits(session: Session): SessionLimits;
}

/** The session override keys the run flags and /limits write (session.info.overrides). */
export const USD_KEY = "max_usd";
export const MINUTES_KEY = "max_minutes";

/** The services this contract names, typed for `ctx.services.get(name)` and `kernel.service(name)`. */
declare module "../../kernel/api.js" {
  interface ServiceMap {
    bounds: BoundsService;
  }
}

/** The session slots of the run bounds (typed, stored with the session: see SessionSlots in oceancode/api/engine). */
declare module "../engine/api.js" {
  interface SessionSlots {
    /** USD_KEY: the session's spend bound in dollars */
    max_usd: number;
    /** MINUTES_KEY: the session's wall-clock bound in minutes */
    max_minutes: number;
  }
}

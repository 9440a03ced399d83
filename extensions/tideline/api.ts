/**
 * The published contract `oceancode/api/tideline` (what other extensions and third parties may import).
 *
 * The tideline's public API (service "tideline"): the session meter for hosts, and the one parser of
 * tideline specs ("<percent>% | <limit> | default") shared by /tideline and `run --tideline`.
 */
import type { Session } from "../engine/api.js";

export const TIDELINE_USAGE = "usage: /tideline <percent>% | <limit> | default   (e.g. 50%, 200k, 1m; minimum limit 20k)";
export const MIN_LIMIT = 20_000;

export type TidelineSpec = { kind: "percent"; percent: number } | { kind: "tokens"; tokens: number } | { kind: "default" };

export type ParsedSpec = { ok: true; spec: TidelineSpec; text: string } | { ok: false; error: string; usage: string };

/** The resolved line for one session and model. */
export interface TidelineLine {
  /** the line in tokens */
  line: number;
  /** a block closes when the gauge grew this much since it opened */
  block: number;
  /** "percent" of the model's context, or a fixed token limit */
  mode: "percent" | "tokens";
  percent?: number;
  /** true when the configured line was above what the model can hold */
  clamped: boolean;
}

/** The session meter: data for hosts (status bar, /context). */
export interface SessionMeter {
  sessionId: string;
  model: string;
  /** the model's own context window (the meter's denominator) */
  contextWindow: number;
  /** the window's size after the last step's cuts, in tokens */
  used: number;
  /** false when the ledger is disabled: no line, no cuts */
  enabled: boolean;
  line?: TidelineLine;
  /** tokens until the line (0 when at or over it) */
  toGo?: number;
  /** "tideline @40% (80k): 38k to go" | "tideline @300k: 138k to go" | "tideline off" */
  status: string;
  cuts: number;
  /** every row up to this seq left the window (0 before the first cut) */
  cutSeq: number;
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  costUsd: number;
}

export interface TidelineService {
  /** Parse a --tideline / /tideline value; throws an Error whose message is one line plus the usage line. */
  parseSpec(text: string): TidelineSpec;
  /** The meter for an open session (no waiting). */
  meter(session: Session): SessionMeter;
  /** The resolved line for a session (its override, else config), against a model's context. */
  lineFor(session: Session, model: { contextWindow: number; maxOutputTokens: number; known: boolean }): TidelineLine;
  /** Seq of the last row past the tideline for this session (0 when none). */
  cutSeq(sessionId: string): number;
}

/** The services this contract names, typed for `ctx.services.get(name)` and `kernel.service(name)`. */
declare module "../../kernel/api.js" {
  interface ServiceMap {
    tideline: TidelineService;
  }
}

/** The session slot of the tideline setting (typed, stored with the session: see SessionSlots in oceancode/api/engine). */
declare module "../engine/api.js" {
  interface SessionSlots {
    /** the /tideline or --tideline setting, as typed (parseSpec reads it) */
    tideline: string;
  }
}

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

const PRESETS = new Set(["wide", "narrow", "strict", "auto", "low", "reserve"]);

/** Parse "50%", "200k", "1.5m", "120000", "default". One value only; presets and floors are gone. */
export function parseTidelineSpec(input: string): ParsedSpec {
  const text = input.trim();
  const fail = (error: string): ParsedSpec => ({ ok: false, error, usage: TIDELINE_USAGE });
  if (text === "") return fail("a value is required");
  const words = text.split(/\s+/);
  if (words.length > 1) return fail(`one value only (got '${text}'); the floor and the presets were removed`);
  const w = words[0]!.toLowerCase();
  if (w === "default") return { ok: true, spec: { kind: "default" }, text: "default" };
  if (PRESETS.has(w)) return fail(`'${w}' is a removed preset`);
  const pct = /^(\d+(?:\.\d+)?)%$/.exec(w);
  if (pct) {
    const p = Number(pct[1]);
    if (!(p > 0 && p <= 100)) return fail(`percent must be above 0 and at most 100 (got ${pct[1]}%)`);
    return { ok: true, spec: { kind: "percent", percent: p }, text: `${p}%` };
  }
  const lim = /^(\d+(?:\.\d+)?)([km]?)$/.exec(w);
  if (lim) {
    const mult = lim[2] === "k" ? 1_000 : lim[2] === "m" ? 1_000_000 : 1;
    const tokens = Math.round(Number(lim[1]) * mult);
    if (tokens < MIN_LIMIT) return fail(`the minimum fixed limit is 20k (got ${w})`);
    return { ok: true, spec: { kind: "tokens", tokens }, text: formatTokens(tokens) };
  }
  return fail(`cannot read '${text}'`);
}

/** 38000 -> "38k", 1000000 -> "1.0M", 950 -> "950". */
export function formatTokens(n: number): string {
  const v = Math.max(0, Math.round(n));
  if (v < 1_000) return String(v);
  if (v < 1_000_000) return `${Math.round(v / 1_000)}k`;
  return `${(v / 1_000_000).toFixed(1)}M`;
}

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

/** Status text exactly as the guide words it. */
export function statusText(line: TidelineLine | undefined, used: number, enabled: boolean): string {
  if (!enabled || !line) return "tideline off";
  const toGo = formatTokens(Math.max(0, line.line - used));
  if (line.mode === "percent") return `tideline @${line.percent}% (${formatTokens(line.line)}): ${toGo} to go`;
  return `tideline @${formatTokens(line.line)}: ${toGo} to go`;
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

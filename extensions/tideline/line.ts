/** Resolve the line and block size from config, a session override and the model's limits. */
import type { TidelineLine, TidelineSpec } from "./api.js";
import type { ElideConfig } from "./elide.js";

export const DEFAULT_PERCENT = 40;
/** the line when the model's context is unknown */
export const UNKNOWN_CONTEXT_TOKENS = 300_000;
/** tokens: 0 (the model's ceiling) when the route reports no limit */
export const NO_LIMIT_CEILING = 120_000;
export const OUTPUT_ALLOWANCE_CAP = 32_000;

export interface TidelineConfig {
  percent?: number;
  tokens?: number;
  block?: number | string;
  /** deterministic elision at a cut (see elide.ts); false turns it off */
  elide?: ElideConfig;
}

export interface ModelLimits {
  contextWindow: number;
  maxOutputTokens: number;
  known: boolean;
}

/**
 * Per-model defaults, tuned with bench/ledger/marathon (200 steps x 8 KB of tool output, elision on; see
 * docs/ledger.md "Performance"): the line's share and the block for what neither the config nor the
 * session sets. A 200k-class model (context above 128k, at most 200k) keeps the 40% line and gets a
 * block of 90% of it: with elision the window after a cut is small whatever the block, so a larger block
 * means fewer cuts (each re-writes the cached window once) and a smaller window after each; on the bench
 * that halves the input cost against an agent that compacts near the limit, at prefix reuse 0.945.
 * Every other model keeps 40% and 70% of the line (not benched).
 */
export interface ModelDefaults {
  percent: number;
  /** the block as a share of the line */
  blockShare: number;
}

export const TUNED_200K: ModelDefaults = { percent: DEFAULT_PERCENT, blockShare: 0.9 };

export function modelDefaults(m: ModelLimits): ModelDefaults {
  if (m.known && m.contextWindow > 128_000 && m.contextWindow <= 200_000) return TUNED_200K;
  return { percent: DEFAULT_PERCENT, blockShare: 0.7 };
}

/** What the model can hold: its context minus the output allowance (at most 32k). */
export function ceilingOf(m: ModelLimits): number | undefined {
  if (!m.known || !(m.contextWindow > 0)) return undefined;
  return m.contextWindow - Math.min(Math.max(0, m.maxOutputTokens), OUTPUT_ALLOWANCE_CAP);
}

/**
 * Config rule: an explicit `percent` is the mode (with `tokens` as the line when the context is unknown);
 * else an explicit `tokens` is a fixed limit (0 = the model's ceiling); else the model's default share
 * (40%; see modelDefaults).
 * A session override (/tideline, --tideline) replaces the mode; "default" falls back to config.
 */
export function resolveLine(cfg: TidelineConfig, model: ModelLimits, override?: TidelineSpec): TidelineLine {
  let mode: "percent" | "tokens";
  const tuned = modelDefaults(model);
  let percent = tuned.percent;
  let tokens: number | undefined;
  if (override && override.kind === "percent") {
    mode = "percent";
    percent = override.percent;
  } else if (override && override.kind === "tokens") {
    mode = "tokens";
    tokens = override.tokens;
  } else if (typeof cfg.percent === "number") {
    mode = "percent";
    percent = cfg.percent;
  } else if (typeof cfg.tokens === "number") {
    mode = "tokens";
    tokens = cfg.tokens;
  } else {
    mode = "percent";
  }
  const ceiling = ceilingOf(model);
  let line: number;
  if (mode === "percent") {
    line = ceiling !== undefined ? Math.floor((model.contextWindow * percent) / 100) : typeof cfg.tokens === "number" && cfg.tokens > 0 ? cfg.tokens : UNKNOWN_CONTEXT_TOKENS;
  } else {
    line = tokens === 0 || tokens === undefined ? (ceiling ?? NO_LIMIT_CEILING) : tokens;
  }
  let clamped = false;
  if (ceiling !== undefined && line > ceiling) {
    line = ceiling;
    clamped = true;
  }
  return { line, block: blockOf(cfg.block, line, tuned.blockShare), mode, ...(mode === "percent" ? { percent } : {}), clamped };
}

/**
 * A token count, or "35%" of the line; unset = `share` of the line (70%, or the model's tuned share).
 * Never below 1k nor above the line.
 */
export function blockOf(block: number | string | undefined, line: number, share = 0.7): number {
  let b = Math.floor(line * share);
  if (typeof block === "number" && block > 0) b = block;
  else if (typeof block === "string") {
    const m = /^\s*(\d+(?:\.\d+)?)\s*%\s*$/.exec(block);
    if (m) b = Math.floor((line * Number(m[1])) / 100);
    else if (/^\d+$/.test(block.trim())) b = Number(block.trim());
  }
  return Math.max(1_000, Math.min(b, line));
}

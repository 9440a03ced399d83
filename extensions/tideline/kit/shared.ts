/** Implementation published by the kit `oceancode/kit/tideline` (moved out of extensions/tideline/api.ts, which keeps the types). */
import { TIDELINE_USAGE, MIN_LIMIT, type ParsedSpec, type TidelineLine } from "../api.js";

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

/** Status text exactly as the guide words it. */
export function statusText(line: TidelineLine | undefined, used: number, enabled: boolean): string {
  if (!enabled || !line) return "tideline off";
  const toGo = formatTokens(Math.max(0, line.line - used));
  if (line.mode === "percent") return `tideline @${line.percent}% (${formatTokens(line.line)}): ${toGo} to go`;
  return `tideline @${formatTokens(line.line)}: ${toGo} to go`;
}

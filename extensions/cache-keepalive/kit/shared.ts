/** Implementation published by the kit `oceancode/kit/cache-keepalive` (moved out of extensions/cache-keepalive/api.ts, which keeps the types). */
import { MAX_RETRY_DELAY_MS } from "../api.js";

/**
 * $OC_CACHE_KEEPALIVE_MINUTES: minutes (decimals allowed: 0.02 is 1.2 s), 0 turns the keep-alive off.
 * Undefined when the text is no number of at least 0.
 */
export function parseMinutes(text: string): number | undefined {
  const t = text.trim();
  if (!/^\d+(\.\d+)?$|^\.\d+$/.test(t)) return undefined;
  const n = Number(t);
  return Number.isFinite(n) && n >= 0 ? n : undefined;
}

/** $OC_CACHE_KEEPALIVE_MAX: a whole number of at least 0 (0 turns the keep-alive off). */
export function parseMax(text: string): number | undefined {
  const t = text.trim();
  return /^\d+$/.test(t) ? Number(t) : undefined;
}

/** The delay before a failed touch is sent once more. */
export function retryDelayMs(intervalMs: number): number {
  return Math.min(intervalMs / 2, MAX_RETRY_DELAY_MS);
}

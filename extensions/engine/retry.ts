/** Backoff for retryable provider errors (429, 5xx, overloaded, a dropped connection). */
import { ProviderError } from "./api.js";

export function isRetryable(e: unknown): e is ProviderError {
  return e instanceof ProviderError && (e.kind === "rate_limit" || e.kind === "overloaded" || e.kind === "server" || e.kind === "network");
}

/** Delay before attempt n (0-based): the server's retry-after when given, else 0.5 s doubling, capped at 30 s. */
export function backoffMs(e: ProviderError, attempt: number): number {
  const base = process.env.OC_RETRY_BASE_MS ? Number(process.env.OC_RETRY_BASE_MS) : 500;
  if (e.retryAfterMs !== undefined && e.retryAfterMs >= 0) return Math.min(e.retryAfterMs, 60_000);
  return Math.min(base * 2 ** attempt, 30_000);
}

export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new ProviderError("aborted", "aborted"));
    const t = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(t);
      reject(new ProviderError("aborted", "aborted"));
    };
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

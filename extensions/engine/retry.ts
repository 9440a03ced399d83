/** Backoff for retryable provider errors (429, 5xx, overloaded, a dropped connection), classified by code. */
import { ProviderError, isRetryableProviderError, providerErrorDetails } from "./kit/provider.js";

export const isRetryable = isRetryableProviderError;

/** The longest wait between attempts, the server's retry-after included (docs/run.md: "up to 30 s"). */
export const MAX_BACKOFF_MS = 30_000;

/** Delay before attempt n (0-based): the server's retry-after when given, else 0.5 s doubling, capped at 30 s. */
export function backoffMs(e: unknown, attempt: number): number {
  const base = process.env.OC_RETRY_BASE_MS ? Number(process.env.OC_RETRY_BASE_MS) : 500;
  const { retryAfterMs } = providerErrorDetails(e);
  if (retryAfterMs !== undefined && retryAfterMs >= 0) return Math.min(retryAfterMs, MAX_BACKOFF_MS);
  return Math.min(base * 2 ** attempt, MAX_BACKOFF_MS);
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

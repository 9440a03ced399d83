/** Implementation published by the kit `oceancode/kit/engine` (moved out of extensions/engine/contract/provider.ts, which keeps the types). */
import { PROVIDER_ERROR_CODES, type ProviderErrorCode, type ProviderErrorKind, RETRYABLE_PROVIDER_ERROR_CODES, type ProviderErrorOptions, type ProviderErrorLike, CLAUDE_CLI_PROVIDERS } from "../contract/provider.js";

/** First-party convenience for throwing a provider error. Nothing may branch on `instanceof ProviderError`: use providerErrorCode. */
export class ProviderError extends Error {
  readonly code: ProviderErrorCode;
  readonly status?: number;
  readonly retryAfterMs?: number;
  constructor(code: ProviderErrorCode, message: string, opts: ProviderErrorOptions = {}) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = "ProviderError";
    this.code = code;
    if (opts.status !== undefined) this.status = opts.status;
    if (opts.retryAfterMs !== undefined) this.retryAfterMs = opts.retryAfterMs;
  }
  /** @deprecated read `code` ("rate_limited" was "rate_limit"); kept for one release. */
  get kind(): ProviderErrorKind {
    return this.code === "rate_limited" ? "rate_limit" : this.code;
  }
}

/** Make a provider error (a ProviderError; any object of the same shape is one too). */
export function providerError(code: ProviderErrorCode, message: string, opts: ProviderErrorOptions = {}): ProviderError {
  return new ProviderError(code, message, opts);
}

const CODE_SET: ReadonlySet<string> = new Set(PROVIDER_ERROR_CODES);

/**
 * The provider error code of a thrown value, or undefined when it is not a provider error. Duck-typed:
 * reads `e.code`; for one release also the legacy `kind` field (with "rate_limit" read as "rate_limited").
 */
export function providerErrorCode(e: unknown): ProviderErrorCode | undefined {
  if (typeof e !== "object" || e === null) return undefined;
  const o = e as { code?: unknown; kind?: unknown };
  if (typeof o.code === "string" && CODE_SET.has(o.code)) return o.code as ProviderErrorCode;
  if (typeof o.kind === "string") {
    const k = o.kind === "rate_limit" ? "rate_limited" : o.kind;
    if (CODE_SET.has(k)) return k as ProviderErrorCode;
  }
  return undefined;
}

/**
 * A thrown value as a provider error: itself when it already carries a provider `code`, a ProviderError
 * wrapping it when only the legacy `kind` says what it is, else undefined.
 */
export function asProviderError(e: unknown): ProviderErrorLike | undefined {
  const code = providerErrorCode(e);
  if (code === undefined) return undefined;
  if ((e as { code?: unknown }).code === code) return e as ProviderErrorLike;
  const d = providerErrorDetails(e);
  return new ProviderError(code, d.message, { status: d.status, retryAfterMs: d.retryAfterMs, cause: e });
}

/** rate_limited, overloaded, server and network: the engine retries these with backoff. */
export function isRetryableProviderError(e: unknown): boolean {
  const code = providerErrorCode(e);
  return code !== undefined && RETRYABLE_PROVIDER_ERROR_CODES.includes(code);
}

/** A provider error's optional fields, read by shape (undefined when absent or not numbers). */
export function providerErrorDetails(e: unknown): { status?: number; retryAfterMs?: number; message: string } {
  const o = (typeof e === "object" && e !== null ? e : {}) as { status?: unknown; retryAfterMs?: unknown; message?: unknown };
  return {
    ...(typeof o.status === "number" && Number.isFinite(o.status) ? { status: o.status } : {}),
    ...(typeof o.retryAfterMs === "number" && Number.isFinite(o.retryAfterMs) ? { retryAfterMs: o.retryAfterMs } : {}),
    message: typeof o.message === "string" ? o.message : String(e),
  };
}

/** A provider's retry hint from HTTP headers: retry-after-ms, else retry-after (seconds or an HTTP date), in ms. */
export function retryAfterMs(headers: { get(name: string): string | null } | undefined): number | undefined {
  const ms = headers?.get("retry-after-ms");
  if (ms && Number.isFinite(Number(ms))) return Math.max(0, Number(ms));
  const ra = headers?.get("retry-after");
  if (!ra) return undefined;
  if (Number.isFinite(Number(ra))) return Math.max(0, Number(ra) * 1000);
  const at = Date.parse(ra);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}

/** Whether model `id` ("provider/model") runs through the claude CLI. */
export function isClaudeCliRoute(id: string | undefined): boolean {
  if (!id) return false;
  const slash = id.indexOf("/");
  return slash > 0 && CLAUDE_CLI_PROVIDERS.has(id.slice(0, slash));
}

/** Map openai SDK errors to provider error codes (see PROVIDER_ERROR_CODES in engine/api.ts). */
import OpenAI from "openai";
import { type ProviderErrorLike } from "../engine/api.js";
import { asProviderError, printableText, providerError, retryAfterMs } from "../engine/kit.js";

export const DEFAULT_BASE_URL = "https://api.openai.com/v1";

export const FIX_KEY = "store one with `oceancode key openai <key>`, set OPENAI_API_KEY, or run `oceancode auth` (a local server needs provider.openai.base_url or OPENAI_BASE_URL instead)";
/** For a server the user already pointed at (OPENAI_BASE_URL / provider.openai.base_url): the key is what is wrong. */
const FIX_SERVER_KEY = "store the key that server expects with `oceancode key openai <key>` or set OPENAI_API_KEY";

/**
 * How to fix a missing or rejected key: the base URL hint only while no base URL was configured (a user who
 * set OPENAI_BASE_URL or provider.openai.base_url, even to the official endpoint, already chose a server).
 */
export function fixKey(baseURL: string, configured = baseURL !== DEFAULT_BASE_URL): string {
  return configured ? FIX_SERVER_KEY : FIX_KEY;
}

/** What a route adds to the generic error text: a preset (ollama, openrouter, ...) has its own wording. */
export interface ErrorWording {
  /** how to fix a missing or rejected key */
  keyFix: string;
  /** appended to "cannot reach <url>": e.g. is `ollama serve` running */
  unreachable?: string;
}

interface ErrorBody {
  message?: string;
  type?: string;
  code?: string | null;
  error?: { message?: string; type?: string; code?: string | null };
}

export function toProviderError(e: unknown, signal: AbortSignal, baseURL: string, wording: ErrorWording = { keyFix: fixKey(baseURL) }): ProviderErrorLike {
  const already = asProviderError(e);
  if (already) return already;
  if (signal.aborted || e instanceof OpenAI.APIUserAbortError) return providerError("aborted", "the request was cancelled");
  if (e instanceof OpenAI.APIConnectionError) return providerError("network", `cannot reach ${baseURL}: ${e.message}${wording.unreachable ? ` (${wording.unreachable})` : ""}`);
  // an event whose data is not JSON: shortened and made printable, never dumped
  if (e instanceof SyntaxError) return providerError("server", `the stream from ${baseURL} sent malformed data (${printableText(e.message, 120)})`);
  if (!(e instanceof OpenAI.APIError)) return providerError("network", `the stream from ${baseURL} broke: ${printableText(e instanceof Error ? e.message : String(e))}`);
  const body = (e.error ?? {}) as ErrorBody;
  const inner = body.error ?? body;
  const message = printableText(String(inner.message ?? e.message), 300);
  const code = inner.code ?? e.code ?? "";
  const status = e.status;
  const where = status ? `${baseURL} ${status}` : baseURL;
  if (code === "insufficient_quota") return providerError("bad_request", `${where}: ${message} (billing: the account has no quota left)`, { status });
  if (status === 429 || code === "rate_limit_exceeded") return providerError("rate_limited", `${where}: ${message}`, { status, retryAfterMs: retryAfterMs(e.headers) });
  if (code === "context_length_exceeded" || /maximum context length|context length|context window|prompt is too long|too many tokens/i.test(message) || status === 413) {
    return providerError("prompt_too_long", `${where}: ${message}`, { status });
  }
  if (status === 401 || status === 403) return providerError("auth", `${where}: ${message} — check the API key: ${wording.keyFix}`, { status });
  if (status === 529 || /overloaded/i.test(message)) return providerError("overloaded", `${where}: ${message}`, { status, retryAfterMs: retryAfterMs(e.headers) });
  if (status === undefined || status >= 500) return providerError("server", `${where}: ${message}`, { status, retryAfterMs: retryAfterMs(e.headers) });
  if (status === 408) return providerError("network", `${where}: ${message}`, { status });
  return providerError("bad_request", `${where}: ${message}`, { status });
}

/**
 * Map @google/genai errors to provider error codes (see PROVIDER_ERROR_CODES in engine/api.ts). The SDK's
 * ApiError carries only the status and the JSON error body as its message (Google's shape:
 * `{"error":{"code","message","status","details":[…]}}`), so both are read back from there; the
 * response headers (retry-after) come from the provider's fetch, which records them.
 */
import { ApiError } from "@google/genai/web";
import { type ProviderErrorLike } from "../engine/api.js";
import { asProviderError, printableText, providerError, retryAfterMs } from "../engine/kit.js";

export const DEFAULT_BASE_URL = "https://generativelanguage.googleapis.com";
export const FIX_KEY = "store one with `oceancode key google <key>`, set GEMINI_API_KEY or GOOGLE_API_KEY, or run `oceancode auth`";

interface GoogleErrorBody {
  code?: number;
  message?: string;
  status?: string;
  details?: Array<{ "@type"?: string; reason?: string; retryDelay?: string }>;
}

/** The `error` object inside an ApiError's message (the SDK puts JSON there, after a prefix for in-stream errors). */
export function errorBody(message: string): GoogleErrorBody {
  const at = message.indexOf("{");
  if (at < 0) return {};
  try {
    const parsed = JSON.parse(message.slice(at)) as { error?: GoogleErrorBody };
    return parsed.error && typeof parsed.error === "object" ? parsed.error : {};
  } catch {
    return {};
  }
}

/** google.rpc.RetryInfo's retryDelay ("37s", "1.5s") in ms. */
function retryDelayMs(body: GoogleErrorBody): number | undefined {
  for (const d of body.details ?? []) {
    const m = /^(\d+(?:\.\d+)?)s$/.exec(d.retryDelay ?? "");
    if (m) return Math.round(Number(m[1]) * 1000);
  }
  return undefined;
}

const TOO_LONG = /input token count.*exceeds the maximum|exceeds the maximum number of tokens|context (window|length)|prompt is too long|too many tokens/i;

export function toProviderError(e: unknown, signal: AbortSignal, baseURL: string, headers?: Headers): ProviderErrorLike {
  const already = asProviderError(e);
  if (already) return already;
  if (signal.aborted) return providerError("aborted", "the request was cancelled");
  if (!(e instanceof ApiError)) {
    const text = printableText(e instanceof Error ? `${e.message}${e.cause instanceof Error ? `: ${e.cause.message}` : ""}` : String(e));
    // fetch failing before any response: the endpoint cannot be reached
    if (e instanceof TypeError && /fetch failed/i.test(text)) return providerError("network", `cannot reach the Gemini API at ${baseURL}: ${text}`);
    // the SDK's own parse failures of a stream event
    if (/exception parsing stream chunk|Incomplete JSON segment/i.test(text)) return providerError("server", `the Gemini stream sent malformed data (${printableText(text, 120)})`);
    return providerError("network", `the Gemini stream from ${baseURL} broke: ${text}`);
  }
  const body = errorBody(e.message);
  const status = e.status;
  const message = printableText(String(body.message ?? e.message), 300);
  const reasons = new Set((body.details ?? []).map((d) => d.reason ?? ""));
  const where = `Gemini ${status}${body.status ? ` ${body.status}` : ""}`;
  const wait = retryAfterMs(headers) ?? retryDelayMs(body);
  const retry = wait === undefined ? {} : { retryAfterMs: wait };
  if (status === 429 || body.status === "RESOURCE_EXHAUSTED") return providerError("rate_limited", `${where}: ${message}`, { status, ...retry });
  // a bad key is a 400 INVALID_ARGUMENT with reason API_KEY_INVALID on the Gemini API
  if (status === 401 || status === 403 || reasons.has("API_KEY_INVALID") || body.status === "UNAUTHENTICATED" || body.status === "PERMISSION_DENIED") {
    return providerError("auth", `${where}: ${message} — check the API key: ${FIX_KEY}`, { status });
  }
  if (TOO_LONG.test(message) || status === 413) return providerError("prompt_too_long", `${where}: ${message}`, { status });
  if (status === 503 || /overloaded/i.test(message)) return providerError("overloaded", `${where}: ${message}`, { status, ...retry });
  if (status === 408 || status === 504) return providerError("network", `${where}: ${message}`, { status });
  if (status >= 500) return providerError("server", `${where}: ${message}`, { status, ...retry });
  return providerError("bad_request", `${where}: ${message}`, { status });
}

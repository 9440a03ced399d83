/** Map @anthropic-ai/sdk errors (HTTP and in-stream `event: error`) to provider error codes (see PROVIDER_ERROR_CODES in engine/api.ts). */
import { APIConnectionError, APIError, APIUserAbortError } from "@anthropic-ai/sdk/error";
import { asProviderError, printableText, providerError, retryAfterMs, type ProviderErrorLike } from "../engine/api.js";

export const FIX_KEY = "store one with `oceancode key anthropic <key>`, set ANTHROPIC_API_KEY, or run `oceancode auth`";

interface ErrorBody {
  type?: string;
  message?: string;
  error?: { type?: string; message?: string };
}

/** The endpoint the SDK uses when ANTHROPIC_BASE_URL / provider.anthropic.base_url name none. */
export const DEFAULT_BASE_URL = "https://api.anthropic.com";

/** `baseURL`: the endpoint that was tried, named when it cannot be reached. */
export function toProviderError(e: unknown, signal: AbortSignal, baseURL: string = DEFAULT_BASE_URL): ProviderErrorLike {
  const already = asProviderError(e);
  if (already) return already;
  if (signal.aborted || e instanceof APIUserAbortError) return providerError("aborted", "the request was cancelled");
  if (e instanceof APIConnectionError) return providerError("network", `cannot reach the Anthropic API at ${baseURL}: ${e.message}`);
  if (e instanceof SyntaxError) {
    // an event whose data is not JSON: what it held is shortened and made printable, never dumped
    return providerError("server", `the Anthropic stream sent malformed data (${printableText(e.message, 120)})`);
  }
  if (!(e instanceof APIError)) {
    // fetch body errors ("terminated", ECONNRESET) surface raw while the stream is read
    return providerError("network", `the Anthropic stream broke: ${printableText(e instanceof Error ? e.message : String(e))}`);
  }
  const body = (e.error ?? {}) as ErrorBody;
  const type = body.error?.type ?? body.type ?? "";
  const message = printableText(String(body.error?.message ?? body.message ?? e.message), 300);
  const status = e.status;
  const where = status ? `Anthropic ${status}` : "Anthropic";
  if (status === 429 || type === "rate_limit_error") return providerError("rate_limited", `${where}: ${message}`, { status, retryAfterMs: retryAfterMs(e.headers) });
  if (status === 529 || type === "overloaded_error") return providerError("overloaded", `${where}: ${message}`, { status, retryAfterMs: retryAfterMs(e.headers) });
  if (/prompt is too long|too many tokens|context (window|length)/i.test(message) || status === 413) {
    return providerError("prompt_too_long", `${where}: ${message}`, { status });
  }
  if (status === 401 || status === 403 || type === "authentication_error" || type === "permission_error") {
    return providerError("auth", `${where}: ${message} — check the API key: ${FIX_KEY}`, { status });
  }
  if ((status !== undefined && status >= 500) || type === "api_error") return providerError("server", `${where}: ${message}`, { status, retryAfterMs: retryAfterMs(e.headers) });
  if (status === 408) return providerError("network", `${where}: ${message}`, { status });
  return providerError("bad_request", `${where}: ${message}`, { status });
}

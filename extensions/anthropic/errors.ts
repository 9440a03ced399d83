/** Map @anthropic-ai/sdk errors (HTTP and in-stream `event: error`) to provider error codes (see PROVIDER_ERROR_CODES in engine/api.ts). */
import { APIConnectionError, APIError, APIUserAbortError } from "@anthropic-ai/sdk/error";
import { type ProviderErrorCode, type ProviderErrorLike } from "../engine/api.js";
import { asProviderError, printableText, providerError, retryAfterMs } from "../engine/kit.js";

export const FIX_KEY = "store one with `oceancode key anthropic <key>`, set ANTHROPIC_API_KEY, or run `oceancode auth`";

interface ErrorBody {
  type?: string;
  message?: string;
  error?: { type?: string; message?: string };
}

/** What an SDK API error said, for a route's own classification (Bedrock's exception names). */
export interface ApiErrorInfo {
  status: number | undefined;
  /** the error type: the body's `error.type` / `type`, else the x-amzn-errortype header's name */
  type: string;
  message: string;
}

/**
 * Who answers the Messages requests: the Anthropic API itself, or a cloud route (Bedrock, Vertex) the
 * same SDK speaks to. Only the wording of errors and the route's own error names differ.
 */
export interface MessagesRoute {
  /** names the service in messages: "Anthropic", "Amazon Bedrock" */
  service: string;
  /** appended to an auth failure: how to fix the credentials */
  fixAuth: string;
  /** the route's own error names, asked before the Anthropic defaults; undefined falls through */
  classify?(e: ApiErrorInfo): ProviderErrorCode | undefined;
}

export const ANTHROPIC_ROUTE: MessagesRoute = { service: "Anthropic", fixAuth: `check the API key: ${FIX_KEY}` };

/** The endpoint the SDK uses when ANTHROPIC_BASE_URL / provider.anthropic.base_url name none. */
export const DEFAULT_BASE_URL = "https://api.anthropic.com";

/** `baseURL`: the endpoint that was tried, named when it cannot be reached. */
export function toProviderError(e: unknown, signal: AbortSignal, baseURL: string = DEFAULT_BASE_URL, route: MessagesRoute = ANTHROPIC_ROUTE): ProviderErrorLike {
  const already = asProviderError(e);
  if (already) return already;
  const svc = route.service;
  if (signal.aborted || e instanceof APIUserAbortError) return providerError("aborted", "the request was cancelled");
  if (e instanceof APIConnectionError) return providerError("network", `cannot reach the ${svc} API at ${baseURL}: ${e.message}`);
  if (e instanceof SyntaxError) {
    // an event whose data is not JSON: what it held is shortened and made printable, never dumped
    return providerError("server", `the ${svc} stream sent malformed data (${printableText(e.message, 120)})`);
  }
  if (!(e instanceof APIError)) {
    // fetch body errors ("terminated", ECONNRESET) surface raw while the stream is read
    return providerError("network", `the ${svc} stream broke: ${printableText(e instanceof Error ? e.message : String(e))}`);
  }
  const body = (e.error ?? {}) as ErrorBody;
  const amzn = e.headers?.get("x-amzn-errortype")?.split(":")[0] ?? "";
  const type = body.error?.type ?? body.type ?? amzn;
  const message = printableText(String(body.error?.message ?? body.message ?? e.message), 300);
  const status = e.status;
  const where = status ? `${svc} ${status}` : svc;
  const own = route.classify?.({ status, type, message });
  const code = own ?? anthropicCode(status, type, message);
  const retry = { status, retryAfterMs: retryAfterMs(e.headers) };
  switch (code) {
    case "rate_limited":
    case "overloaded":
    case "server":
      return providerError(code, `${where}: ${message}`, retry);
    case "auth":
      return providerError("auth", `${where}: ${message} — ${route.fixAuth}`, { status });
    default:
      return providerError(code, `${where}: ${message}`, { status });
  }
}

function anthropicCode(status: number | undefined, type: string, message: string): ProviderErrorCode {
  if (status === 429 || type === "rate_limit_error") return "rate_limited";
  if (status === 529 || type === "overloaded_error") return "overloaded";
  if (/prompt is too long|too many tokens|context (window|length)/i.test(message) || status === 413) return "prompt_too_long";
  if (status === 401 || status === 403 || type === "authentication_error" || type === "permission_error") return "auth";
  if ((status !== undefined && status >= 500) || type === "api_error") return "server";
  if (status === 408) return "network";
  return "bad_request";
}

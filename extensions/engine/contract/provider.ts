/** Part of the published contract `oceancode/api/engine` (re-exported by ../api.ts): models, providers and provider errors. */
import type { Row, ToolCall, ToolResult, Usage } from "./rows.js";

// ---------------------------------------------------------------- models and providers

/** The model a host uses when neither a flag, the `model` config key nor OC_MODEL names one. */
export const DEFAULT_MODEL_ID = "anthropic/claude-sonnet-4-6";

export interface ModelInfo {
  /** "provider/model" */
  id: string;
  provider: string;
  /** the model name the provider's API expects */
  name: string;
  contextWindow: number;
  maxOutputTokens: number;
  /** USD per million tokens */
  price: { input: number; output: number; cacheRead: number; cacheWrite: number };
  /** false when the catalogue did not know it (defaults used) */
  known: boolean;
  /** the model takes tool definitions (unset: true) */
  tools?: boolean;
  /** the model reads image input (unset: false) */
  images?: boolean;
}

export interface ToolSpec {
  name: string;
  description: string;
  /** JSON Schema of the input object */
  inputSchema: Record<string, unknown>;
}

export interface ModelRequest {
  model: ModelInfo;
  system: string[];
  /** the window: only these rows are sent */
  rows: Row[];
  tools: ToolSpec[];
  maxOutputTokens: number;
  /** provider-specific extras a tap may set (e.g. cache markers policy) */
  extra: Record<string, unknown>;
  /** which session and step this request belongs to (deterministic providers key on it) */
  sessionId: string;
  sessionStep: number;
}

export type ProviderEvent =
  | { type: "text_delta"; text: string }
  | { type: "tool_call"; call: ToolCall }
  /**
   * a tool the provider's backend already ran itself (the Claude Code route: the claude CLI runs its own
   * tools): hosts see it and the step records it, the engine never runs it again
   */
  | { type: "tool_performed"; call: ToolCall; result: ToolResult }
  /** `costUsd`: the backend's own figure for this request (the claude CLI's total_cost_usd), used instead of the catalogue's prices */
  | { type: "usage"; usage: Usage; costUsd?: number }
  | { type: "done"; stopReason: "end_turn" | "tool_use" | "max_tokens" | "refusal" | "other" };

/**
 * Provider errors are recognised BY CODE, never by class (architecture rule 14): a provider error is any
 * thrown object with a string `code` in PROVIDER_ERROR_CODES, an optional numeric `status` and an optional
 * `retryAfterMs`. What the engine does with each code:
 *   rate_limited, overloaded, server, network: retried with backoff (retryAfterMs when given);
 *   prompt_too_long: the engine.promptTooLong hook runs (the tideline cuts the window), then one retry;
 *   auth, bad_request: shown to the user, the turn ends with an error;
 *   aborted: the turn ends as interrupted.
 */
export const PROVIDER_ERROR_CODES = ["rate_limited", "overloaded", "server", "network", "prompt_too_long", "auth", "bad_request", "aborted"] as const;
export type ProviderErrorCode = (typeof PROVIDER_ERROR_CODES)[number];
/** @deprecated the old name of ProviderErrorCode (with "rate_limit" for "rate_limited"); read `code` instead. */
export type ProviderErrorKind = ProviderErrorCode | "rate_limit";

/** The codes the engine retries with backoff. */
export const RETRYABLE_PROVIDER_ERROR_CODES: readonly ProviderErrorCode[] = ["rate_limited", "overloaded", "server", "network"];

export interface ProviderErrorOptions {
  status?: number;
  retryAfterMs?: number;
  cause?: unknown;
}

/** What a provider error looks like to the engine, whichever class (or none) made it. */
export interface ProviderErrorLike {
  code: ProviderErrorCode;
  message: string;
  status?: number;
  retryAfterMs?: number;
}

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

/**
 * Providers whose backend is the claude command-line program: it reads Claude Code's own settings files
 * and runs their hooks itself, so on these routes the hooks extension leaves every Claude-Code-shared
 * source to it (no double firing). Keyed by provider id, so it holds before the provider is loaded.
 */
export const CLAUDE_CLI_PROVIDERS: ReadonlySet<string> = new Set(["claude-code"]);

/** Whether model `id` ("provider/model") runs through the claude CLI. */
export function isClaudeCliRoute(id: string | undefined): boolean {
  if (!id) return false;
  const slash = id.indexOf("/");
  return slash > 0 && CLAUDE_CLI_PROVIDERS.has(id.slice(0, slash));
}

export interface Provider {
  id: string;
  /** Stream one model response. Must stop promptly when `signal` aborts (throw a provider error with code "aborted"). */
  stream(req: ModelRequest, signal: AbortSignal): AsyncIterable<ProviderEvent>;
  /** Optional catalogue entries this provider knows. */
  models?(): Array<Omit<ModelInfo, "known">>;
  /** Optional: describe a model the catalogue does not list (e.g. a scripted file's own context window). */
  describe?(name: string): Omit<ModelInfo, "known"> | undefined;
  /**
   * Optional: why no request can be sent now (e.g. no API key), or undefined when one can. Asked before a
   * prompt is recorded, so a prompt that could never reach the model leaves nothing behind.
   */
  ready?(): { code: ProviderErrorCode; message: string } | undefined;
}

export interface ProviderRegistry {
  /** `by`: the registering extension's id (ctx.id), named when the manifest did not declare it */
  register(provider: Provider, by?: string): void;
  get(id: string): Provider | undefined;
}

export interface ModelCatalog {
  /** Resolve "provider/model"; unknown models get defaults (known: false). */
  resolve(id: string): ModelInfo;
  add(info: Omit<ModelInfo, "known">): void;
  list(): ModelInfo[];
  cost(model: ModelInfo, usage: Usage): number;
}

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

/**
 * Providers whose backend is the claude command-line program: it reads Claude Code's own settings files
 * and runs their hooks itself, so on these routes the hooks extension leaves every Claude-Code-shared
 * source to it (no double firing). Keyed by provider id, so it holds before the provider is loaded.
 */
export const CLAUDE_CLI_PROVIDERS: ReadonlySet<string> = new Set(["claude-code"]);

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

/**
 * The published contract `oceancode/api/engine` (what other extensions and third parties may import).
 *
 * The session engine's public API: types and the hooks it publishes. Other extensions (providers,
 * tools, storage, ledger, tideline, permissions, hooks, sandbox) and hosts import THIS file only,
 * never the engine's internals. Service name: "engine" (EngineService).
 *
 * Data path of one prompt (hook kind in brackets):
 *   userPrompt [waterfall] -> loop { contextBuild [waterfall] -> modelRequest [waterfall] -> provider.stream
 *     -> per tool call: authorizeToolCall [bail, fail-closed] -> executeTool [wrap] (childProcess [waterfall])
 *        -> toolResult [waterfall] -> afterStep [parallel] } -> stop [bail] -> afterTurn [parallel]
 */
import { declareHooks, hook, type HooksOf } from "../../kernel/hook-decl.js";

// ---------------------------------------------------------------- messages

export interface ToolCall {
  id: string;
  name: string;
  input: Record<string, unknown>;
}

export interface ToolResult {
  callId: string;
  name: string;
  /** what the model sees (possibly truncated) */
  content: string;
  isError: boolean;
  /** when truncated for the model: the full text's length and where it is kept */
  truncated?: { fullBytes: number; fullPath?: string };
}

interface RowBase {
  /** monotonic per session: the ledger's "every row up to seq <n>" */
  seq: number;
  turn: number;
  step: number;
  at: number;
}
export interface UserRow extends RowBase {
  role: "user";
  text: string;
  /** context added by hooks/extensions for the model (not typed by the user) */
  context?: string[];
}
export interface AssistantRow extends RowBase {
  role: "assistant";
  text: string;
  toolCalls: ToolCall[];
  usage?: Usage;
  model?: string;
}
export interface ToolRow extends RowBase {
  role: "tool";
  results: ToolResult[];
}
/** A notice the engine injects for the model (e.g. the tideline pointer line, a step-cap continuation). */
export interface NoteRow extends RowBase {
  role: "note";
  text: string;
  /** "interrupted": the engine's marker where an interrupted turn stopped (INTERRUPTED_NOTE) */
  kind?: "interrupted";
}

/** The note the engine appends where an interrupted turn stopped (the model reads it next turn). */
export const INTERRUPTED_NOTE = "[interrupted by the user: the turn stopped here, before it finished]";
export type Row = UserRow | AssistantRow | ToolRow | NoteRow;

export interface Usage {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
}
export function emptyUsage(): Usage {
  return { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 };
}

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
  | { type: "usage"; usage: Usage }
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

// ---------------------------------------------------------------- tools

export type ToolKind = "read" | "edit" | "execute" | "search" | "other";

export interface SpawnSpec {
  command: string;
  args: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** who is spawning (tool name) */
  purpose: string;
}

export interface ToolContext {
  session: SessionInfo;
  call: ToolCall;
  cwd: string;
  signal: AbortSignal;
  /** Compose a child process spec through the childProcess hook (env stripping, sandbox wrap). */
  prepareSpawn(spec: Omit<SpawnSpec, "env"> & { env?: NodeJS.ProcessEnv }): Promise<SpawnSpec>;
  /** Per-session state bag for tools (e.g. files read, background jobs). */
  state: Map<string, unknown>;
}

export interface ToolOutput {
  content: string;
  isError?: boolean;
  metadata?: Record<string, unknown>;
}

export interface ToolDefinition extends ToolSpec {
  kind: ToolKind;
  /** Claude Code's name for hook payloads and Tool(pattern) rules: "Bash", "Read", "Write", "Edit", ... */
  claudeName?: string;
  /** The input in Claude Code's field names, absolute paths (for hook payloads). */
  toClaudeInput?(input: Record<string, unknown>, cwd: string): Record<string, unknown>;
  /** Map Claude-shaped input (e.g. a hook's updatedInput) back to ours. */
  fromClaudeInput?(input: Record<string, unknown>): Record<string, unknown>;
  /** The string a permission rule's pattern matches: the command for bash, the path for file tools. */
  ruleSubject?(input: Record<string, unknown>, cwd: string): string;
  run(input: Record<string, unknown>, ctx: ToolContext): Promise<ToolOutput>;
}

export interface ToolRegistry {
  /** `by`: the registering extension's id (ctx.id), named when the manifest did not declare it */
  register(tool: ToolDefinition, by?: string): void;
  get(name: string): ToolDefinition | undefined;
  list(): ToolDefinition[];
}

// ---------------------------------------------------------------- sessions

export interface SessionInfo {
  id: string;
  parentId?: string;
  cwd: string;
  model: string;
  createdAt: number;
  title?: string;
  /** per-session settings that survive --continue (e.g. tideline override, permission mode) */
  overrides: Record<string, unknown>;
}

export interface SessionTotals {
  usage: Usage;
  costUsd: number;
  turns: number;
  steps: number;
}

/** An open session in memory. */
export interface Session {
  info: SessionInfo;
  /** full history in memory (append-only); the window is chosen by contextBuild */
  rows: Row[];
  totals: SessionTotals;
  /** next seq to assign */
  nextSeq: number;
  lastActive: number;
  /** extension-owned per-session state (keyed by extension id) */
  ext: Map<string, unknown>;
}

/** What storage hands back when a session is reopened. */
export interface StoredSession {
  info: SessionInfo;
  rows: Row[];
  totals: SessionTotals;
}

// ---------------------------------------------------------------- hook payloads

export interface TurnContext {
  session: Session;
  turn: number;
  signal: AbortSignal;
}

export interface PromptInput {
  text: string;
  /** extra context for the model (hooks' additionalContext etc.) */
  context: string[];
  /** set by a tap to refuse the prompt */
  blocked?: { reason: string; by: string };
}

export interface StepContext extends TurnContext {
  step: number;
  /** step number within the session */
  sessionStep: number;
  model: ModelInfo;
}

/** What contextBuild transforms: the rows to send (the window) and leading notes. */
export interface ContextWindow {
  rows: Row[];
  /** notes placed at the window's start (e.g. the tideline pointer line) */
  preface: string[];
  system: string[];
}

export interface ToolCallContext extends StepContext {
  call: ToolCall;
  tool?: ToolDefinition;
  /** the input in Claude Code's shape (tool name + fields), for hooks and rules */
  claude: { toolName: string; toolInput: Record<string, unknown> };
  cwd: string;
}

export type Decision =
  | { action: "allow"; reason?: string; by: string; rule?: string }
  | { action: "deny"; reason: string; by: string; rule?: string }
  | {
      action: "ask";
      reason: string;
      by: string;
      rule?: string;
      /**
       * The exact rule saved when the user answers "always" (the permissions extension persists it); a
       * host shows it before the answer. Absent: "always" saves nothing and acts as "once".
       */
      always?: string;
      /**
       * false: no automatic approver may approve this ask (run --auto, a client's auto-approve); only a
       * person answering can, so such a host rejects it and tells the model `reason`. The permissions
       * extension sets it on the shell guard's asks. Absent or true: any approver may.
       */
      autoApprove?: boolean;
    };

/** bail result for authorizeToolCall may also rewrite the input (hooks' updatedInput). */
export type AuthorizeResult = Decision & { updatedInput?: Record<string, unknown> };

export interface StepRecord {
  ctx: StepContext;
  assistant: AssistantRow;
  tools?: ToolRow;
  usage: Usage;
  /** window size after this step, in tokens (provider-reported input + cache + what this step added) */
  gaugeTokens: number;
  durationMs: number;
}

export interface StopContext extends TurnContext {
  lastAssistantText: string;
  /** how many continuations were granted this run so far */
  continuations: number;
  stopHookActive: boolean;
}
export type StopDecision = { continue: true; reason: string; by: string } | { continue: false; by: string };

export interface TurnRecord {
  session: Session;
  turn: number;
  reason: TurnEndReason;
  rows: Row[];
}
export type TurnEndReason = "end_turn" | "aborted" | "error" | "blocked" | "step_cap" | "max_tokens";

// ---------------------------------------------------------------- questions (asks)

export interface Question {
  sessionId: string;
  tool: string;
  /** the command or the diff / path, for display */
  subject: string;
  reason: string;
  rule?: string;
  /** the exact rule "always" would save (see Decision); absent: always acts as once */
  always?: string;
  /** false: only a person may approve; an automatic approver must reject (see Decision) */
  autoApprove?: boolean;
}
export type Answer = "once" | "always" | "reject";
/** A reject that names who rejected and why; the model is told `Permission denied by <by>: <reason>`. */
export interface Rejection {
  answer: "reject";
  by: string;
  reason: string;
}
/** A plain Answer's reject reads "the user rejected this call"; a host that is no user returns a Rejection. */
export type QuestionHandler = (q: Question, signal: AbortSignal) => Promise<Answer | Rejection>;

// ---------------------------------------------------------------- events for hosts

/**
 * The text a step streamed was thrown away, so it is not stored: the request failed after text had
 * started streaming (a dropped connection, an in-stream overload, a malformed tool call ...). Hosts
 * take back every text_delta of this step since the step began or since its previous discard.
 * `reason` "retry": the request is sent again and the step's answer streams anew; "error": the step
 * failed for good and the turn ends (its error follows as a notice). An interrupted step is not
 * discarded: the text it streamed is stored, followed by the "interrupted" note.
 */
export interface DiscardEvent {
  type: "discard";
  sessionId: string;
  turn: number;
  /** the step within the turn (as step_end counts) */
  step: number;
  reason: "retry" | "error";
  /** what broke the stream: the provider error's code ("network" for a dropped stream), else "other" */
  cause: ProviderErrorCode | "other";
  /** the discarded text's length in Unicode code points (characters) */
  chars: number;
  /** how many text_delta events it came in */
  deltas: number;
}

/** Words for a discard's cause, for hosts (`[retrying: stream dropped]`). */
export function discardCauseText(cause: DiscardEvent["cause"]): string {
  switch (cause) {
    case "network":
      return "stream dropped";
    case "overloaded":
      return "overloaded";
    case "rate_limited":
      return "rate limited";
    case "server":
      return "server error";
    case "prompt_too_long":
      return "prompt too long";
    default:
      return cause === "other" ? "error" : cause.replace(/_/g, " ");
  }
}

export type SessionEvent =
  | { type: "turn_start"; sessionId: string; turn: number; text: string }
  | { type: "text_delta"; sessionId: string; text: string }
  | DiscardEvent
  | { type: "tool_call_start"; sessionId: string; call: ToolCall }
  | { type: "tool_call_end"; sessionId: string; call: ToolCall; result: ToolResult }
  | { type: "step_end"; sessionId: string; turn: number; step: number; usage: Usage; gaugeTokens: number }
  | { type: "usage"; sessionId: string; totals: SessionTotals }
  | { type: "turn_end"; sessionId: string; turn: number; reason: TurnEndReason; text: string }
  | { type: "notice"; sessionId: string; level: "info" | "warn" | "error"; text: string }
  | { type: "question"; sessionId: string; question: Question; answer: Answer };

// ---------------------------------------------------------------- the hooks object

/**
 * Every engine hook, declared once: name (engine.<key>), kind, payload types, doc line, fail-closed.
 * The EngineHooks type and the instances (hooks.ts) come from this table, and the build checks the
 * manifest's contributes.hooks against it (kernel/hook-decl.ts).
 */
export const ENGINE_HOOKS = declareHooks("engine", {
  /** series: a session opened (source "startup" for new, "resume" for reopened). */
  sessionStart: hook.series<{ session: Session; source: "startup" | "resume" }>("a session opened (startup or resume)"),
  /** series: a session is closing (reason "exit" at host shutdown). */
  sessionEnd: hook.series<{ session: Session; reason: string }>("a session is closing"),
  /** waterfall: the user's prompt; a tap may add context or block it. */
  userPrompt: hook.waterfall<PromptInput, TurnContext>("the user's prompt: add context or block it"),
  /** waterfall: the window of rows sent this step (tideline cuts here; preface gets the pointer line). */
  contextBuild: hook.waterfall<ContextWindow, StepContext>("the window of rows sent this step"),
  /** waterfall: the provider request (tools offered, cache markers, system prompt). */
  modelRequest: hook.waterfall<ModelRequest, StepContext>("the provider request: tools, cache markers, system prompt"),
  /** series: the provider refused the request as too long; taps cut, then the engine retries once. */
  promptTooLong: hook.series<StepContext>("the provider refused the request as too long; cut, then one retry"),
  /** bail, fail-closed: allow / ask / deny one tool call. First decision wins; a throwing (or timed-out) tap = deny. */
  authorizeToolCall: hook.bail<ToolCallContext, AuthorizeResult>("allow / ask / deny a tool call; a throwing tap denies", (tap, e) => ({
    action: "deny",
    by: tap,
    reason: `extension '${tap}' failed while authorizing this call (${e instanceof Error ? e.message : String(e)}); denied`,
  })),
  /** series: the user answered an ask (permissions saves an "always" as a rule). */
  permissionAnswered: hook.series<{ ctx: ToolCallContext; decision: Decision; answer: Answer }>("the user answered an ask"),
  /** series: a tool call was denied (by a rule, a hook, or the user). */
  permissionDenied: hook.series<{ ctx: ToolCallContext; decision: Decision }>("a tool call was denied"),
  /** wrap: middleware around running a tool (sandbox, timing). No tap timeout: it surrounds the tool run. */
  executeTool: hook.wrap<ToolCallContext, ToolOutput>("middleware around running a tool"),
  /** waterfall: compose a child process (env stripping, sandbox wrapping). */
  childProcess: hook.waterfall<SpawnSpec, { sessionId: string }>("compose a child process: env, sandbox"),
  /** waterfall: a tool's output before the model sees it (hooks' PostToolUse, truncation). */
  toolResult: hook.waterfall<ToolResult, ToolCallContext>("a tool's output before the model sees it"),
  /** parallel: a step ended (storage write-behind, ledger transcript, gauge). */
  afterStep: hook.parallel<StepRecord>("a step ended"),
  /**
   * bail: the model settled; a tap may ask to continue (hooks' Stop, todos work-off). The engine honours
   * at most engine.max_stop_continuations (default 8) per prompt, then settles.
   */
  stop: hook.bail<StopContext, StopDecision>("the model settled: continue or settle"),
  /** parallel: a turn ended (ledger index, SESSION.md merge). */
  afterTurn: hook.parallel<TurnRecord>("a turn ended"),
  /** bail: reopen a stored session by id (storage answers). */
  loadSession: hook.bail<{ id: string }, StoredSession>("reopen a stored session"),
  /** bail: the most recent session for a directory (storage answers). */
  latestSession: hook.bail<{ cwd: string }, string>("the latest session id for a directory"),
  /**
   * bail (fail-closed): claim a session for this process before it is opened or created, so one
   * process writes a session at a time. The storage extension answers with a lock; no tap means no lock.
   * A `refused` answer (or a throwing tap) makes openSession fail with OC_ERR_SESSION_BUSY.
   */
  claimSession: hook.bail<SessionClaimRequest, SessionClaim>("claim a session for this process (one writer per session)", (tap, e) => ({
    refused: `extension '${tap}' failed while claiming the session (${e instanceof Error ? e.message : String(e)})`,
  })),
});

/** The engine's hooks object (the kind is in each hook's type). */
export type EngineHooks = HooksOf<typeof ENGINE_HOOKS>;

// ---------------------------------------------------------------- the service

export interface PromptOptions {
  signal?: AbortSignal;
  onEvent?: (e: SessionEvent) => void;
}

export interface TurnResult {
  turn: number;
  reason: TurnEndReason;
  text: string;
  error?: string;
}

export interface EngineService {
  readonly hooks: EngineHooks;
  readonly tools: ToolRegistry;
  readonly providers: ProviderRegistry;
  readonly models: ModelCatalog;
  /**
   * A new session, in memory and claimed by this process. It becomes persistent at its first prompt that
   * can reach a model: until then nothing is stored (a session opened and left, or whose start failed,
   * leaves no trace in storage). sessionStart fires here, so hosts and hooks see the session at once.
   */
  createSession(opts: { cwd: string; model: string; parentId?: string; overrides?: Record<string, unknown> }): Promise<Session>;
  /**
   * Why a prompt on model `id` cannot be sent now (its provider has no API key, OC_MAX_STEPS is invalid),
   * as one line, or undefined when it can. Throws like describeModel when no installed provider serves the
   * id or it is not written provider/model (a usage error). prompt() asks the same before it records anything.
   */
  checkModel(id: string): Promise<string | undefined>;
  /** The model's catalogue entry, loading its provider first (unknown models get defaults). */
  describeModel(id: string): Promise<ModelInfo>;
  /**
   * Reopen a session (from memory, else through loadSession), claiming it for this process first.
   * Held by another process: throws an error with code OC_ERR_SESSION_BUSY (see isSessionBusy), or with
   * `wait`, waits its turn.
   */
  openSession(id: string, opts?: { wait?: boolean }): Promise<Session>;
  latestSessionId(cwd: string): Promise<string | undefined>;
  /** Run one user prompt to the end of its turn (and any continuations). */
  prompt(session: Session, text: string, opts?: PromptOptions): Promise<TurnResult>;
  /** Hosts answer asks. */
  setQuestionHandler(handler: QuestionHandler | undefined): void;
  /**
   * Drop rows with seq <= uptoSeq from the open session's memory. For rows that already left the window
   * and were handed to the stores (storage, ledger): memory then stays flat however long a session runs.
   * Returns how many rows were dropped. Readers of old rows use storage (loadSession) or the ledger.
   */
  releaseRows(session: Session, uptoSeq: number): number;
  /** Tell the user something about a session (e.g. a hook's systemMessage): a "notice" event to hosts. */
  notice(sessionId: string, level: "info" | "warn" | "error", text: string): void;
  /** Subscribe to every session's events (hosts, meters). Returns an unsubscribe. */
  subscribe(listener: (e: SessionEvent) => void): () => void;
  closeSession(session: Session, reason: string): Promise<void>;
}

/** What claimSession taps are asked. */
export interface SessionClaimRequest {
  id: string;
  /** wait for another holder to let go instead of refusing */
  wait: boolean;
}

/** A claim: held until release(), or refused with a message naming the holder. */
export type SessionClaim = { release(): Promise<void> } | { refused: string };

export const SESSION_BUSY = "OC_ERR_SESSION_BUSY" as const;

/** The error openSession throws when another process holds the session; recognised by its code. */
export function sessionBusyError(message: string): Error & { code: typeof SESSION_BUSY } {
  return Object.assign(new Error(message), { code: SESSION_BUSY });
}

export function isSessionBusy(e: unknown): boolean {
  return typeof e === "object" && e !== null && (e as { code?: unknown }).code === SESSION_BUSY;
}

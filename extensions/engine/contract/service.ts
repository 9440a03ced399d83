/** Part of the published contract `oceancode/api/engine` (re-exported by ../api.ts): events for hosts and the engine service. */
import type { ToolCall, ToolResult, Usage } from "./rows.js";
import type { ModelCatalog, ModelInfo, ProviderErrorCode, ProviderRegistry } from "./provider.js";
import type { ToolRegistry } from "./tools.js";
import type { Session, SessionProfile, SessionTotals } from "./session.js";
import type { Answer, EngineHooks, Question, QuestionHandler, QuestionReply, StoppedBy, TurnEndReason } from "./hooks.js";
import type { SessionOverrides } from "./session.js";

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

export type SessionEvent =
  | { type: "turn_start"; sessionId: string; turn: number; text: string }
  | { type: "text_delta"; sessionId: string; text: string }
  | DiscardEvent
  | { type: "tool_call_start"; sessionId: string; call: ToolCall }
  | { type: "tool_call_end"; sessionId: string; call: ToolCall; result: ToolResult }
  | { type: "step_end"; sessionId: string; turn: number; step: number; usage: Usage; gaugeTokens: number }
  | { type: "usage"; sessionId: string; totals: SessionTotals }
  /** a step-limited turn (reason "step_cap") carries which bound ended it: `stopped_by`, as the guide spells it */
  | { type: "turn_end"; sessionId: string; turn: number; reason: TurnEndReason; text: string; stopped_by?: StoppedBy }
  | { type: "notice"; sessionId: string; level: "info" | "warn" | "error"; text: string }
  | { type: "question"; sessionId: string; question: Question; answer: Answer }
  | CacheTouchedEvent;

/**
 * The prompt cache was kept warm: while a step waited (a long tool, a sub-agent) or the session idled, the
 * last model request was sent again with its output capped to one token, so the provider's cache TTL
 * restarted (a cache read of the prefix instead of a re-write later). Sent by the cache-keepalive
 * extension through EngineService.emit; its usage and cost are already added to `totals`.
 */
export interface CacheTouchedEvent {
  type: "session.cache.touched";
  sessionId: string;
  /** 1-based count of touches since the session's last real model request */
  touch: number;
  usage: Usage;
  costUsd: number;
  /** the session's totals after this touch (as the "usage" event carries them) */
  totals: SessionTotals;
}

// ---------------------------------------------------------------- the service

export interface PromptOptions {
  signal?: AbortSignal;
  onEvent?: (e: SessionEvent) => void;
  /**
   * Context the host attaches to this prompt's user row, after the typed text (the pager's `@file`
   * contents and `!cmd` outputs); hooks' userPrompt taps see it first in PromptInput.context.
   */
  context?: string[];
  /** images attached to the user row (an `@image.png`), base64; providers that take images send them */
  images?: Array<{ mediaType: string; data: string }>;
}

/** A tool call the user makes from a host (`!cmd` runs bash, `@file` reads), outside any model step. */
export interface UserToolCall {
  name: string;
  input: Record<string, unknown>;
}

export interface TurnResult {
  turn: number;
  reason: TurnEndReason;
  text: string;
  error?: string;
  /** the run stopped at a bound (reason "step_cap"): which one */
  stoppedBy?: StoppedBy;
}

/** What forkSession made: the new session, where it came from, the entry it stops at, its size. */
export interface ForkResult {
  id: string;
  from: string;
  /** the source's last entry the fork holds (`r<seq>` in the source's numbering) */
  entry: string;
  rows: number;
  turns: number;
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
   * With `parentId` it is a child (sub-agent) session: it inherits the parent's overrides, and a prompt
   * stops at its step cap (`profile.maxSteps`, else engine.max_subagent_steps) instead of continuing.
   * `profile` sets a child's system prompt opening and tool allow-list (see SessionProfile).
   */
  createSession(opts: { cwd: string; model: string; parentId?: string; overrides?: SessionOverrides; profile?: SessionProfile }): Promise<Session>;
  /**
   * Why a prompt on model `id` cannot be sent now (its provider has no API key, OC_MAX_STEPS or OC_MAX_SUBAGENT_STEPS is invalid),
   * as one line, or undefined when it can. Throws like describeModel when no installed provider serves the
   * id or it is not written provider/model (a usage error). prompt() asks the same before it records anything.
   */
  checkModel(id: string): Promise<string | undefined>;
  /**
   * A model name as a person types it (`sonnet`, `gpt-5`, `claude-sonnet-4-5-20250929`, `provider/model`)
   * as its full `provider/model` id, over the provider manifests' contributes.models and the loaded
   * catalogue, without loading a provider. A provider/model id of a provider nobody lists is returned as
   * written (checkModel then says no provider serves it). Throws a usage error (ProviderError bad_request)
   * naming the nearest known names when a short name matches nothing.
   */
  resolveModel(name: string): string;
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
  /**
   * Run one tool call the user asked for (the pager's `!cmd` is bash, an `@file` is read or ls) exactly
   * as a model's call runs: engine.authorizeToolCall (rules, modes, guards; an ask goes to the host's
   * question handler), executeTool with its childProcess (the sandbox), then toolResult. No model request
   * is made and no row is stored: the host attaches what it wants to keep to its next prompt
   * (PromptOptions.context). tool_call_start / tool_call_end are sent like a step's.
   */
  runTool(session: Session, call: UserToolCall, opts?: { signal?: AbortSignal }): Promise<ToolResult>;
  /**
   * A new session from another one's history up to `at` (`r<seq>`, `<seq>` or `turn:<n>`; default: all
   * of it, along the journal's active path). Stored and closed: open it with openSession. The source is
   * only read. A bad entry throws an error with code OC_ERR_FORK_ENTRY; an unknown session OC_ERR_NO_SESSION.
   */
  forkSession(fromId: string, opts?: { at?: string }): Promise<ForkResult>;
  /** Hosts answer asks. */
  setQuestionHandler(handler: QuestionHandler | undefined): void;
  /**
   * Ask the host's question handler something that is not a tool call's permission (an MCP server's
   * elicitation). Undefined when no host answers questions; a handler that throws reads as "reject".
   */
  ask(question: Question, signal: AbortSignal): Promise<QuestionReply | undefined>;
  /**
   * Drop rows with seq <= uptoSeq from the open session's memory. For rows that already left the window
   * and were handed to the stores (storage, ledger): memory then stays flat however long a session runs.
   * Returns how many rows were dropped. Readers of old rows use storage (loadSession) or the ledger.
   */
  releaseRows(session: Session, uptoSeq: number): number;
  /** Tell the user something about a session (e.g. a hook's systemMessage): a "notice" event to hosts. */
  notice(sessionId: string, level: "info" | "warn" | "error", text: string): void;
  /**
   * Send an event about a session that no prompt step produced (an extension's own, e.g.
   * session.cache.touched) to every subscriber and to the host running the session's prompt, if any.
   */
  emit(event: SessionEvent): void;
  /** Subscribe to every session's events (hosts, meters). Returns an unsubscribe. */
  subscribe(listener: (e: SessionEvent) => void): () => void;
  closeSession(session: Session, reason: string): Promise<void>;
}

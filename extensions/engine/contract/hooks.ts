/** Part of the published contract `oceancode/api/engine` (re-exported by ../api.ts): hook payloads, questions and the ENGINE_HOOKS table. */
import { declareHooks, hook, staged, type HooksOf } from "../../../kernel/api.js";
import { AUTHORIZE_STAGES, EXECUTE_STAGES, PROMPT_STAGES, REQUEST_STAGES, RESULT_STAGES, SESSION_START_STAGES, WINDOW_STAGES } from "./stages.js";
import type { AssistantRow, FileDiff, Row, ToolCall, ToolResult, ToolRow, Usage } from "./rows.js";
import type { ModelInfo, ModelRequest } from "./provider.js";
import type { SpawnSpec, ToolDefinition, ToolOutput } from "./tools.js";
import type { Session, SessionClaim, SessionClaimRequest, SessionInfo, SessionRefusal, StoredSession } from "./session.js";
import type { AllowHint, ApprovalSource, AutomaticApproval, SpawnContext, ToolApproval } from "./approval.js";

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
  /** left by a tap that lets the call through without answering (permissions): what allowed it */
  allowHint?: AllowHint;
  /** how the call was approved, set by the engine before executeTool runs (a wrap spawning children passes it on) */
  approval?: ToolApproval;
}

export type Decision =
  | {
      action: "allow";
      reason?: string;
      by: string;
      rule?: string;
      /** what kind of automatic approval this allow is (a hook, a skill's allowed-tools, ...); absent: by "user" is a person, else "rule" */
      source?: ApprovalSource;
    }
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

/** What engine.reviewDecision taps see. */
export interface ReviewContext {
  ctx: ToolCallContext;
  decision: Decision;
  /** how the call would be approved if `decision` is an allow: always automatic (a person has not answered yet) */
  approval: ToolApproval;
}

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

/** What engine.gauge taps see: the step that just ended and its tool results (already in session.rows). */
export interface GaugeContext {
  ctx: StepContext;
  tools?: ToolRow;
}

/**
 * Rows that must outlive a kill before the engine waits on something slow: the prompt (before the first
 * model request; `step` 0) and a step's assistant row with its tool calls (before they run: a hung MCP
 * call, a long bash). Stores enqueue what is new, as at afterStep.
 */
/**
 * One provider request of a step, after it settled (engine.afterModelCall): what observers (metrics,
 * traces) need. Times are Date.now() milliseconds; a retried request is one record per attempt.
 */
export interface ModelCallRecord {
  ctx: StepContext;
  /** 0 for the first attempt of this step's request, 1.. for retries */
  attempt: number;
  /** the provider id (`anthropic`, `openai`, `scripted`, ...) and the model id */
  provider: string;
  model: string;
  startedAt: number;
  /** when the first text delta or tool call arrived; absent when none did */
  firstTokenAt?: number;
  endedAt: number;
  /** "ok": answered; "retry": failed and will be retried; "error": failed, the turn ends; "aborted": interrupted */
  outcome: "ok" | "retry" | "error" | "aborted";
  /** the provider error code (providerErrorCode) when it failed */
  errorCode?: string;
  usage?: Usage;
  costUsd?: number;
  stopReason?: string;
  /** the request sent and the text answered: content, for observers that may export it only when allowed */
  request: ModelRequest;
  text: string;
}

/**
 * A tool call's permission settled (engine.permissionDecided), once per call that reached authorization:
 * what was decided before any question, and the final allow or deny. For observers (metrics).
 */
export interface PermissionRecord {
  ctx: ToolCallContext;
  /** the decision after review, before any question: allow, ask or deny */
  decided: Decision["action"];
  /** the final decision (an ask's answer applied) */
  final: "allow" | "deny";
  /**
   * for an ask, who answered: "person" (a plain answer), "automatic" (an automatic approver: run --auto, a
   * client's standing approval), "host" (a host that is no person rejected it: run without --auto), "none"
   * (no one can answer here)
   */
  answeredBy?: "person" | "automatic" | "host" | "none";
}

export interface CheckpointRecord {
  session: Session;
  turn: number;
  step: number;
  why: "prompt" | "tools";
}

export interface StopContext extends TurnContext {
  lastAssistantText: string;
  /** how many continuations were granted this run so far */
  continuations: number;
  stopHookActive: boolean;
}
/**
 * A continue answer. With `progress` it is a work-off of a plan (the todos extension: open items remain):
 * such continuations do not count against engine.max_stop_continuations; instead the engine's no-progress
 * guard stops the run cleanly when two consecutive work-off continuations report the same open and
 * completed counts as the one before (and at most WORKOFF_HARD_CAP of them run per prompt).
 */
export type StopDecision =
  | { continue: true; reason: string; by: string; progress?: PlanProgress }
  | { continue: false; by: string };
/** How far a plan is: open (pending or in progress) and completed item counts. */
export interface PlanProgress {
  open: number;
  completed: number;
}
/** The engine's own ceiling on progress-carrying (work-off) continuations per prompt (rule 15). */
export const WORKOFF_HARD_CAP = 200;
/** Consecutive work-off continuations with unchanged counts that stop the run (the no-progress guard). */
export const NO_PROGRESS_TURNS = 2;

export interface TurnRecord {
  session: Session;
  turn: number;
  reason: TurnEndReason;
  rows: Row[];
  /** a step-limited turn (reason "step_cap"): which bound ended it */
  stoppedBy?: StoppedBy;
}
export type TurnEndReason = "end_turn" | "aborted" | "error" | "blocked" | "step_cap" | "max_tokens";

/**
 * Which bound ended a step-limited turn (the guide's typed `stopped_by`): "budget" (a spend bound,
 * BudgetExceeded), "time" (a clock bound, TimeExceeded), "steps" (the step cap), "doom_loop" (the same
 * step — its text, tool calls and their results — three times in a row).
 */
export type StoppedBy = "budget" | "time" | "steps" | "doom_loop";

/** What engine.bound taps see at each step boundary of a prompt, before the step's model request. */
export interface BoundContext extends TurnContext {
  /** the step about to start, within the turn */
  step: number;
  /** when this prompt started (Date.now()): a clock bound counts from here */
  startedAt: number;
}
/** A bound tripped: the run stops cleanly here (not an error) with this stopped_by and notice. */
export interface BoundStop {
  stoppedBy: Exclude<StoppedBy, "steps">;
  /** one line for the user (the notice) and the transcript */
  reason: string;
  by: string;
}

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
  /**
   * A form question (an MCP server's elicitation): the values it asks for. A host that can collect them
   * answers with a FormAnswer; one that cannot answers yes (the defaults are taken) or no.
   */
  fields?: readonly QuestionField[];
  /** what the call would do, for display (an edit's diff), from the tool's preview() */
  preview?: QuestionPreview;
}
/** A tool's preview of a call for a permission question. */
export interface QuestionPreview {
  diff?: FileDiff;
}
/** One value a form question asks for. Text from a server: a host makes it display-safe. */
export interface QuestionField {
  name: string;
  type: "string" | "number" | "integer" | "boolean";
  title?: string;
  description?: string;
  required: boolean;
  /** the value a yes without a form takes */
  default?: string | number | boolean;
  /** the only values allowed (a string field's enum) */
  options?: readonly string[];
}
export type Answer = "once" | "always" | "reject";
/** A yes to a form question, with what the person entered by field name (as typed: the asker converts). */
export interface FormAnswer {
  answer: "once";
  values: Record<string, string>;
}
/** A reject that names who rejected and why; the model is told `Permission denied by <by>: <reason>`. */
export interface Rejection {
  answer: "reject";
  by: string;
  reason: string;
}
/** A plain Answer's reject reads "the user rejected this call"; a host that is no user returns a Rejection. */
/** What a host may answer: yes once / always / no, a reject with its reason, or a form's values. */
/** An automatic approver (run --auto, a client's standing approval) answers an AutomaticApproval, never a plain "once". */
export type QuestionReply = Answer | Rejection | FormAnswer | AutomaticApproval;
export type QuestionHandler = (q: Question, signal: AbortSignal) => Promise<QuestionReply>;

// ---------------------------------------------------------------- the hooks object

/**
 * Every engine hook, declared once: name (engine.<key>), kind, payload types, doc line, fail-closed.
 * The EngineHooks type and the instances (hooks.ts) come from this table, and the build checks the
 * manifest's contributes.hooks against it (kernel/hook-decl.ts).
 */
export const ENGINE_HOOKS = declareHooks("engine", {
  /** series: a session opened (source "startup" for new, "resume" for reopened). */
  sessionStart: staged(SESSION_START_STAGES, hook.series<{ session: Session; source: "startup" | "resume" }>("a session opened (startup or resume)")),
  /** series: a session is closing (reason "exit" at host shutdown). */
  sessionEnd: hook.series<{ session: Session; reason: string }>("a session is closing"),
  /** waterfall: the user's prompt; a tap may add context or block it. */
  userPrompt: staged(PROMPT_STAGES, hook.waterfall<PromptInput, TurnContext>("the user's prompt: add context or block it")),
  /** waterfall: the window of rows sent this step (tideline cuts here; preface gets the pointer line). */
  contextBuild: staged(WINDOW_STAGES, hook.waterfall<ContextWindow, StepContext>("the window of rows sent this step")),
  /** waterfall: the provider request (tools offered, cache markers, system prompt). */
  modelRequest: staged(REQUEST_STAGES, hook.waterfall<ModelRequest, StepContext>("the provider request: tools, cache markers, system prompt")),
  /** series: the provider refused the request as too long; taps cut, then the engine retries once. */
  promptTooLong: hook.series<StepContext>("the provider refused the request as too long; cut, then one retry"),
  /**
   * bail, fail-closed: allow / ask / deny one tool call, in the phases of AUTHORIZE_STAGES. First decision
   * wins; a throwing (or timed-out) tap = deny.
   */
  authorizeToolCall: staged(
    AUTHORIZE_STAGES,
    hook.bail<ToolCallContext, AuthorizeResult>("allow / ask / deny a tool call; a throwing tap denies", (tap, e) => ({
      action: "deny",
      by: tap,
      reason: `extension '${tap}' failed while authorizing this call (${e instanceof Error ? e.message : String(e)}); denied`,
    })),
  ),
  /** series: the user answered an ask (permissions saves an "always" as a rule). */
  permissionAnswered: hook.series<{ ctx: ToolCallContext; decision: Decision; answer: Answer }>("the user answered an ask"),
  /** series: a tool call was denied (by a rule, a hook, or the user). */
  permissionDenied: hook.series<{ ctx: ToolCallContext; decision: Decision }>("a tool call was denied"),
  /** parallel: a tool call's permission settled (what was decided, the final allow/deny, who answered an ask). Fails open. */
  permissionDecided: hook.parallel<PermissionRecord>("a tool call's permission settled: decided, final, who answered"),
  /** wrap: middleware around running a tool (sandbox, timing). No tap timeout: it surrounds the tool run. */
  executeTool: staged(EXECUTE_STAGES, hook.wrap<ToolCallContext, ToolOutput>("middleware around running a tool")),
  /** waterfall: compose a child process (env stripping, sandbox wrapping). */
  childProcess: hook.waterfall<SpawnSpec, SpawnContext>("compose a child process: env, sandbox"),
  /**
   * bail, fail-closed: review a tool call's decision before it is asked or run, knowing how it would be
   * approved (`approval`: what an allow without an ask would be). A tap may only make it stricter (allow
   * -> ask -> deny; an ask may lose its autoApprove); a looser answer is ignored. A throwing tap denies.
   */
  reviewDecision: hook.bail<ReviewContext, Decision>("review a tool call's decision: only stricter; a throwing tap denies", (tap, e) => ({
    action: "deny",
    by: tap,
    reason: `extension '${tap}' failed while reviewing this call (${e instanceof Error ? e.message : String(e)}); denied`,
  })),
  /** waterfall: a tool's output before the model sees it (hooks' PostToolUse, truncation). */
  toolResult: staged(RESULT_STAGES, hook.waterfall<ToolResult, ToolCallContext>("a tool's output before the model sees it")),
  /**
   * waterfall: the step's gauge in tokens before afterStep sees it (provider input + cache + what the step
   * added). A tap that shrinks what the model reads adds back what it removed (compress: removed bytes ÷ 4),
   * so the gauge measures the uncompressed window.
   */
  gauge: hook.waterfall<number, GaugeContext>("the step's gauge in tokens: a tap that shrank the window adds back what it removed"),
  /** parallel: rows to store before a wait (the prompt; a step's tool calls before they run). Storage and the ledger enqueue them. */
  checkpoint: hook.parallel<CheckpointRecord>("rows to store before a wait: the prompt, a step's tool calls before they run"),
  /** parallel: one provider request settled (ok, retry, error, aborted): metrics and traces. Fails open. */
  afterModelCall: hook.parallel<ModelCallRecord>("a provider request settled: timing, usage, outcome"),
  /** parallel: a step ended (storage write-behind, ledger transcript, gauge). */
  afterStep: hook.parallel<StepRecord>("a step ended"),
  /**
   * bail: the model settled; a tap may ask to continue (hooks' Stop, todos work-off). The engine honours
   * at most engine.max_stop_continuations (default 8) per prompt, then settles.
   */
  stop: hook.bail<StopContext, StopDecision>("the model settled: continue or settle"),
  /**
   * bail: a step boundary of a prompt, before the next model request; a tap that answers stops the run
   * cleanly there (a spend or clock bound: a step-limited turn with stopped_by, exit 0). Fails open.
   */
  bound: hook.bail<BoundContext, BoundStop>("a step boundary: a bound (spend, clock) may stop the run here"),
  /** parallel: a turn ended (ledger index, SESSION.md merge). */
  afterTurn: hook.parallel<TurnRecord>("a turn ended"),
  /**
   * waterfall: the rows a fork starts from (forkSession): the stored rows up to the entry; the ledger keeps
   * only the journal's path to it (turns undone before the entry stay out).
   */
  forkRows: hook.waterfall<Row[], { from: SessionInfo; atSeq?: number }>("the rows a fork starts from: narrow them to the journal's path"),
  /** parallel: a fork's rows are in place (renumbered); storage and the ledger store them. The session closes after. */
  sessionForked: hook.parallel<{ session: Session; from: { session: string; entry: string } }>("a fork's rows are in place: store them"),
  /** bail: reopen a stored session by id (storage answers; a SessionRefusal makes openSession fail with its message). */
  loadSession: hook.bail<{ id: string }, StoredSession | SessionRefusal>("reopen a stored session"),
  /** bail: the most recent root (not sub-agent) session for a directory (storage answers). */
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

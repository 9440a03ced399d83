/** The engine's hooks object: declared once, frozen. Kinds are part of the types (see api.ts). */
import { SeriesHook, ParallelHook, WaterfallHook, BailHook, WrapHook, defineHooks } from "../../kernel/hooks.js";
import type {
  AuthorizeResult,
  ContextWindow,
  Decision,
  Answer,
  EngineHooks,
  ModelRequest,
  PromptInput,
  Session,
  SpawnSpec,
  StepContext,
  StepRecord,
  StopContext,
  StopDecision,
  StoredSession,
  ToolCallContext,
  ToolOutput,
  ToolResult,
  TurnContext,
  TurnRecord,
  SessionClaim,
  SessionClaimRequest,
} from "./api.js";

export function createEngineHooks(): EngineHooks {
  return defineHooks({
    sessionStart: new SeriesHook<{ session: Session; source: "startup" | "resume" }>("engine.sessionStart", "series: a session opened"),
    sessionEnd: new SeriesHook<{ session: Session; reason: string }>("engine.sessionEnd", "series: a session is closing"),
    userPrompt: new WaterfallHook<PromptInput, TurnContext>("engine.userPrompt", "waterfall: the user's prompt; add context or block"),
    contextBuild: new WaterfallHook<ContextWindow, StepContext>("engine.contextBuild", "waterfall: the window of rows sent this step"),
    modelRequest: new WaterfallHook<ModelRequest, StepContext>("engine.modelRequest", "waterfall: the provider request"),
    promptTooLong: new SeriesHook<StepContext>("engine.promptTooLong", "series: the request was refused as too long"),
    authorizeToolCall: new BailHook<ToolCallContext, AuthorizeResult>(
      "engine.authorizeToolCall",
      "bail (fail-closed): allow / ask / deny a tool call",
      (tap, e) => ({ action: "deny", by: tap, reason: `extension '${tap}' failed while authorizing this call (${e instanceof Error ? e.message : String(e)}); denied` }),
    ),
    permissionAnswered: new SeriesHook<{ ctx: ToolCallContext; decision: Decision; answer: Answer }>("engine.permissionAnswered", "series: the user answered an ask"),
    permissionDenied: new SeriesHook<{ ctx: ToolCallContext; decision: Decision }>("engine.permissionDenied", "series: a tool call was denied"),
    executeTool: new WrapHook<ToolCallContext, ToolOutput>("engine.executeTool", "wrap: middleware around running a tool"),
    childProcess: new WaterfallHook<SpawnSpec, { sessionId: string }>("engine.childProcess", "waterfall: compose a child process"),
    toolResult: new WaterfallHook<ToolResult, ToolCallContext>("engine.toolResult", "waterfall: a tool's output before the model sees it"),
    afterStep: new ParallelHook<StepRecord>("engine.afterStep", "parallel: a step ended"),
    stop: new BailHook<StopContext, StopDecision>("engine.stop", "bail: the model settled; continue or settle"),
    afterTurn: new ParallelHook<TurnRecord>("engine.afterTurn", "parallel: a turn ended"),
    loadSession: new BailHook<{ id: string }, StoredSession>("engine.loadSession", "bail: reopen a stored session"),
    latestSession: new BailHook<{ cwd: string }, string>("engine.latestSession", "bail: the latest session id for a directory"),
    claimSession: new BailHook<SessionClaimRequest, SessionClaim>(
      "engine.claimSession",
      "bail (fail-closed): claim a session for this process (one writer per session)",
      (tap, e) => ({ refused: `extension '${tap}' failed while claiming the session (${e instanceof Error ? e.message : String(e)})` }),
    ),
  });
}

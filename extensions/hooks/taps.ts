/**
 * Wiring the nine events to the engine's hooks.
 *
 * On authorizeToolCall (a fail-closed bail hook, first decision wins; its phases are the engine's
 * AUTHORIZE_STAGES) PreToolUse runs once, in the `hooks` phase, after plan mode and before the floor:
 *   deny     answers there (final: nothing reopens it).
 *   rewrite  (updatedInput) replaces ctx.call / ctx.claude there, BEFORE the floor, so the floor and the
 *            rules judge what will actually run.
 *   ask      is held until `hook-asks` (holdUntil): it lands after the floor and the rules, which speak first.
 *   rewrite without an ask: an allow with the new input held until `rewrites`, the last phase (the
 *            engine's default anyway, carrying the rewritten input).
 * A hook's ALLOW never answers: it cannot skip the floor, a deny rule or an ask rule (as in Claude Code,
 * where allow skips the prompt but not deny or ask rules).
 *
 * A sub-agent's session (info.parentId) fires the tool events and SubagentStop, never SessionStart,
 * SessionEnd, UserPromptSubmit or Stop (Claude Code's behaviour).
 *
 * While any hook source is loaded, the session's transcript (transcript.ts) is brought up to date before
 * every dispatch and after every step; a session without hooks writes nothing.
 */
import type {
  EngineService,
  Session,
  ToolCallContext,
  ToolResult,
  PromptInput,
  TurnContext,
  StopContext,
  StopDecision,
  AuthorizeResult,
  Decision,
} from "../engine/api.js";
import { isClaudeCliRoute } from "../engine/kit.js";
import { holdUntil } from "../../kernel/api.js";
import type { HookEvent, HookOutcomeRecord, HookSource } from "./api.js";
import { randomUUID } from "node:crypto";
import { dispatch, plan, longestTimeoutMs, type DispatchEnv, type DispatchResult } from "./dispatcher.js";
import { toolResponse, readOriginal, type Captured } from "./responses.js";
import type { Transcripts } from "./transcript.js";

export const EXT_ID = "hooks";
/**
 * The guide's "at most 8 Stop continuations per run", counted for these handlers only and recorded as a
 * (cap) outcome. The engine enforces its own bound for every engine.stop tap
 * (engine.max_stop_continuations, default 8); this stays as the inner bound for hook handlers.
 */
export const MAX_STOP_CONTINUATIONS = 8;
/**
 * A tap that runs handlers is bounded by their longest own `timeout` plus this margin (spawn, the env's
 * childProcess waterfall, the transcript write), so the kernel never cuts a tap before its handler's
 * own timer has fired and failed it open (a cut authorizeToolCall tap would deny).
 */
export const TAP_MARGIN_MS = 30_000;

interface SessionState {
  /** SessionStart context waiting for the first prompt */
  pending: string[];
  stopCount: number;
  /** the running prompt's id (prompt_id in every payload of that prompt) */
  promptId?: string;
}

export interface TapDeps {
  engine: EngineService;
  project: string;
  env: NodeJS.ProcessEnv;
  sources(): readonly HookSource[];
  /** bring the sources up to date before a dispatch (installed.json / trust.json changed) */
  refresh?(): Promise<void>;
  record(sessionId: string, r: HookOutcomeRecord): void;
  trace(r: HookOutcomeRecord): void;
  /** the user should see this (systemMessage, non-blocking stderr, a handler that timed out) */
  notice(sessionId: string, text: string, level?: "info" | "warn"): void;
  /** the per-session JSONL transcript behind transcript_path */
  transcripts?: Transcripts;
  /** a transcript write failed (hooks still run, without transcript_path) */
  warn(text: string): void;
}

function stateOf(session: Session): SessionState {
  let s = session.ext.get(EXT_ID) as SessionState | undefined;
  if (!s) {
    s = { pending: [], stopCount: 0 };
    session.ext.set(EXT_ID, s);
  }
  return s;
}

function permissionMode(session: Session): string {
  const m = session.info.overrides.permission_mode;
  return typeof m === "string" ? m : "default";
}

/**
 * Who decided, for the record the model and the ledger see: the deciding handler's tier, file and
 * command ("hooks (repo /p/.claude/settings.json: ./guard.sh)"). Full outcomes go to storage events.
 */
function decidedBy(res: DispatchResult, decisions: readonly string[]): string {
  const r = res.records.find((x) => decisions.includes(x.decision));
  return r ? `${EXT_ID} (${r.tier} ${r.source}: ${r.handler})` : EXT_ID;
}

/** Claude Code's common fields first; an event's own field of the same name wins. */
export function payloadFor(session: Session, event: HookEvent, fields: Record<string, unknown>, transcriptPath?: string): Record<string, unknown> {
  const promptId = (session.ext.get(EXT_ID) as SessionState | undefined)?.promptId;
  return {
    session_id: session.info.id,
    ...(transcriptPath ? { transcript_path: transcriptPath } : {}),
    ...(promptId ? { prompt_id: promptId } : {}),
    cwd: session.info.cwd,
    permission_mode: permissionMode(session),
    hook_event_name: event,
    ...fields,
  };
}

export function installTaps(deps: TapDeps): void {
  const { engine } = deps;
  const h = engine.hooks;
  const preToolContext = new Map<string, string[]>();
  const captured = new WeakMap<ToolCallContext, Captured>();
  // each open session's running prompt id: a sub-agent's session runs within its parent's prompt and takes its id
  const promptIds = new Map<string, string>();
  // a session writes a transcript only while some hook could read it
  const active = (): boolean => deps.transcripts !== undefined && deps.sources().some((s) => s.status === "loaded" && s.groups.length > 0);
  let warned = false;
  const syncTranscript = async (session: Session): Promise<string | undefined> => {
    if (!active()) return undefined;
    try {
      return await deps.transcripts!.sync(session);
    } catch (e) {
      if (!warned) deps.warn(`transcript not written (${(e as Error).message}); hooks run without transcript_path`);
      warned = true;
      return undefined;
    }
  };

  // a tap's bound: its events' longest handler timeout plus the margin (the kernel's own when none is loaded)
  const bound = (...events: HookEvent[]) => (): number | undefined => {
    const ms = longestTimeoutMs(deps.sources(), events);
    return ms > 0 ? ms + TAP_MARGIN_MS : undefined;
  };
  const run = async (
    session: Session,
    event: HookEvent,
    fields: Record<string, unknown>,
    opts: { matchValue?: string; tool?: string; toolUseId?: string; signal?: AbortSignal } = {},
  ): Promise<DispatchResult> => {
    await deps.refresh?.();
    const env: DispatchEnv = {
      project: deps.project,
      env: deps.env,
      baseEnv: async (ev) => {
        const spec = await h.childProcess.call({ command: "sh", args: [], cwd: deps.project, env: { ...deps.env }, purpose: `hook:${ev}` }, { sessionId: session.info.id, external: true });
        return spec.env;
      },
      wrap: async (plan, ev) => {
        const spec = await h.childProcess.call({ ...plan, purpose: `hook:${ev}` }, { sessionId: session.info.id, external: true });
        return { command: spec.command, args: spec.args, cwd: spec.cwd, env: spec.env };
      },
      record: (r) => deps.record(session.info.id, r),
      trace: deps.trace,
    };
    const transcriptPath = await syncTranscript(session);
    // on the claude CLI route claude runs the Claude-Code-shared sources itself: only ours fire here (no double firing)
    const sources = isClaudeCliRoute(session.info.model) ? deps.sources().filter((s) => !s.sharedWithClaudeCode) : deps.sources();
    const res = await dispatch(env, sources, event, payloadFor(session, event, fields, transcriptPath), opts);
    for (const m of res.systemMessages) deps.notice(session.info.id, m);
    // a handler cut at its own timeout decided nothing (hooks fail open): say which, from which file
    for (const r of res.records) {
      if (r.decision === "timeout") deps.notice(session.info.id, `${r.event}${r.tool ? ` (${r.tool})` : ""} handler ${JSON.stringify(r.handler.slice(0, 120))} from ${r.source} ${r.reason ?? "timed out"} and was killed; it decided nothing (hooks fail open)`, "warn");
    }
    return res;
  };

  // a sub-agent's session (info.parentId) fires the tool events and SubagentStop only, as in Claude Code:
  // no SessionStart, SessionEnd, UserPromptSubmit or Stop of its own
  h.sessionStart.tap({ name: EXT_ID, stage: "handlers", timeoutMs: bound("SessionStart") }, async ({ session, source }) => {
    if (session.info.parentId) return;
    const res = await run(session, "SessionStart", { source }, { matchValue: source });
    stateOf(session).pending.push(...res.context);
  });

  h.sessionEnd.tap({ name: EXT_ID, stage: "STAGE_ENRICH", timeoutMs: bound("SessionEnd") }, async ({ session, reason }) => {
    promptIds.delete(session.info.id);
    if (session.info.parentId) return;
    await run(session, "SessionEnd", { reason }, { matchValue: reason });
  });

  h.userPrompt.tap({ name: EXT_ID, stage: "gate", timeoutMs: bound("UserPromptSubmit") }, async (input: PromptInput, tc: TurnContext): Promise<PromptInput> => {
    const st = stateOf(tc.session);
    // one id per user prompt: every payload until the next prompt carries it, a sub-agent's (run within it) too
    const parent = tc.session.info.parentId;
    st.promptId = (parent !== undefined ? promptIds.get(parent) : undefined) ?? randomUUID();
    promptIds.set(tc.session.info.id, st.promptId);
    const context = [...input.context, ...st.pending.splice(0)];
    if (input.blocked || tc.session.info.parentId) return { ...input, context };
    const res = await run(tc.session, "UserPromptSubmit", { prompt: input.text }, { signal: tc.signal });
    if (res.decision === "block") return { ...input, context, blocked: { reason: res.reasons.join("\n") || "blocked by a UserPromptSubmit hook", by: decidedBy(res, ["block"]) } };
    return { ...input, context: [...context, ...res.context] };
  });

  // PreToolUse: a deny answers here, before the floor and the rules; an ask or a rewrite's allow lands in its phase
  h.authorizeToolCall.tap({ name: EXT_ID, stage: "hooks", timeoutMs: bound("PreToolUse") }, async (ctx: ToolCallContext) => {
    const res = await run(
      ctx.session,
      "PreToolUse",
      { tool_name: ctx.claude.toolName, tool_input: ctx.claude.toolInput, tool_use_id: ctx.call.id },
      { matchValue: ctx.claude.toolName, tool: ctx.claude.toolName, toolUseId: ctx.call.id, signal: ctx.signal },
    );
    if (res.ran === 0) return undefined;
    if (res.context.length > 0) preToolContext.set(ctx.call.id, res.context);
    if (res.decision === "deny") return { action: "deny", reason: res.reasons.join("\n") || "denied by a PreToolUse hook", by: decidedBy(res, ["deny"]) };
    if (res.updatedInput) {
      // merged in Claude Code's field names, then mapped back to ours
      const claudeInput = { ...ctx.claude.toolInput, ...res.updatedInput };
      const ours = ctx.tool?.fromClaudeInput ? ctx.tool.fromClaudeInput(claudeInput) : claudeInput;
      // a new call object: the assistant row keeps what the model asked for
      ctx.call = { ...ctx.call, input: ours };
      ctx.claude = { toolName: ctx.claude.toolName, toolInput: claudeInput };
    }
    if (res.decision === "ask") {
      const ask: AuthorizeResult = { action: "ask", reason: res.reasons.join("\n") || "a PreToolUse hook asks", by: decidedBy(res, ["ask"]), ...(res.updatedInput ? { updatedInput: ctx.claude.toolInput } : {}) };
      return holdUntil("hook-asks", ask);
    }
    if (res.updatedInput) return holdUntil("rewrites", { action: "allow", reason: "input rewritten by a PreToolUse hook", by: EXT_ID, source: "hook", updatedInput: ctx.claude.toolInput } satisfies AuthorizeResult);
    return undefined;
  });

  h.permissionDenied.tap({ name: EXT_ID, stage: "STAGE_AUDIT", timeoutMs: bound("PermissionDenied") }, async ({ ctx, decision }: { ctx: ToolCallContext; decision: Decision }) => {
    await run(
      ctx.session,
      "PermissionDenied",
      { tool_name: ctx.claude.toolName, tool_input: ctx.claude.toolInput, tool_use_id: ctx.call.id, reason: "reason" in decision ? decision.reason : undefined },
      { matchValue: ctx.claude.toolName, tool: ctx.claude.toolName, toolUseId: ctx.call.id },
    );
  });

  h.toolResult.tap({ name: EXT_ID, stage: "enrich", timeoutMs: bound("PostToolUse", "PostToolUseFailure") }, async (result: ToolResult, ctx: ToolCallContext): Promise<ToolResult> => {
    const event: HookEvent = result.isError ? "PostToolUseFailure" : "PostToolUse";
    const fields: Record<string, unknown> = { tool_name: ctx.claude.toolName, tool_input: ctx.claude.toolInput, tool_use_id: ctx.call.id };
    const cap = captured.get(ctx);
    if (result.isError) fields.error = result.content;
    else fields.tool_response = toolResponse(ctx.claude.toolName, result, ctx.claude.toolInput, cap);
    fields.duration_ms = Math.max(0, Math.round(cap?.ms ?? 0));
    const res = await run(ctx.session, event, fields, { matchValue: ctx.claude.toolName, tool: ctx.claude.toolName, toolUseId: ctx.call.id, signal: ctx.signal });
    const extra: string[] = [];
    if (res.decision === "block") extra.push(`${event} hook feedback:\n${res.reasons.join("\n")}`);
    const ctxLines = [...(preToolContext.get(ctx.call.id) ?? []), ...res.context];
    preToolContext.delete(ctx.call.id);
    if (ctxLines.length > 0) extra.push(`Additional context from hooks:\n${ctxLines.join("\n")}`);
    if (extra.length === 0) return result;
    return { ...result, content: `${result.content}\n\n${extra.join("\n\n")}` };
  });

  // duration_ms and the tool's own output (bash streams, paths) for tool_response; Edit / Write's file
  // before the change for originalFile, read only when a PostToolUse handler will see it
  h.executeTool.tap({ name: EXT_ID, stage: "innermost" }, (next) => async (ctx: ToolCallContext) => {
    if (!active()) return next(ctx);
    const tool = ctx.claude.toolName;
    const original = (tool === "Edit" || tool === "Write") && plan(deps.sources(), "PostToolUse", tool).length > 0 ? readOriginal(ctx.claude.toolInput.file_path) : undefined;
    const t0 = performance.now();
    try {
      const output = await next(ctx);
      captured.set(ctx, { ms: performance.now() - t0, output, ...(original !== undefined ? { original } : {}) });
      return output;
    } catch (e) {
      captured.set(ctx, { ms: performance.now() - t0 });
      throw e;
    }
  });

  // the final result (after every other toolResult tap) goes to the transcript before the next hook runs
  h.toolResult.tap({ name: EXT_ID, stage: "final" }, (result: ToolResult, ctx: ToolCallContext): ToolResult => {
    if (active()) deps.transcripts!.noteResult(ctx.session, result);
    return result;
  });

  h.afterStep.tap({ name: EXT_ID, stage: "STAGE_AUDIT" }, async (rec) => {
    await syncTranscript(rec.ctx.session);
  });

  h.stop.tap({ name: EXT_ID, stage: "STAGE_DEFAULT", timeoutMs: bound("Stop", "SubagentStop") }, async (sc: StopContext): Promise<StopDecision | undefined> => {
    const st = stateOf(sc.session);
    // a new run (one prompt) starts with no continuation granted yet
    if (sc.continuations === 0 && !sc.stopHookActive) st.stopCount = 0;
    const event: HookEvent = sc.session.info.parentId ? "SubagentStop" : "Stop";
    if (st.stopCount >= MAX_STOP_CONTINUATIONS) {
      const cap: HookOutcomeRecord = { event, source: "(hooks)", tier: "bundled", ecosystem: "oceancode", handler: "(cap)", matcher: "", decision: "none", reason: `continuation cap (${MAX_STOP_CONTINUATIONS}) reached; the run settles`, ms: 0 };
      deps.record(sc.session.info.id, cap);
      deps.trace(cap);
      return undefined;
    }
    const res = await run(sc.session, event, { stop_hook_active: sc.stopHookActive || st.stopCount > 0, last_assistant_message: sc.lastAssistantText }, { signal: sc.signal });
    if (res.decision !== "continue" || res.stop) return undefined;
    st.stopCount++;
    return { continue: true, reason: res.reasons.join("\n"), by: decidedBy(res, ["continue"]) };
  });
}

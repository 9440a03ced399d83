/**
 * One tool call: authorization (engine.authorizeToolCall, then engine.reviewDecision which may only make
 * it stricter, the question to the host on an ask, the permission hooks), then the run through
 * engine.executeTool, then engine.toolResult. The approval's provenance (a person's yes or an automatic
 * one) goes with every child the call spawns (SpawnContext), so the sandbox confines what no person approved.
 */
import type { Answer, AuthorizeResult, Decision, PermissionRecord, Question, QuestionPreview, QuestionReply, Session, SessionEvent, StepContext, ToolCall, ToolCallContext, ToolContext, ToolDefinition, ToolResult } from "./api.js";
import { type ToolApproval } from "./api.js";
import { isAutomaticApproval, strictness } from "./kit/approval.js";
import { toolAllowed, type EngineCore } from "./core.js";

/** How an allow that no one was asked about was approved. */
export function approvalOfAllow(d: Decision, ctx: ToolCallContext): ToolApproval {
  if (d.action === "allow" && d.source) return { kind: "automatic", source: d.source, by: d.by, ...(d.rule ? { rule: d.rule } : {}) };
  const hint = ctx.allowHint;
  if (hint) return { kind: "automatic", source: hint.source, by: d.by, ...(hint.rule ? { rule: hint.rule } : {}), ...(hint.exact ? { exact: true } : {}) };
  return { kind: "automatic", source: d.by === "default" ? "default" : "rule", by: d.by, ...(d.rule ? { rule: d.rule } : {}) };
}

/** A reviewer's answer counts only when it is stricter (or an ask that drops its automatic approval). */
function stricterOf(before: Decision, after: Decision | undefined): Decision {
  if (!after) return before;
  const a = strictness(after.action);
  const b = strictness(before.action);
  if (a > b) return after;
  if (a === b && after.action === "ask" && before.action === "ask" && after.autoApprove === false && before.autoApprove !== false) return after;
  return before;
}

/** `offered`: the tools the step's request offered (an unknown tool's error lists only those); absent: every tool the session may use. */
export async function runTool(core: EngineCore, session: Session, step: StepContext, call: ToolCall, emit: (e: SessionEvent) => void, signal: AbortSignal, offered?: readonly string[]): Promise<ToolResult> {
  const sid = session.info.id;
  // a child session's allow-list: a tool it was not offered does not exist for it
  const tool = toolAllowed(session, call.name) ? core.tools.get(call.name) : undefined;
  const cwd = session.info.cwd;
  const ctx: ToolCallContext = {
    ...step,
    call,
    tool,
    cwd,
    claude: { toolName: tool?.claudeName ?? call.name, toolInput: tool?.toClaudeInput ? tool.toClaudeInput(call.input, cwd) : call.input },
  };
  emit({ type: "tool_call_start", sessionId: sid, call });
  const finish = async (raw: ToolResult): Promise<ToolResult> => {
    const result = await core.hooks.toolResult.call(raw, ctx);
    core.opts.log.debug(`tool ${call.name} ${result.isError ? "failed" : "ok"}`, { tool: call.name, callId: call.id });
    emit({ type: "tool_call_end", sessionId: sid, call, result });
    return result;
  };
  if (!tool) {
    const names = offered ?? core.tools
      .list()
      .filter((t) => toolAllowed(session, t.name))
      .map((t) => t.name);
    const available = names.length ? `available: ${names.join(", ")}` : "no tools were offered in this request";
    return finish({ callId: call.id, name: call.name, content: `unknown tool '${call.name}'; ${available}`, isError: true });
  }
  if (signal.aborted) return finish({ callId: call.id, name: call.name, content: "interrupted before it ran", isError: true });

  const authorized: AuthorizeResult = (await core.hooks.authorizeToolCall.call(ctx)) ?? { action: "allow", by: "default" };
  // a tap may rewrite the input by returning updatedInput (Claude-shaped) or by replacing ctx.call
  let input = ctx.call.input;
  if (authorized.updatedInput) input = tool.fromClaudeInput ? tool.fromClaudeInput(authorized.updatedInput) : authorized.updatedInput;
  if (input !== call.input) ctx.claude = { toolName: ctx.claude.toolName, toolInput: tool.toClaudeInput ? tool.toClaudeInput(input, cwd) : input };
  const { updatedInput: _updated, ...plain } = authorized;
  let approval: ToolApproval = approvalOfAllow(plain, ctx);
  let decision: Decision = stricterOf(plain, await core.hooks.reviewDecision.call({ ctx, decision: plain, approval }));
  const decided = decision.action;
  let answeredBy: PermissionRecord["answeredBy"];
  if (decision.action === "ask") {
    const question: Question = {
      sessionId: sid,
      tool: call.name,
      subject: tool.ruleSubject ? tool.ruleSubject(input, cwd) : JSON.stringify(input),
      reason: decision.reason,
      rule: decision.rule,
      ...(decision.always ? { always: decision.always } : {}),
      ...(decision.autoApprove === false ? { autoApprove: false } : {}),
      ...questionPreview(tool, input, cwd),
    };
    let reply: QuestionReply = "reject";
    const handler = core.questionHandler();
    if (handler) {
      try {
        reply = await handler(question, signal);
      } catch {
        reply = "reject";
      }
    }
    // a form's values mean yes (a permission ask has no fields; a host answering one anyway said yes)
    const answer: Answer = typeof reply === "string" ? reply : reply.answer === "once" ? "once" : "reject";
    answeredBy = !handler ? "none" : isAutomaticApproval(reply) ? "automatic" : typeof reply === "object" && reply.answer === "reject" ? "host" : "person";
    approval = isAutomaticApproval(reply) ? { kind: "automatic", source: reply.source, by: reply.by, ...(decision.autoApprove === true ? { exact: true } : {}) } : { kind: "person", by: "user" };
    emit({ type: "question", sessionId: sid, question, answer });
    await core.hooks.permissionAnswered.call({ ctx, decision, answer });
    decision =
      typeof reply === "object" && reply.answer === "reject"
        ? { action: "deny", by: reply.by, reason: reply.reason }
        : answer === "reject"
          ? { action: "deny", by: "user", reason: core.questionHandler() ? `the user rejected this call (${decision.reason})` : `this call needs approval and no one can answer here (${decision.reason})` }
          : { action: "allow", by: "user", reason: answer };
  }
  // observers (metrics): one record per authorized call, with the final verdict
  await core.hooks.permissionDecided.call({ ctx, decided, final: decision.action === "deny" ? "deny" : "allow", ...(answeredBy ? { answeredBy } : {}) });
  if (decision.action === "deny") {
    const d: Decision = decision;
    await core.hooks.permissionDenied.call({ ctx, decision: d });
    return finish({ callId: call.id, name: call.name, content: `Permission denied by ${d.by}: ${d.reason}`, isError: true });
  }
  ctx.approval = approval;
  const toolCtx: ToolContext = {
    session: session.info,
    call,
    cwd,
    signal,
    state: toolState(session),
    prepareSpawn: (spec) =>
      core.hooks.childProcess.call(
        { ...spec, env: spec.env ?? { ...process.env } },
        { sessionId: sid, approval, tool: call.name, callId: call.id, ...(input.dangerouslyDisableSandbox === true ? { unconfined: true } : {}) },
      ),
  };
  let out;
  try {
    out = await core.hooks.executeTool.call(ctx, () => tool.run(input, toolCtx));
  } catch (e) {
    out = { content: `tool '${call.name}' failed: ${e instanceof Error ? e.message : String(e)}`, isError: true };
  }
  const truncated = out.metadata?.truncated as ToolResult["truncated"] | undefined;
  const images = out.images?.length ? { images: out.images } : {};
  const diff = out.diff && out.isError !== true ? { diff: out.diff } : {};
  return finish({ callId: call.id, name: call.name, content: out.content, isError: out.isError === true, ...images, ...(truncated ? { truncated } : {}), ...diff });
}

/** The tool's preview for a question (an edit's diff); a preview that throws is left out, the question still goes. */
function questionPreview(tool: ToolDefinition, input: Record<string, unknown>, cwd: string): { preview?: QuestionPreview } {
  if (!tool.preview) return {};
  try {
    const preview = tool.preview(input, cwd);
    return preview ? { preview } : {};
  } catch {
    return {};
  }
}

function toolState(session: Session): Map<string, unknown> {
  let s = session.ext.get("engine:toolState") as Map<string, unknown> | undefined;
  if (!s) {
    s = new Map();
    session.ext.set("engine:toolState", s);
  }
  return s;
}

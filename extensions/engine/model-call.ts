/**
 * One model request of a step: the window (engine.contextBuild), the request (engine.modelRequest), the
 * provider's stream, retries with backoff, the prompt-too-long retry, and the assistant row it stores.
 */
import os from "node:os";
import { type AssistantRow, type ModelRequest, type NoteRow, type Row, type Session, type SessionEvent, type StepContext, type ToolCall, type ToolResult, type ToolRow, type TurnEndReason, type Usage, type ModelCallRecord } from "./api.js";
import { emptyUsage } from "./kit/rows.js";
import { providerErrorCode, providerErrorDetails } from "./kit/provider.js";
import { pushRow, toolAllowed, type EngineCore } from "./core.js";
import { outputTokenCap, type EngineOptions } from "./options.js";
import { isRetryable, backoffMs, sleep } from "./retry.js";

/** One model request with retries; the too-long refusal gets the promptTooLong hook and one retry. */
export async function runModel(
  core: EngineCore,
  session: Session,
  ctx: StepContext,
  emit: (e: SessionEvent) => void,
): Promise<
  | { kind: "ok"; assistant: AssistantRow; usage: Usage; stopReason: string; offered: string[] }
  | { kind: "error"; reason: TurnEndReason; message: string }
> {
  const sid = session.info.id;
  let tooLongRetried = false;
  let attempt = 0;
  for (;;) {
    const request = withoutMissingFeatures(await buildRequest(core, session, ctx), session, (text) => emit({ type: "notice", sessionId: sid, level: "info", text }));
    const provider = await core.provider(ctx.model);
    let text = "";
    let deltas = 0;
    const calls: ToolCall[] = [];
    let usage: Usage = emptyUsage();
    let reportedCost: number | undefined;
    // tools the provider's backend ran itself (tool_performed), each with the text streamed before it
    const performed: Array<{ text: string; call: ToolCall; result: ToolResult }> = [];
    let performedText = 0;
    let stopReason = "end_turn";
    const startedAt = Date.now();
    let firstTokenAt: number | undefined;
    const observe = (outcome: ModelCallRecord["outcome"], extra: Partial<ModelCallRecord> = {}) =>
      // observers only: a slow or failing tap never holds the step (the hook fails open)
      core.hooks.afterModelCall.call({ ctx, attempt, provider: ctx.model.provider, model: ctx.model.id, startedAt, firstTokenAt, endedAt: Date.now(), outcome, request, text, ...extra });
    try {
      for await (const ev of provider.stream(request, ctx.signal)) {
        if (firstTokenAt === undefined && (ev.type === "text_delta" || ev.type === "tool_call")) firstTokenAt = Date.now();
        if (ev.type === "text_delta") {
          text += ev.text;
          deltas += 1;
          emit({ type: "text_delta", sessionId: sid, text: ev.text });
        } else if (ev.type === "tool_call") calls.push(ev.call);
        else if (ev.type === "tool_performed") {
          performed.push({ text: text.slice(performedText), call: ev.call, result: ev.result });
          performedText = text.length;
          emit({ type: "tool_call_start", sessionId: sid, call: ev.call });
          emit({ type: "tool_call_end", sessionId: sid, call: ev.call, result: ev.result });
        } else if (ev.type === "usage") {
          usage = ev.usage;
          reportedCost = ev.costUsd;
        }
        else if (ev.type === "done") stopReason = ev.stopReason;
      }
    } catch (e) {
      const code = providerErrorCode(e);
      if (ctx.signal.aborted || code === "aborted") {
        // what the user saw is kept: the streamed text is stored as the step's (cut off) answer;
        // tool calls that had not run are dropped
        if (text) pushRow<AssistantRow>(session, { role: "assistant", text, toolCalls: [], model: ctx.model.id, turn: ctx.turn, step: ctx.step, at: Date.now() });
        await observe("aborted", { errorCode: "aborted" });
        return { kind: "error", reason: "aborted", message: "interrupted" };
      }
      // the text streamed so far is not stored: hosts take it back before the retry notice or the error
      const discard = (why: "retry" | "error") => {
        if (deltas === 0) return;
        emit({ type: "discard", sessionId: sid, turn: ctx.turn, step: ctx.step, reason: why, cause: code ?? "other", chars: [...text].length, deltas });
      };
      if (code === "prompt_too_long" && !tooLongRetried) {
        tooLongRetried = true;
        discard("retry");
        await observe("retry", { errorCode: code });
        emit({ type: "notice", sessionId: sid, level: "warn", text: "the provider refused the request as too long; cutting the window and retrying once" });
        await core.hooks.promptTooLong.call(ctx);
        continue;
      }
      const d = providerErrorDetails(e);
      const described = code ? `${code}${d.status ? ` (${d.status})` : ""}: ${d.message}` : e instanceof Error ? e.message : String(e);
      if (isRetryable(e) && attempt < core.opts.maxRetries) {
        const wait = backoffMs(e, attempt);
        await observe("retry", { errorCode: code ?? "other" });
        attempt += 1;
        discard("retry");
        emit({ type: "notice", sessionId: sid, level: "warn", text: `${described}; retry ${attempt}/${core.opts.maxRetries} in ${Math.round(wait)} ms` });
        try {
          await sleep(wait, ctx.signal);
        } catch {
          return { kind: "error", reason: "aborted", message: "interrupted" };
        }
        continue;
      }
      const msg = described;
      discard("error");
      await observe("error", { errorCode: code ?? "other" });
      return { kind: "error", reason: "error", message: msg };
    }
    // performed tools are recorded as they happened (call, then result), and never run: the step's own
    // assistant row carries only the text after the last of them
    for (const p of performed) {
      pushRow<AssistantRow>(session, { role: "assistant", text: p.text, toolCalls: [p.call], model: ctx.model.id, turn: ctx.turn, step: ctx.step, at: Date.now() });
      pushRow<ToolRow>(session, { role: "tool", results: [p.result], turn: ctx.turn, step: ctx.step, at: Date.now() });
    }
    const assistant = pushRow<AssistantRow>(session, {
      role: "assistant",
      text: performed.length ? text.slice(performedText) : text,
      toolCalls: calls,
      usage,
      model: ctx.model.id,
      turn: ctx.turn,
      step: ctx.step,
      at: Date.now(),
    });
    const t = session.totals;
    t.usage = {
      inputTokens: t.usage.inputTokens + usage.inputTokens,
      outputTokens: t.usage.outputTokens + usage.outputTokens,
      cacheReadTokens: t.usage.cacheReadTokens + usage.cacheReadTokens,
      cacheWriteTokens: t.usage.cacheWriteTokens + usage.cacheWriteTokens,
    };
    const costUsd = reportedCost ?? core.models.cost(ctx.model, usage);
    t.costUsd += costUsd;
    await observe("ok", { usage, costUsd, stopReason });
    // the tools this request offered: an unknown-tool error lists these, not every registered one
    return { kind: "ok", assistant, usage, stopReason, offered: request.tools.map((t) => t.name) };
  }
}

/** OC_MAX_OUTPUT_TOKENS warnings already given (one per bad value per process) */
const warnedCaps = new Set<string>();

async function buildRequest(core: EngineCore, session: Session, ctx: StepContext): Promise<ModelRequest> {
  const window = await core.hooks.contextBuild.call({ rows: session.rows, preface: [], system: systemPrompt(core.opts, session) }, ctx);
  const rows: Row[] = window.preface.length
    ? [{ role: "note", text: window.preface.join("\n"), seq: 0, turn: ctx.turn, step: 0, at: 0 } as NoteRow, ...window.rows]
    : window.rows;
  core.tools.checkDeclared();
  const outCap = outputTokenCap(core.opts.env.OC_MAX_OUTPUT_TOKENS, ctx.model.maxOutputTokens, (m) => {
    if (warnedCaps.has(m)) return;
    warnedCaps.add(m);
    core.opts.log.warn(m);
  });
  return core.hooks.modelRequest.call(
    {
      model: ctx.model,
      system: window.system,
      rows,
      tools: core.tools
        .list()
        .filter((t) => toolAllowed(session, t.name))
        .map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema })),
      maxOutputTokens: outCap,
      extra: {},
      sessionId: session.info.id,
      sessionStep: ctx.sessionStep,
    },
    ctx,
  );
}

/** (session, model, feature) notices already given: a missing feature is said once, never per step */
const saidMissing = new WeakMap<Session, Set<string>>();

/**
 * A model the catalogue says takes no tools (`tools: false` in its entry) is offered none, said once per
 * session and model. (Images are not judged here: an entry that does not say is "images: no" in the
 * listing, and the providers that cannot take them say so themselves: the OpenAI-compatible presets.)
 */
function withoutMissingFeatures(req: ModelRequest, session: Session, say: (text: string) => void): ModelRequest {
  const m = req.model;
  const once = (feature: string, text: string) => {
    const said = saidMissing.get(session) ?? new Set<string>();
    saidMissing.set(session, said);
    const key = `${m.id}:${feature}`;
    if (said.has(key)) return;
    said.add(key);
    say(text);
  };
  let out = req;
  if (m.tools === false && req.tools.length) {
    once("tools", `${m.id} takes no tools (the model catalogue says so): it is asked without them, so it can only answer in text`);
    out = { ...out, tools: [] };
  }
  return out;
}

function systemPrompt(opts: EngineOptions, session: Session): string[] {
  const base = [
    // a child session's profile (an agent's body) replaces the generic opening
    session.profile?.system ??
      "You are oceancode, a coding agent working in the user's project. Use the tools to read, search, edit and run code; keep answers short and concrete.",
    `Working directory: ${session.info.cwd}\nPlatform: ${os.platform()}`,
  ];
  if (opts.systemPromptExtra) base.push(opts.systemPromptExtra);
  return base;
}

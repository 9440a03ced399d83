/**
 * One user prompt run to the end of its turn: engine.userPrompt, then the step loop (model call, tool
 * calls, engine.afterStep), the step cap's fresh turns, engine.stop continuations, and engine.afterTurn.
 */
import { INTERRUPTED_NOTE, NO_PROGRESS_TURNS, WORKOFF_HARD_CAP, type NoteRow, type PlanProgress, type PromptOptions, type Row, type Session, type SessionEvent, type StepContext, type StoppedBy, type ToolResult, type ToolRow, type TurnContext, type TurnEndReason, type TurnResult, type UserRow } from "./api.js";
import { pushRow, type EngineCore } from "./core.js";
import { DEFAULT_MAX_STOP_CONTINUATIONS } from "./options.js";
import { runModel } from "./model-call.js";
import { runTool } from "./tool-call.js";

function approxTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

export async function runPrompt(core: EngineCore, session: Session, text: string, o: PromptOptions = {}): Promise<TurnResult> {
  const emit = (e: SessionEvent) => {
    o.onEvent?.(e);
    for (const l of core.listeners) l(e);
  };
  const sid = session.info.id;
  const notice = (level: "info" | "warn" | "error", t: string) => emit({ type: "notice", sessionId: sid, level, text: t });
  // a prompt that could never reach the model (no provider, no key) is refused before anything is recorded
  const unready = await core.unready(session.info.model);
  if (unready) {
    notice("error", unready);
    return { turn: session.totals.turns, reason: "error", text: "", error: unready };
  }
  if (o.onEvent) core.noticeSinks.set(sid, o.onEvent);
  const controller = new AbortController();
  const onAbort = () => controller.abort();
  o.signal?.addEventListener("abort", onAbort, { once: true });
  if (o.signal?.aborted) controller.abort();
  const signal = controller.signal;
  session.ext.set("engine:busy", true);
  session.lastActive = Date.now();
  let turn = session.totals.turns + 1;
  let finalText = "";
  let reason: TurnEndReason = "end_turn";
  let error: string | undefined;
  let stoppedBy: StoppedBy | undefined;
  let stepInTurn = 0;
  const startedAt = Date.now();
  try {
    const maxSteps = core.maxSteps(session);
    // a child (sub-agent) session simply stops at its own cap: no fresh turn (rule 15: the engine's bound)
    const childCap = session.info.parentId !== undefined ? (session.profile?.maxSteps ?? core.maxSubagentSteps()) : undefined;
    const maxContinuations = core.opts.maxStopContinuations ?? DEFAULT_MAX_STOP_CONTINUATIONS;
    session.totals.turns = turn;
    core.opts.logContext?.enterContext({ session: sid, turn, step: 0 });
    emit({ type: "turn_start", sessionId: sid, turn, text });
    const turnCtx: TurnContext = { session, turn, signal };
    const input = await core.hooks.userPrompt.call({ text, context: [...(o.context ?? [])] }, turnCtx);
    if (input.blocked) {
      notice("warn", `prompt blocked by ${input.blocked.by}: ${input.blocked.reason}`);
      reason = "blocked";
      return { turn, reason, text: "", error: input.blocked.reason };
    }
    pushRow<UserRow>(session, { role: "user", text: input.text, context: input.context.length ? input.context : undefined, ...(o.images?.length ? { images: o.images } : {}), turn, step: 0, at: Date.now() });
    // stored before the first wait (the model request): a kill from here on never loses the prompt
    await core.hooks.checkpoint.call({ session, turn, step: 0, why: "prompt" });
    let continuations = 0;
    let stopHookActive = false;
    // the work-off of a plan (continue answers with progress): the no-progress guard and the hard cap
    let workOffs = 0;
    let lastProgress: PlanProgress | undefined;
    let stalled = 0;
    for (;;) {
      if (signal.aborted) {
        reason = "aborted";
        break;
      }
      if (childCap !== undefined && stepInTurn >= childCap) {
        pushRow<NoteRow>(session, { role: "note", text: `[sub-agent step cap ${childCap} reached: the sub-agent stops here]`, turn, step: stepInTurn, at: Date.now() });
        reason = "step_cap";
        stoppedBy = "steps";
        break;
      }
      // a bound (spend, clock) may stop the run here, at the step boundary: a clean, step-limited stop
      const bound = await core.hooks.bound.call({ ...turnCtx, turn, step: stepInTurn + 1, startedAt }).catch(() => undefined);
      if (bound) {
        pushRow<NoteRow>(session, { role: "note", text: `[stopped by ${bound.stoppedBy} bound: ${bound.reason}]`, turn, step: stepInTurn, at: Date.now() });
        notice("info", `stopped: ${bound.reason}`);
        reason = "step_cap";
        stoppedBy = bound.stoppedBy;
        break;
      }
      if (stepInTurn >= maxSteps) {
        // the cap is a boundary, not a stop: close this turn and carry on in a fresh one
        await core.hooks.afterTurn.call({ session, turn, reason: "step_cap", rows: [], stoppedBy: "steps" });
        emit({ type: "turn_end", sessionId: sid, turn, reason: "step_cap", text: finalText, stopped_by: "steps" });
        turn += 1;
        session.totals.turns = turn;
        stepInTurn = 0;
        pushRow<NoteRow>(session, { role: "note", text: `[step cap ${maxSteps} reached: continuing the same work in a fresh turn]`, turn, step: 0, at: Date.now() });
        emit({ type: "turn_start", sessionId: sid, turn, text: "(continued)" });
      }
      stepInTurn += 1;
      session.totals.steps += 1;
      const stepStart = performance.now();
      const model = await core.modelInfo(session.info.model);
      for (const n of core.pendingNotices.splice(0)) notice("warn", n);
      const stepCtx: StepContext = { ...turnCtx, turn, step: stepInTurn, sessionStep: session.totals.steps, model };
      // lines logged from here on in this step (the engine's, tools', MCP's, hooks', storage's) carry where they were written
      core.opts.logContext?.enterContext({ session: sid, turn, step: stepInTurn });
      const outcome = await runModel(core, session, stepCtx, emit);
      if (outcome.kind === "error") {
        reason = outcome.reason;
        error = outcome.message;
        if (outcome.reason === "error") notice("error", outcome.message);
        break;
      }
      const { assistant, usage, stopReason, offered } = outcome;
      finalText = assistant.text || finalText;
      let toolRow: ToolRow | undefined;
      if (assistant.toolCalls.length > 0) {
        // the step so far is stored before its tools run (a hung MCP call, a long bash may be killed)
        await core.hooks.checkpoint.call({ session, turn, step: stepInTurn, why: "tools" });
        const results: ToolResult[] = [];
        for (const call of assistant.toolCalls) results.push(await runTool(core, session, stepCtx, call, emit, signal, offered));
        toolRow = pushRow<ToolRow>(session, { role: "tool", results, turn, step: stepInTurn, at: Date.now() });
      }
      const added = approxTokens(assistant.text) + (toolRow ? toolRow.results.reduce((n, r) => n + approxTokens(r.content), 0) : 0);
      const measured = usage.inputTokens + usage.cacheReadTokens + usage.cacheWriteTokens + usage.outputTokens + added - approxTokens(assistant.text);
      const gaugeTokens = await core.hooks.gauge.call(measured, { ctx: stepCtx, ...(toolRow ? { tools: toolRow } : {}) });
      const durationMs = performance.now() - stepStart;
      await core.hooks.afterStep.call({ ctx: stepCtx, assistant, tools: toolRow, usage, gaugeTokens, durationMs });
      core.opts.log.debug(`step done: ${assistant.toolCalls.length} tool call(s), ${Math.round(durationMs)} ms`, { model: model.id, stopReason });
      emit({ type: "step_end", sessionId: sid, turn, step: stepInTurn, usage, gaugeTokens });
      emit({ type: "usage", sessionId: sid, totals: session.totals });
      if (signal.aborted) {
        reason = "aborted";
        break;
      }
      if (assistant.toolCalls.length > 0) continue;
      if (stopReason === "max_tokens") {
        reason = "max_tokens";
        break;
      }
      const d = await core.hooks.stop.call({ ...turnCtx, turn, lastAssistantText: assistant.text, continuations, stopHookActive });
      if (d && d.continue && d.progress) {
        const p = d.progress;
        stalled = lastProgress && lastProgress.open === p.open && lastProgress.completed === p.completed ? stalled + 1 : 0;
        lastProgress = { open: p.open, completed: p.completed };
        if (stalled >= NO_PROGRESS_TURNS || workOffs >= WORKOFF_HARD_CAP) {
          const why = stalled >= NO_PROGRESS_TURNS ? `${NO_PROGRESS_TURNS} continued turns changed neither the open (${p.open}) nor the completed (${p.completed}) count` : `${WORKOFF_HARD_CAP} work-off continuations in one prompt`;
          notice("warn", `Run stopped: ${why} (no-progress guard)`);
          pushRow<NoteRow>(session, { role: "note", text: `[run stopped by the no-progress guard: ${why}]`, turn, step: stepInTurn, at: Date.now() });
          reason = "end_turn";
          break;
        }
        workOffs += 1;
        stopHookActive = true;
        notice("info", `continuing: ${d.by}: ${d.reason}`);
        pushRow<NoteRow>(session, { role: "note", text: `[continued by ${d.by}] ${d.reason}`, turn, step: stepInTurn, at: Date.now() });
        continue;
      }
      if (d && d.continue) {
        if (continuations >= maxContinuations) {
          // the engine's own bound (no tap can loop a prompt forever): counted per prompt, across the
          // fresh turns a step cap opens; an answer that does not continue (an exit-2 Deny) never counts
          const why = `[stop continuation cap ${maxContinuations} reached: ${d.by} asked to continue (${d.reason}); the turn settles]`;
          notice("warn", `stop continuation cap (${maxContinuations}) reached: ${d.by} asked to continue again; the turn settles (engine.max_stop_continuations)`);
          pushRow<NoteRow>(session, { role: "note", text: why, turn, step: stepInTurn, at: Date.now() });
          reason = "end_turn";
          break;
        }
        continuations += 1;
        stopHookActive = true;
        notice("info", `continuing: ${d.by}: ${d.reason}`);
        // labelled, so the transcript (and the model) show who continued the turn
        pushRow<NoteRow>(session, { role: "note", text: `[continued by ${d.by}] ${d.reason}`, turn, step: stepInTurn, at: Date.now() });
        continue;
      }
      reason = "end_turn";
      break;
    }
    return { turn, reason, text: finalText, error, ...(stoppedBy ? { stoppedBy } : {}) };
  } catch (e) {
    reason = signal.aborted ? "aborted" : "error";
    error = e instanceof Error ? e.message : String(e);
    if (reason === "error") notice("error", error);
    return { turn, reason, text: finalText, error };
  } finally {
    o.signal?.removeEventListener("abort", onAbort);
    core.noticeSinks.delete(sid);
    session.ext.delete("engine:busy");
    session.lastActive = Date.now();
    if (reason === "aborted" && session.rows[session.rows.length - 1]?.turn === turn) {
      // the marker where the turn stopped (in the step it stopped in): stored, shown in the ledger and
      // exports, read by the model next turn
      pushRow<NoteRow>(session, { role: "note", kind: "interrupted", text: INTERRUPTED_NOTE, turn, step: stepInTurn, at: Date.now() });
    }
    if (reason !== "blocked") {
      const turnRows: Row[] = [];
      for (let i = session.rows.length - 1; i >= 0 && session.rows[i]!.turn === turn; i--) turnRows.unshift(session.rows[i]!);
      await core.hooks.afterTurn.call({ session, turn, reason, rows: turnRows, ...(stoppedBy ? { stoppedBy } : {}) }).catch(() => undefined);
    }
    emit({ type: "turn_end", sessionId: sid, turn, reason, text: finalText, ...(stoppedBy ? { stopped_by: stoppedBy } : {}) });
  }
}

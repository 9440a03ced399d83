/**
 * The span tree of a session's work: oceancode.turn (root per prompt) > oceancode.step > oceancode.model_call
 * / oceancode.tool_call, and oceancode.hook spans for the hook calls made during a turn. Spans are keyed by
 * session id, turn and step from the engine's hook payloads (no context propagation needed: a serve with
 * many sessions keeps them apart). Content (prompt, model text, tool input/output) only with logContent;
 * every string attribute goes through the shared redactor. Loaded only when telemetry is on.
 */
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Attributes, type Context, type Span, type Tracer } from "@opentelemetry/api";
import type { HookCallObserver } from "../../kernel/api.js";
import type { ModelCallRecord, Session, StepContext, StepRecord, ToolCallContext, ToolOutput, TurnRecord } from "../engine/api.js";
import { SPAN_NAMES } from "./api.js";

interface TurnState {
  span: Span;
  steps: Map<number, Span>;
  /** the highest step whose span ended: no span is opened again for it */
  endedStep: number;
}

/** Where a hook payload belongs: the session, and the turn and step when it says. */
interface Where {
  sid: string;
  /** a sub-agent's session: its parent's id */
  parentSid?: string;
  turn?: number;
  step?: number;
  /** the payload is a StepContext (a step has begun): its span may be opened */
  stepCtx?: StepContext;
}

type Redact = (text: string) => string;
/** sessions whose last ended turn is remembered (a long-lived serve forgets the oldest) */
const ENDED_KEPT = 10_000;

const isObj = (x: unknown): x is Record<string, unknown> => typeof x === "object" && x !== null;

function sessionInfo(x: Record<string, unknown>): { id: string; parentId?: string } | undefined {
  const s = x.session;
  if (!isObj(s) || !isObj(s.info) || typeof s.info.id !== "string") return undefined;
  return { id: s.info.id, ...(typeof s.info.parentId === "string" ? { parentId: s.info.parentId } : {}) };
}

/** The session, turn and step a hook's arguments name (a payload itself, its `ctx`, or its `ctx.ctx`). */
export function whereOf(args: readonly unknown[]): Where | undefined {
  for (const a of args) {
    if (!isObj(a)) continue;
    for (const c of [a, a.ctx, isObj(a.ctx) ? a.ctx.ctx : undefined]) {
      if (!isObj(c)) continue;
      const info = sessionInfo(c);
      if (info === undefined) continue;
      const w: Where = { sid: info.id, ...(info.parentId !== undefined ? { parentSid: info.parentId } : {}) };
      if (typeof c.turn === "number") w.turn = c.turn;
      if (typeof c.step === "number") w.step = c.step;
      if (w.step !== undefined && isObj(c.model) && typeof c.sessionStep === "number") w.stepCtx = c as unknown as StepContext;
      return w;
    }
  }
  return undefined;
}

export class SpanTracker {
  private readonly turns = new Map<string, TurnState>();
  /** per session: the highest turn whose span ended */
  private readonly endedTurn = new Map<string, number>();
  /** per session: the tool call running now (a sub-agent's turns are its children: one trace) */
  private readonly runningTool = new Map<string, Span>();

  constructor(
    private readonly tracer: Tracer,
    private readonly redact: () => Redact,
    private readonly logContent: boolean,
  ) {}

  private put(span: Span, attrs: Record<string, string | number | boolean | string[] | undefined>): void {
    const r = this.redact();
    const out: Attributes = {};
    for (const [k, v] of Object.entries(attrs)) {
      if (v === undefined) continue;
      out[k] = typeof v === "string" ? r(v) : Array.isArray(v) ? v.map(r) : v;
    }
    span.setAttributes(out);
  }

  private fail(span: Span, error: unknown): void {
    const message = this.redact()(error instanceof Error ? error.message : String(error));
    span.setStatus({ code: SpanStatusCode.ERROR, message });
  }

  private key(sid: string, turn: number): string {
    return `${sid}\u0000${turn}`;
  }

  /** The turn's state; opened (a root span) at first sight unless `open` is false or it already ended. */
  turn(sid: string, turn: number, open = true, parentSid?: string): TurnState | undefined {
    const k = this.key(sid, turn);
    const have = this.turns.get(k);
    if (have || !open || turn <= (this.endedTurn.get(sid) ?? 0)) return have;
    const caller = parentSid !== undefined ? this.runningTool.get(parentSid) : undefined;
    const attributes = { "session.id": sid, "oceancode.turn": turn, ...(parentSid !== undefined ? { "oceancode.parent_session.id": parentSid } : {}) };
    const span = this.tracer.startSpan(SPAN_NAMES.turn, { kind: SpanKind.INTERNAL, attributes }, this.under(caller));
    const ts: TurnState = { span, steps: new Map(), endedStep: 0 };
    this.turns.set(k, ts);
    return ts;
  }

  /** The step's span, opened (under its turn) at first sight of its StepContext. */
  step(ctx: StepContext): Span | undefined {
    const ts = this.turn(ctx.session.info.id, ctx.turn, true, ctx.session.info.parentId);
    if (!ts) return undefined;
    const have = ts.steps.get(ctx.step);
    if (have || ctx.step <= ts.endedStep) return have;
    const span = this.tracer.startSpan(SPAN_NAMES.step, { attributes: { "session.id": ctx.session.info.id, "oceancode.turn": ctx.turn, "oceancode.step": ctx.step, "oceancode.session_step": ctx.sessionStep } }, trace.setSpan(ROOT_CONTEXT, ts.span));
    this.put(span, { "gen_ai.request.model": ctx.model.id, "gen_ai.system": ctx.model.provider });
    ts.steps.set(ctx.step, span);
    return span;
  }

  private under(span: Span | undefined): Context {
    return span ? trace.setSpan(ROOT_CONTEXT, span) : ROOT_CONTEXT;
  }

  /** The only open turn of a session (or of the process, `sid` absent), for payloads that name no turn. */
  private only(sid?: string): TurnState | undefined {
    let hit: TurnState | undefined;
    for (const [k, ts] of this.turns) {
      if (sid !== undefined && !k.startsWith(`${sid}\u0000`)) continue;
      if (hit) return undefined;
      hit = ts;
    }
    return hit;
  }

  /** engine.userPrompt: the prompt's size (or, with content, its text). */
  prompt(session: Session, turn: number, text: string): void {
    const ts = this.turn(session.info.id, turn, true, session.info.parentId);
    if (!ts) return;
    this.put(ts.span, { "oceancode.prompt.size": text.length, "oceancode.prompt": this.logContent ? text : undefined });
  }

  /** engine.afterModelCall: one span per provider attempt, with its own start and end. */
  modelCall(rec: ModelCallRecord): void {
    const parent = this.step(rec.ctx);
    const span = this.tracer.startSpan(SPAN_NAMES.modelCall, { kind: SpanKind.CLIENT, startTime: rec.startedAt }, this.under(parent));
    const lastUser = [...rec.request.rows].reverse().find((r) => r.role === "user") as { text?: string } | undefined;
    this.put(span, {
      "gen_ai.operation.name": "chat",
      "gen_ai.system": rec.provider,
      "gen_ai.request.model": rec.model,
      "gen_ai.request.max_tokens": rec.request.maxOutputTokens,
      "gen_ai.usage.input_tokens": rec.usage?.inputTokens,
      "gen_ai.usage.output_tokens": rec.usage?.outputTokens,
      "oceancode.usage.cache_read_tokens": rec.usage?.cacheReadTokens,
      "oceancode.usage.cache_write_tokens": rec.usage?.cacheWriteTokens,
      "gen_ai.response.finish_reasons": rec.stopReason !== undefined ? [rec.stopReason] : undefined,
      "oceancode.attempt": rec.attempt,
      "oceancode.outcome": rec.outcome,
      "error.type": rec.errorCode,
      "oceancode.cost_usd": rec.costUsd,
      "oceancode.time_to_first_token_ms": rec.firstTokenAt !== undefined ? rec.firstTokenAt - rec.startedAt : undefined,
      "oceancode.request.rows": rec.request.rows.length,
      "oceancode.response.size": rec.text.length,
      "oceancode.request.prompt": this.logContent ? lastUser?.text : undefined,
      "oceancode.response.text": this.logContent ? rec.text : undefined,
    });
    if (rec.outcome === "error" || rec.outcome === "retry") this.fail(span, rec.errorCode ?? rec.outcome);
    span.end(rec.endedAt);
  }

  /** engine.executeTool (outermost wrap): the tool run, its outcome and how it was approved. */
  async toolCall(ctx: ToolCallContext, next: (c: ToolCallContext) => Promise<ToolOutput>): Promise<ToolOutput> {
    const span = this.tracer.startSpan(SPAN_NAMES.toolCall, {}, this.under(this.step(ctx)));
    const a = ctx.approval;
    const input = this.logContent ? JSON.stringify(ctx.call.input) : undefined;
    this.put(span, {
      "gen_ai.operation.name": "execute_tool",
      "gen_ai.tool.name": ctx.call.name,
      "gen_ai.tool.call.id": ctx.call.id,
      "oceancode.tool.decision_source": a ? (a.kind === "person" ? "person" : a.source) : undefined,
      "oceancode.tool.decision_by": a?.by,
      "oceancode.tool.input": input,
      "oceancode.tool.input_size": input?.length ?? safeSize(ctx.call.input),
    });
    const sid = ctx.session.info.id;
    const outer = this.runningTool.get(sid);
    this.runningTool.set(sid, span);
    try {
      const out = await next(ctx);
      this.put(span, { "oceancode.tool.outcome": out.isError ? "error" : "ok", "oceancode.tool.output_size": out.content.length, "oceancode.tool.output": this.logContent ? out.content : undefined });
      if (out.isError) this.fail(span, "the tool reported an error");
      return out;
    } catch (e) {
      this.put(span, { "oceancode.tool.outcome": "threw" });
      this.fail(span, e);
      throw e;
    } finally {
      if (outer) this.runningTool.set(sid, outer);
      else this.runningTool.delete(sid);
      span.end();
    }
  }

  /** engine.afterStep: the step's usage; its span ends. */
  stepEnded(rec: StepRecord): void {
    const ts = this.turn(rec.ctx.session.info.id, rec.ctx.turn, false);
    const span = ts?.steps.get(rec.ctx.step);
    if (!ts || !span) return;
    this.put(span, {
      "gen_ai.usage.input_tokens": rec.usage.inputTokens,
      "gen_ai.usage.output_tokens": rec.usage.outputTokens,
      "oceancode.usage.cache_read_tokens": rec.usage.cacheReadTokens,
      "oceancode.usage.cache_write_tokens": rec.usage.cacheWriteTokens,
      "oceancode.gauge_tokens": rec.gaugeTokens,
      "oceancode.tool_calls": rec.assistant.toolCalls.length,
    });
    span.end();
    ts.steps.delete(rec.ctx.step);
    ts.endedStep = Math.max(ts.endedStep, rec.ctx.step);
  }

  /** engine.afterTurn: reason and stopped_by; the turn's span (and any step left open) ends. */
  turnEnded(rec: TurnRecord): void {
    const sid = rec.session.info.id;
    const ts = this.turn(sid, rec.turn, false);
    const ended = Math.max(this.endedTurn.get(sid) ?? 0, rec.turn);
    this.endedTurn.delete(sid); // re-inserted last: the oldest sessions are first in line to be forgotten
    this.endedTurn.set(sid, ended);
    if (this.endedTurn.size > ENDED_KEPT) this.endedTurn.delete(this.endedTurn.keys().next().value!);
    if (!ts) return;
    this.close(ts, rec.reason, rec.stoppedBy);
    this.turns.delete(this.key(sid, rec.turn));
  }

  private close(ts: TurnState, reason: string, stoppedBy?: string): void {
    for (const s of ts.steps.values()) {
      if (reason === "error") s.setStatus({ code: SpanStatusCode.ERROR, message: "the turn ended in an error" });
      s.end();
    }
    ts.steps.clear();
    this.put(ts.span, { "oceancode.turn.reason": reason, "oceancode.turn.stopped_by": stoppedBy });
    if (reason === "error") ts.span.setStatus({ code: SpanStatusCode.ERROR, message: "the turn ended in an error" });
    ts.span.end();
  }

  /** A session closed, or the process is going: every turn still open ends (reason as given). */
  closeAll(reason: string, sid?: string): void {
    for (const [k, ts] of [...this.turns]) {
      if (sid !== undefined && !k.startsWith(`${sid}\u0000`)) continue;
      this.close(ts, reason);
      this.turns.delete(k);
    }
  }

  /** The kernel's hook-call observer: one oceancode.hook span per call (with taps) made during a turn. */
  readonly observer: HookCallObserver = ({ hook, kind, taps, args }) => {
    // a wrap surrounds the tool run, which has its own span (oceancode.tool_call)
    if (taps === 0 || kind === "wrap") return undefined;
    const w = whereOf(args);
    const ts = w === undefined ? this.only() : w.turn !== undefined ? this.turn(w.sid, w.turn, true, w.parentSid) : this.only(w.sid);
    if (!ts) return undefined;
    const parent = (w?.stepCtx ? this.step(w.stepCtx) : w?.step !== undefined ? ts.steps.get(w.step) : undefined) ?? ts.span;
    const span = this.tracer.startSpan(SPAN_NAMES.hook, { attributes: { "oceancode.hook.name": hook, "oceancode.hook.kind": kind, "oceancode.hook.taps": taps } }, trace.setSpan(ROOT_CONTEXT, parent));
    return (error) => {
      if (error !== undefined) this.fail(span, error);
      span.end();
    };
  };
}

function safeSize(input: unknown): number | undefined {
  try {
    return JSON.stringify(input).length;
  } catch {
    return undefined;
  }
}

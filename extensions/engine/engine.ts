/**
 * The session engine. It knows no feature: it runs the loop and calls its hooks.
 * Per-step work is O(new content): rows are appended to the in-memory session; the window is chosen by
 * contextBuild taps (the tideline) without rescanning history.
 */
import os from "node:os";
import crypto from "node:crypto";
import {
  INTERRUPTED_NOTE,
  ProviderError,
  emptyUsage,
  providerErrorCode,
  providerErrorDetails,
  type Answer,
  type AssistantRow,
  type AuthorizeResult,
  type Decision,
  type EngineHooks,
  type EngineService,
  type ModelInfo,
  type ModelRequest,
  type NoteRow,
  type PromptOptions,
  type Provider,
  type Question,
  type QuestionHandler,
  type Rejection,
  type Row,
  type Session,
  type SessionEvent,
  type SessionInfo,
  type StepContext,
  type ToolCall,
  type ToolCallContext,
  type ToolContext,
  type ToolResult,
  type ToolRow,
  type UserRow,
  type TurnContext,
  type TurnEndReason,
  type TurnResult,
  type Usage,
  type SessionClaim,
  sessionBusyError,
} from "./api.js";
import { createEngineHooks } from "./hooks.js";
import { Tools, Providers } from "./registries.js";
import { Catalogue } from "./models.js";
import { isRetryable, backoffMs, sleep } from "./retry.js";

export interface EngineOptions {
  /** fire an activation event (providers load lazily on "onEvent:provider:<id>") */
  activate(event: string): Promise<void>;
  log: { warn(m: string): void; error(m: string): void; debug(m: string): void };
  env: NodeJS.ProcessEnv;
  /** steps per root turn (stepCap), given the session's stored --max-steps: throws, naming where the value came from, when it is not a whole number above 0 */
  maxSteps?: (stored?: unknown) => number;
  maxRetries: number;
  idleMinutes: number;
  systemPromptExtra?: string;
  /**
   * engine.max_stop_continuations: how many `continue` answers from engine.stop taps one prompt honours
   * (default 8), across the fresh turns a step cap opens; past it the turn settles with a note row.
   */
  maxStopContinuations?: number;
  /** what manifests declare (contributes.tools / contributes.providers): name -> extension */
  declared?: { tools: ReadonlyMap<string, string>; providers: ReadonlyMap<string, string> };
}

/** Default of engine.max_stop_continuations: at most 8 Stop continuations per human prompt (the guide's bound). */
export const DEFAULT_MAX_STOP_CONTINUATIONS = 8;

export function newSessionId(): string {
  // time-ordered so `ls` and SQL order agree; random tail for uniqueness
  return `ses_${Date.now().toString(36).padStart(9, "0")}${crypto.randomBytes(5).toString("hex")}`;
}

/** What stepCap reads: the resolved config (engine.max_steps from a file, $OC_MAX_STEPS or run --max-steps). */
export interface StepCapConfig {
  get(dotted: string): unknown;
  sourceOf(dotted: string): { layer: string; file?: string; source?: string } | undefined;
}

/**
 * Steps per root turn: `engine.max_steps` (a config file < $OC_MAX_STEPS < run --max-steps), default 300.
 * `stored`: the --max-steps an earlier run stored on the session (overrides.max_steps); like the flag it beats
 * the environment and the files, so it survives --continue; a new flag or a requirements pin beats it.
 * A variable or flag is not checked at boot, so the error here names it as the user wrote it.
 */
export function stepCap(config: StepCapConfig, stored?: unknown): number {
  const src = config.sourceOf("engine.max_steps");
  const storedOk = typeof stored === "number" && Number.isInteger(stored) && stored > 0;
  if (storedOk && src?.layer !== "host" && src?.layer !== "requirements") return stored;
  const v = config.get("engine.max_steps");
  if (v === undefined) return 300;
  const name = (src?.layer === "env" || src?.layer === "host") && src.source ? src.source : "engine.max_steps";
  if (typeof v !== "number" || !Number.isInteger(v) || v < 0) throw new Error(`${name} must be a positive whole number (got '${String(v)}')`);
  if (v === 0) throw new Error(`${name}=0 is rejected: bound a long run with a budget or a clock instead`);
  return v;
}

function approxTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

export class Engine implements EngineService {
  readonly hooks: EngineHooks = createEngineHooks();
  readonly tools: Tools;
  readonly providers: Providers;
  readonly models: Catalogue;
  private readonly sessions = new Map<string, Session>();
  /** sessions this process has claimed (claimSession): kept while the session is open, even when idle rows leave memory */
  private readonly claims = new Map<string, SessionClaim | undefined>();
  private readonly listeners = new Set<(e: SessionEvent) => void>();
  private questionHandler?: QuestionHandler;
  private readonly providerLoads = new Map<string, Promise<Provider | undefined>>();
  private idleTimer?: NodeJS.Timeout;
  private pendingNotices: string[] = [];
  /** the running prompt's own onEvent, so notices from extensions reach the host that started it */
  private readonly noticeSinks = new Map<string, (e: SessionEvent) => void>();

  constructor(private readonly opts: EngineOptions) {
    this.tools = new Tools(opts.declared?.tools, (m) => opts.log.warn(m));
    this.providers = new Providers(opts.declared?.providers, (m) => opts.log.warn(m));
    this.models = new Catalogue((id) => this.pendingNotices.push(`unknown model '${id}': using defaults (context 200k, output 8k, no prices)`));
    if (opts.idleMinutes > 0) {
      this.idleTimer = setInterval(() => this.evictIdle(), 60_000);
      this.idleTimer.unref();
    }
  }

  // ------------------------------------------------------------ sessions

  async createSession(o: { cwd: string; model: string; parentId?: string; overrides?: Record<string, unknown> }): Promise<Session> {
    const parent = o.parentId ? this.sessions.get(o.parentId) : undefined;
    const info: SessionInfo = {
      id: newSessionId(),
      parentId: o.parentId,
      cwd: o.cwd,
      model: o.model,
      createdAt: Date.now(),
      // a child inherits its parent's overrides (e.g. the /tideline setting) unless given its own
      overrides: { ...(parent?.info.overrides ?? {}), ...(o.overrides ?? {}) },
    };
    const session: Session = { info, rows: [], totals: { usage: emptyUsage(), costUsd: 0, turns: 0, steps: 0 }, nextSeq: 1, lastActive: Date.now(), ext: new Map() };
    // load the model's provider now so hosts and meters see its catalogue entry before the first prompt;
    // a missing provider is reported when the prompt runs
    await this.describeModel(o.model).catch(() => undefined);
    await this.claim(info.id, false);
    this.sessions.set(info.id, session);
    await this.hooks.sessionStart.call({ session, source: "startup" });
    return session;
  }

  /** Claim a session for this process (kept until closeSession, or the process ends). */
  private async claim(id: string, wait: boolean): Promise<void> {
    if (this.claims.has(id)) return;
    const c = await this.hooks.claimSession.call({ id, wait });
    if (c && "refused" in c) throw sessionBusyError(c.refused);
    this.claims.set(id, c);
  }

  async openSession(id: string, opts: { wait?: boolean } = {}): Promise<Session> {
    const open = this.sessions.get(id);
    if (open) return open;
    // claimed before it is read, so what we load is what the last holder left
    await this.claim(id, opts.wait === true);
    const stored = await this.hooks.loadSession.call({ id });
    if (!stored) {
      await this.release(id);
      throw new Error(`no session '${id}' (see oceancode sessions)`);
    }
    const last = stored.rows[stored.rows.length - 1];
    const session: Session = {
      info: stored.info,
      rows: stored.rows,
      totals: stored.totals,
      nextSeq: (last?.seq ?? 0) + 1,
      lastActive: Date.now(),
      ext: new Map(),
    };
    this.sessions.set(id, session);
    await this.hooks.sessionStart.call({ session, source: "resume" });
    return session;
  }

  async latestSessionId(cwd: string): Promise<string | undefined> {
    let best: Session | undefined;
    for (const s of this.sessions.values()) if (s.info.cwd === cwd && (!best || s.lastActive > best.lastActive)) best = s;
    return best?.info.id ?? (await this.hooks.latestSession.call({ cwd }));
  }

  async closeSession(session: Session, reason: string): Promise<void> {
    await this.hooks.sessionEnd.call({ session, reason });
    this.sessions.delete(session.info.id);
    await this.release(session.info.id);
  }

  private async release(id: string): Promise<void> {
    const c = this.claims.get(id);
    this.claims.delete(id);
    if (c && "release" in c) await c.release().catch(() => undefined);
  }

  /** A session idle past the limit leaves memory; openSession reloads it through storage. */
  evictIdle(now = Date.now()): void {
    const limit = this.opts.idleMinutes * 60_000;
    for (const [id, s] of this.sessions) if (!s.ext.has("engine:busy") && now - s.lastActive > limit) this.sessions.delete(id);
  }

  releaseRows(session: Session, uptoSeq: number): number {
    const rows = session.rows;
    let lo = 0;
    let hi = rows.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (rows[mid]!.seq <= uptoSeq) lo = mid + 1;
      else hi = mid;
    }
    if (lo > 0) rows.splice(0, lo); // in place: holders of session.rows see the same array
    return lo;
  }

  isOpen(id: string): boolean {
    return this.sessions.has(id);
  }

  setQuestionHandler(handler: QuestionHandler | undefined): void {
    this.questionHandler = handler;
  }

  notice(sessionId: string, level: "info" | "warn" | "error", text: string): void {
    for (const l of this.listeners) l({ type: "notice", sessionId, level, text });
    this.noticeSinks.get(sessionId)?.({ type: "notice", sessionId, level, text });
  }

  subscribe(listener: (e: SessionEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  dispose(): void {
    if (this.idleTimer) clearInterval(this.idleTimer);
  }

  // ------------------------------------------------------------ helpers

  private async provider(model: ModelInfo): Promise<Provider> {
    let p = this.providers.get(model.provider);
    if (p) return p;
    let load = this.providerLoads.get(model.provider);
    if (!load) {
      load = this.opts.activate(`onEvent:provider:${model.provider}`).then(() => {
        this.providers.checkLoaded(model.provider);
        return this.providers.get(model.provider);
      });
      this.providerLoads.set(model.provider, load);
    }
    p = await load;
    if (!p) throw new ProviderError("bad_request", `no provider '${model.provider}' for model '${model.id}' (is its extension installed and enabled? see oceancode inspect)`);
    return p;
  }

  async describeModel(id: string): Promise<ModelInfo> {
    return this.modelInfo(id);
  }

  async checkModel(id: string): Promise<string | undefined> {
    const model = await this.modelInfo(id);
    try {
      this.maxSteps();
    } catch (e) {
      return (e as Error).message;
    }
    const e = (await this.provider(model)).ready?.();
    return e ? `${providerErrorCode(e) ?? "error"}: ${e.message}` : undefined;
  }

  /** checkModel for a prompt: a usage error (no such provider) is a problem too, never a throw. */
  private async unready(id: string): Promise<string | undefined> {
    try {
      return await this.checkModel(id);
    } catch (e) {
      return e instanceof Error ? e.message : String(e);
    }
  }

  private async modelInfo(id: string): Promise<ModelInfo> {
    const slash = id.indexOf("/");
    if (slash <= 0) throw new ProviderError("bad_request", `model '${id}' must be written provider/model (e.g. anthropic/claude-sonnet-4-5, scripted/echo)`);
    const providerId = id.slice(0, slash);
    const p = this.providers.get(providerId) ?? (await this.provider({ provider: providerId, id } as ModelInfo));
    const described = p.describe?.(id.slice(slash + 1));
    if (described) return { ...described, known: true };
    return this.models.resolve(id);
  }

  private maxSteps(session?: Session): number {
    return this.opts.maxSteps ? this.opts.maxSteps(session?.info.overrides.max_steps) : 300;
  }

  private systemPrompt(session: Session): string[] {
    const base = [
      "You are oceancode, a coding agent working in the user's project. Use the tools to read, search, edit and run code; keep answers short and concrete.",
      `Working directory: ${session.info.cwd}\nPlatform: ${os.platform()}`,
    ];
    if (this.opts.systemPromptExtra) base.push(this.opts.systemPromptExtra);
    return base;
  }

  private push<R extends Row>(session: Session, row: Omit<R, "seq">): R {
    const full = { ...row, seq: session.nextSeq++ } as R;
    session.rows.push(full);
    return full;
  }

  // ------------------------------------------------------------ the loop

  async prompt(session: Session, text: string, o: PromptOptions = {}): Promise<TurnResult> {
    const emit = (e: SessionEvent) => {
      o.onEvent?.(e);
      for (const l of this.listeners) l(e);
    };
    const sid = session.info.id;
    const notice = (level: "info" | "warn" | "error", t: string) => emit({ type: "notice", sessionId: sid, level, text: t });
    // a prompt that could never reach the model (no provider, no key) is refused before anything is recorded
    const unready = await this.unready(session.info.model);
    if (unready) {
      notice("error", unready);
      return { turn: session.totals.turns, reason: "error", text: "", error: unready };
    }
    if (o.onEvent) this.noticeSinks.set(sid, o.onEvent);
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
    let stepInTurn = 0;
    try {
      const maxSteps = this.maxSteps(session);
      const maxContinuations = this.opts.maxStopContinuations ?? DEFAULT_MAX_STOP_CONTINUATIONS;
      session.totals.turns = turn;
      emit({ type: "turn_start", sessionId: sid, turn, text });
      const turnCtx: TurnContext = { session, turn, signal };
      const input = await this.hooks.userPrompt.call({ text, context: [] }, turnCtx);
      if (input.blocked) {
        notice("warn", `prompt blocked by ${input.blocked.by}: ${input.blocked.reason}`);
        reason = "blocked";
        return { turn, reason, text: "", error: input.blocked.reason };
      }
      this.push<UserRow>(session, { role: "user", text: input.text, context: input.context.length ? input.context : undefined, turn, step: 0, at: Date.now() });
      let continuations = 0;
      let stopHookActive = false;
      for (;;) {
        if (signal.aborted) {
          reason = "aborted";
          break;
        }
        if (stepInTurn >= maxSteps) {
          // the cap is a boundary, not a stop: close this turn and carry on in a fresh one
          await this.hooks.afterTurn.call({ session, turn, reason: "step_cap", rows: [] });
          emit({ type: "turn_end", sessionId: sid, turn, reason: "step_cap", text: finalText });
          turn += 1;
          session.totals.turns = turn;
          stepInTurn = 0;
          this.push<NoteRow>(session, { role: "note", text: `[step cap ${maxSteps} reached: continuing the same work in a fresh turn]`, turn, step: 0, at: Date.now() });
          emit({ type: "turn_start", sessionId: sid, turn, text: "(continued)" });
        }
        stepInTurn += 1;
        session.totals.steps += 1;
        const stepStart = performance.now();
        const model = await this.modelInfo(session.info.model);
        for (const n of this.pendingNotices.splice(0)) notice("warn", n);
        const stepCtx: StepContext = { ...turnCtx, turn, step: stepInTurn, sessionStep: session.totals.steps, model };
        const outcome = await this.runModel(session, stepCtx, emit);
        if (outcome.kind === "error") {
          reason = outcome.reason;
          error = outcome.message;
          if (outcome.reason === "error") notice("error", outcome.message);
          break;
        }
        const { assistant, usage, stopReason } = outcome;
        finalText = assistant.text || finalText;
        let toolRow: ToolRow | undefined;
        if (assistant.toolCalls.length > 0) {
          const results: ToolResult[] = [];
          for (const call of assistant.toolCalls) results.push(await this.runTool(session, stepCtx, call, emit, signal));
          toolRow = this.push<ToolRow>(session, { role: "tool", results, turn, step: stepInTurn, at: Date.now() });
        }
        const added = approxTokens(assistant.text) + (toolRow ? toolRow.results.reduce((n, r) => n + approxTokens(r.content), 0) : 0);
        const gaugeTokens = usage.inputTokens + usage.cacheReadTokens + usage.cacheWriteTokens + usage.outputTokens + added - approxTokens(assistant.text);
        await this.hooks.afterStep.call({ ctx: stepCtx, assistant, tools: toolRow, usage, gaugeTokens, durationMs: performance.now() - stepStart });
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
        const d = await this.hooks.stop.call({ ...turnCtx, turn, lastAssistantText: assistant.text, continuations, stopHookActive });
        if (d && d.continue) {
          if (continuations >= maxContinuations) {
            // the engine's own bound (no tap can loop a prompt forever): counted per prompt, across the
            // fresh turns a step cap opens; an answer that does not continue (an exit-2 Deny) never counts
            const why = `[stop continuation cap ${maxContinuations} reached: ${d.by} asked to continue (${d.reason}); the turn settles]`;
            notice("warn", `stop continuation cap (${maxContinuations}) reached: ${d.by} asked to continue again; the turn settles (engine.max_stop_continuations)`);
            this.push<NoteRow>(session, { role: "note", text: why, turn, step: stepInTurn, at: Date.now() });
            reason = "end_turn";
            break;
          }
          continuations += 1;
          stopHookActive = true;
          notice("info", `continuing: ${d.by}: ${d.reason}`);
          // labelled, so the transcript (and the model) show who continued the turn
          this.push<NoteRow>(session, { role: "note", text: `[continued by ${d.by}] ${d.reason}`, turn, step: stepInTurn, at: Date.now() });
          continue;
        }
        reason = "end_turn";
        break;
      }
      return { turn, reason, text: finalText, error };
    } catch (e) {
      reason = signal.aborted ? "aborted" : "error";
      error = e instanceof Error ? e.message : String(e);
      if (reason === "error") notice("error", error);
      return { turn, reason, text: finalText, error };
    } finally {
      o.signal?.removeEventListener("abort", onAbort);
      this.noticeSinks.delete(sid);
      session.ext.delete("engine:busy");
      session.lastActive = Date.now();
      if (reason === "aborted" && session.rows[session.rows.length - 1]?.turn === turn) {
        // the marker where the turn stopped (in the step it stopped in): stored, shown in the ledger and
        // exports, read by the model next turn
        this.push<NoteRow>(session, { role: "note", kind: "interrupted", text: INTERRUPTED_NOTE, turn, step: stepInTurn, at: Date.now() });
      }
      if (reason !== "blocked") {
        const turnRows: Row[] = [];
        for (let i = session.rows.length - 1; i >= 0 && session.rows[i]!.turn === turn; i--) turnRows.unshift(session.rows[i]!);
        await this.hooks.afterTurn.call({ session, turn, reason, rows: turnRows }).catch(() => undefined);
      }
      emit({ type: "turn_end", sessionId: sid, turn, reason, text: finalText });
    }
  }

  /** One model request with retries; the too-long refusal gets the promptTooLong hook and one retry. */
  private async runModel(
    session: Session,
    ctx: StepContext,
    emit: (e: SessionEvent) => void,
  ): Promise<
    | { kind: "ok"; assistant: AssistantRow; usage: Usage; stopReason: string }
    | { kind: "error"; reason: TurnEndReason; message: string }
  > {
    const sid = session.info.id;
    let tooLongRetried = false;
    let attempt = 0;
    for (;;) {
      const request = await this.buildRequest(session, ctx);
      const provider = await this.provider(ctx.model);
      let text = "";
      let deltas = 0;
      const calls: ToolCall[] = [];
      let usage: Usage = emptyUsage();
      let stopReason = "end_turn";
      try {
        for await (const ev of provider.stream(request, ctx.signal)) {
          if (ev.type === "text_delta") {
            text += ev.text;
            deltas += 1;
            emit({ type: "text_delta", sessionId: sid, text: ev.text });
          } else if (ev.type === "tool_call") calls.push(ev.call);
          else if (ev.type === "usage") usage = ev.usage;
          else if (ev.type === "done") stopReason = ev.stopReason;
        }
      } catch (e) {
        const code = providerErrorCode(e);
        if (ctx.signal.aborted || code === "aborted") {
          // what the user saw is kept: the streamed text is stored as the step's (cut off) answer;
          // tool calls that had not run are dropped
          if (text) this.push<AssistantRow>(session, { role: "assistant", text, toolCalls: [], model: ctx.model.id, turn: ctx.turn, step: ctx.step, at: Date.now() });
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
          emit({ type: "notice", sessionId: sid, level: "warn", text: "the provider refused the request as too long; cutting the window and retrying once" });
          await this.hooks.promptTooLong.call(ctx);
          continue;
        }
        const d = providerErrorDetails(e);
        const described = code ? `${code}${d.status ? ` (${d.status})` : ""}: ${d.message}` : e instanceof Error ? e.message : String(e);
        if (isRetryable(e) && attempt < this.opts.maxRetries) {
          const wait = backoffMs(e, attempt);
          attempt += 1;
          discard("retry");
          emit({ type: "notice", sessionId: sid, level: "warn", text: `${described}; retry ${attempt}/${this.opts.maxRetries} in ${Math.round(wait)} ms` });
          try {
            await sleep(wait, ctx.signal);
          } catch {
            return { kind: "error", reason: "aborted", message: "interrupted" };
          }
          continue;
        }
        const msg = described;
        discard("error");
        return { kind: "error", reason: "error", message: msg };
      }
      const assistant = this.push<AssistantRow>(session, {
        role: "assistant",
        text,
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
      t.costUsd += this.models.cost(ctx.model, usage);
      return { kind: "ok", assistant, usage, stopReason };
    }
  }

  private async buildRequest(session: Session, ctx: StepContext): Promise<ModelRequest> {
    const window = await this.hooks.contextBuild.call({ rows: session.rows, preface: [], system: this.systemPrompt(session) }, ctx);
    const rows: Row[] = window.preface.length
      ? [{ role: "note", text: window.preface.join("\n"), seq: 0, turn: ctx.turn, step: 0, at: 0 } as NoteRow, ...window.rows]
      : window.rows;
    this.tools.checkDeclared();
    const outCap = this.opts.env.OC_MAX_OUTPUT_TOKENS ? Math.min(Number(this.opts.env.OC_MAX_OUTPUT_TOKENS), ctx.model.maxOutputTokens) : ctx.model.maxOutputTokens;
    return this.hooks.modelRequest.call(
      {
        model: ctx.model,
        system: window.system,
        rows,
        tools: this.tools.list().map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema })),
        maxOutputTokens: outCap > 0 ? outCap : ctx.model.maxOutputTokens,
        extra: {},
        sessionId: session.info.id,
        sessionStep: ctx.sessionStep,
      },
      ctx,
    );
  }

  private async runTool(session: Session, step: StepContext, call: ToolCall, emit: (e: SessionEvent) => void, signal: AbortSignal): Promise<ToolResult> {
    const sid = session.info.id;
    const tool = this.tools.get(call.name);
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
      const result = await this.hooks.toolResult.call(raw, ctx);
      emit({ type: "tool_call_end", sessionId: sid, call, result });
      return result;
    };
    if (!tool) return finish({ callId: call.id, name: call.name, content: `unknown tool '${call.name}'; available: ${this.tools.list().map((t) => t.name).join(", ")}`, isError: true });
    if (signal.aborted) return finish({ callId: call.id, name: call.name, content: "interrupted before it ran", isError: true });

    let decision: AuthorizeResult = (await this.hooks.authorizeToolCall.call(ctx)) ?? { action: "allow", by: "default" };
    // a tap may rewrite the input by returning updatedInput (Claude-shaped) or by replacing ctx.call
    let input = ctx.call.input;
    if (decision.updatedInput) input = tool.fromClaudeInput ? tool.fromClaudeInput(decision.updatedInput) : decision.updatedInput;
    if (input !== call.input) ctx.claude = { toolName: ctx.claude.toolName, toolInput: tool.toClaudeInput ? tool.toClaudeInput(input, cwd) : input };
    if (decision.action === "ask") {
      const question: Question = {
        sessionId: sid,
        tool: call.name,
        subject: tool.ruleSubject ? tool.ruleSubject(input, cwd) : JSON.stringify(input),
        reason: decision.reason,
        rule: decision.rule,
        ...(decision.always ? { always: decision.always } : {}),
        ...(decision.autoApprove === false ? { autoApprove: false } : {}),
      };
      let reply: Answer | Rejection = "reject";
      if (this.questionHandler) {
        try {
          reply = await this.questionHandler(question, signal);
        } catch {
          reply = "reject";
        }
      }
      const answer: Answer = typeof reply === "string" ? reply : "reject";
      emit({ type: "question", sessionId: sid, question, answer });
      await this.hooks.permissionAnswered.call({ ctx, decision, answer });
      decision =
        typeof reply === "object"
          ? { action: "deny", by: reply.by, reason: reply.reason }
          : answer === "reject"
            ? { action: "deny", by: "user", reason: this.questionHandler ? `the user rejected this call (${decision.reason})` : `this call needs approval and no one can answer here (${decision.reason})` }
            : { action: "allow", by: "user", reason: answer };
    }
    if (decision.action === "deny") {
      const d: Decision = decision;
      await this.hooks.permissionDenied.call({ ctx, decision: d });
      return finish({ callId: call.id, name: call.name, content: `Permission denied by ${d.by}: ${d.reason}`, isError: true });
    }
    const toolCtx: ToolContext = {
      session: session.info,
      call,
      cwd,
      signal,
      state: this.toolState(session),
      prepareSpawn: (spec) => this.hooks.childProcess.call({ ...spec, env: spec.env ?? { ...process.env } }, { sessionId: sid }),
    };
    let out;
    try {
      out = await this.hooks.executeTool.call(ctx, () => tool.run(input, toolCtx));
    } catch (e) {
      out = { content: `tool '${call.name}' failed: ${e instanceof Error ? e.message : String(e)}`, isError: true };
    }
    const truncated = out.metadata?.truncated as ToolResult["truncated"] | undefined;
    return finish({ callId: call.id, name: call.name, content: out.content, isError: out.isError === true, ...(truncated ? { truncated } : {}) });
  }

  private toolState(session: Session): Map<string, unknown> {
    let s = session.ext.get("engine:toolState") as Map<string, unknown> | undefined;
    if (!s) {
      s = new Map();
      session.ext.set("engine:toolState", s);
    }
    return s;
  }
}

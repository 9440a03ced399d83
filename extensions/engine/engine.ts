/**
 * The session engine. It knows no feature: it runs the loop and calls its hooks.
 * Per-step work is O(new content): rows are appended to the in-memory session; the window is chosen by
 * contextBuild taps (the tideline) without rescanning history.
 *
 * The Engine coordinates; the work is in one file per job: sessions.ts (open, claim, close, idle),
 * turn.ts (a prompt's step loop), model-call.ts (one model request, retries), tool-call.ts (authorize and
 * run one tool call), options.ts (options, the step cap).
 */
import { type EngineHooks, type EngineService, type ForkResult, type ModelInfo, type PromptOptions, type Provider, type Answer, type Question, type QuestionHandler, type QuestionReply, type Rejection, type Session, type SessionEvent, type SessionProfile, type TurnResult, type ToolResult, type UserToolCall } from "./api.js";
import { ModelNames } from "./kit/model-names.js";
import { ProviderError, providerErrorCode } from "./kit/provider.js";
import { createEngineHooks } from "./hooks.js";
import { Tools, Providers } from "./registries.js";
import { Catalogue } from "./models.js";
import type { EngineCore } from "./core.js";
import type { EngineOptions } from "./options.js";
import { SessionTable, releaseRows } from "./sessions.js";
import { forkSession } from "./fork.js";
import { runPrompt } from "./turn.js";
import { runTool } from "./tool-call.js";
import type { SessionOverrides } from "./api.js";

export { DEFAULT_MAX_STOP_CONTINUATIONS, stepCap, subagentStepCap, type EngineOptions, type StepCapConfig } from "./options.js";
export { newSessionId } from "./sessions.js";

/** Fired when a model names a provider that its own onEvent:provider:<id> did not register (see providers.point.schema.json). */
export const UNLISTED_PROVIDER_EVENT = "onEvent:providers:unlisted";

export class Engine implements EngineService {
  readonly hooks: EngineHooks = createEngineHooks();
  readonly tools: Tools;
  readonly providers: Providers;
  readonly models: Catalogue;
  private readonly sessions: SessionTable;
  private readonly listeners = new Set<(e: SessionEvent) => void>();
  private questionHandler?: QuestionHandler;
  private readonly providerLoads = new Map<string, Promise<Provider | undefined>>();
  private idleTimer?: NodeJS.Timeout;
  private readonly pendingNotices: string[] = [];
  /** the running prompt's own onEvent, so notices from extensions reach the host that started it */
  private readonly noticeSinks = new Map<string, (e: SessionEvent) => void>();
  /** what turn.ts, model-call.ts and tool-call.ts use of this engine */
  private readonly core: EngineCore;

  constructor(private readonly opts: EngineOptions) {
    this.tools = new Tools(opts.declared?.tools, (m) => opts.log.warn(m), opts.declared?.optionalTools);
    this.providers = new Providers(opts.declared?.providers, (m) => opts.log.warn(m));
    this.models = new Catalogue(
      (id) => this.pendingNotices.push(`unknown model '${id}': using defaults (context 200k, output 8k, no prices)`),
      (id) => this.describedByProvider(id),
      opts.names?.entries(),
    );
    this.sessions = new SessionTable(this.hooks, (id) => this.describeModel(id));
    this.core = {
      hooks: this.hooks,
      tools: this.tools,
      models: this.models,
      opts,
      listeners: this.listeners,
      pendingNotices: this.pendingNotices,
      noticeSinks: this.noticeSinks,
      questionHandler: () => this.questionHandler,
      provider: (model) => this.provider(model),
      modelInfo: (id) => this.modelInfo(id),
      unready: (id) => this.unready(id),
      maxSteps: (session) => this.maxSteps(session),
      maxSubagentSteps: () => (this.opts.maxSubagentSteps ? this.opts.maxSubagentSteps() : 300),
    };
    if (opts.idleMinutes > 0) {
      this.idleTimer = setInterval(() => this.evictIdle(), 60_000);
      this.idleTimer.unref();
    }
  }

  // ------------------------------------------------------------ sessions (sessions.ts)

  createSession(o: { cwd: string; model: string; parentId?: string; overrides?: SessionOverrides; profile?: SessionProfile }): Promise<Session> {
    // the session keeps the full id (`sonnet` is stored as anthropic/claude-sonnet-4-6); a name that does not
    // resolve is kept as typed and refused at its first prompt (hosts check with checkModel first)
    return this.sessions.create({ ...o, model: this.fullId(o.model) });
  }

  openSession(id: string, opts: { wait?: boolean } = {}): Promise<Session> {
    return this.sessions.open(id, opts);
  }

  latestSessionId(cwd: string): Promise<string | undefined> {
    return this.sessions.latestId(cwd);
  }

  closeSession(session: Session, reason: string): Promise<void> {
    return this.sessions.close(session, reason);
  }

  /** A session idle past the limit leaves memory; openSession reloads it through storage. */
  evictIdle(now = Date.now()): void {
    this.sessions.evictIdle(now, this.opts.idleMinutes * 60_000);
  }

  forkSession(fromId: string, opts: { at?: string } = {}): Promise<ForkResult> {
    return forkSession(this.hooks, this.sessions, fromId, opts.at);
  }

  releaseRows(session: Session, uptoSeq: number): number {
    return releaseRows(session, uptoSeq);
  }

  isOpen(id: string): boolean {
    return this.sessions.isOpen(id);
  }

  setQuestionHandler(handler: QuestionHandler | undefined): void {
    this.questionHandler = handler;
  }

  async ask(question: Question, signal: AbortSignal): Promise<QuestionReply | undefined> {
    const handler = this.questionHandler;
    if (!handler) return undefined;
    try {
      return await handler(question, signal);
    } catch {
      return "reject";
    }
  }

  notice(sessionId: string, level: "info" | "warn" | "error", text: string): void {
    this.emit({ type: "notice", sessionId, level, text });
  }

  emit(event: SessionEvent): void {
    for (const l of this.listeners) l(event);
    this.noticeSinks.get(event.sessionId)?.(event);
  }

  subscribe(listener: (e: SessionEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  dispose(): void {
    if (this.idleTimer) clearInterval(this.idleTimer);
  }

  // ------------------------------------------------------------ models and providers

  private async provider(model: ModelInfo): Promise<Provider> {
    let p = this.providers.get(model.provider);
    if (p) return p;
    let load = this.providerLoads.get(model.provider);
    if (!load) {
      load = this.opts.activate(`onEvent:provider:${model.provider}`).then(async () => {
        this.providers.checkLoaded(model.provider);
        // a provider no manifest lists (a user's own from config): the extensions that register such wake
        if (!this.providers.get(model.provider)) await this.opts.activate(UNLISTED_PROVIDER_EVENT);
        return this.providers.get(model.provider);
      });
      this.providerLoads.set(model.provider, load);
    }
    p = await load;
    if (!p) {
      const near = this.modelNames().providerHint(model.id);
      throw new ProviderError("bad_request", `no provider '${model.provider}' for model '${model.id}'${near || " (is its extension installed and enabled? see oceancode inspect)"}`);
    }
    return p;
  }

  async describeModel(id: string): Promise<ModelInfo> {
    return this.modelInfo(this.fullId(id));
  }

  /** The names manifests list, with what loaded providers catalogue and registered. */
  modelNames(): ModelNames {
    const base = this.opts.names ?? new ModelNames([], []);
    return base.with(this.providers.ids(), this.models.list().map((m) => m.id));
  }

  resolveModel(name: string): string {
    return this.modelNames().resolve(name).id;
  }

  /** resolveModel, or the name as typed when it does not resolve (its use says why). */
  private fullId(name: string): string {
    try {
      return this.resolveModel(name);
    } catch {
      return name;
    }
  }

  /** A loaded provider's own entry for a model its catalogue does not list (never throws). */
  private describedByProvider(id: string): Omit<ModelInfo, "known"> | undefined {
    const slash = id.indexOf("/");
    if (slash <= 0) return undefined;
    try {
      return this.providers.get(id.slice(0, slash))?.describe?.(id.slice(slash + 1));
    } catch {
      return undefined; // e.g. a scripted file that cannot be read: its use says so
    }
  }

  async checkModel(typed: string): Promise<string | undefined> {
    const model = await this.modelInfo(this.resolveModel(typed));
    try {
      this.maxSteps();
      // a bad $OC_MAX_SUBAGENT_STEPS is a usage error at the first prompt, not a failure deep in a sub-agent
      this.opts.maxSubagentSteps?.();
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
    if (slash <= 0) this.resolveModel(id); // throws the usage error naming the nearest known names
    if (slash <= 0) throw new ProviderError("bad_request", `model '${id}' must be written provider/model (e.g. anthropic/claude-sonnet-4-6, scripted/echo)`);
    const providerId = id.slice(0, slash);
    const p = this.providers.get(providerId) ?? (await this.provider({ provider: providerId, id } as ModelInfo));
    const described = p.describe?.(id.slice(slash + 1));
    if (described) return { ...described, known: true };
    return this.models.resolve(id);
  }

  private maxSteps(session?: Session): number {
    return this.opts.maxSteps ? this.opts.maxSteps(session?.info.overrides.max_steps) : 300;
  }

  // ------------------------------------------------------------ the loop (turn.ts)

  prompt(session: Session, text: string, o: PromptOptions = {}): Promise<TurnResult> {
    const lc = this.core.opts.logContext;
    return lc ? lc.withContext({ session: session.info.id }, () => runPrompt(this.core, session, text, o)) : runPrompt(this.core, session, text, o);
  }

  /** A user's own tool call (the pager's `!cmd`, `@file`): the same authorize → execute path as a model's. */
  async runTool(session: Session, call: UserToolCall, o: { signal?: AbortSignal } = {}): Promise<ToolResult> {
    const model = await this.modelInfo(session.info.model);
    const signal = o.signal ?? new AbortController().signal;
    const emit = (e: SessionEvent) => this.emit(e);
    // step 0 of the last turn: outside any model step, as a hook's context sees it
    const step = { session, turn: session.totals.turns, signal, step: 0, sessionStep: session.totals.steps, model };
    const id = `user_${Date.now().toString(36)}_${(this.userCalls++).toString(36)}`;
    session.lastActive = Date.now();
    return runTool(this.core, session, step, { id, name: call.name, input: call.input }, emit, signal);
  }
  private userCalls = 0;
}

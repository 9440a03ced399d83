/**
 * Drives one pager session through services only: the engine (prompt, events, asks), the kernel's
 * slash commands, and the tideline meter when present. The React tree talks to this through PagerActions.
 */
import type { Answer, EngineService, FormAnswer, Question, Session, UserToolCall } from "../../extensions/engine/api.js";
import type { HelpSection, PagerSlashHost, PickItem } from "../../extensions/session-commands/api.js";
import type { SlashHost } from "../../kernel/api.js";
import type { PagerActions } from "./components/app.js";
import type { SlashEntry } from "./components/dialogs.js";
import type { MeterView } from "./format.js";
import { parseSlash } from "./composer-model.js";
import { buildMeter, type TidelineService } from "./meter.js";
import type { BoundsService } from "../../extensions/bounds/api.js";
import { lastGauge, PagerStore, rowsToItems, safeQuestion, type PendingQuestion } from "./store.js";
import { visible, visibleLine } from "../terminal/sanitize.js";
import { skillEntries, type SkillsLike } from "./skill-entries.js";
import { mcpPromptEntries, type McpPromptsLike } from "./mcp-prompt-entries.js";
import type { CapAction, CapTab } from "./capabilities-model.js";
import { applyCapabilities, readCapabilities, type CapSources, type McpLike, type PluginsLike, type SkillsToggles } from "./capabilities-source.js";
import { todosStatus, type TodosLike } from "./todos-pane.js";
import { MODE_LABEL, PagerModes, type ModeChange, type ModeSources } from "./modes.js";
import { fmtTokens } from "./format.js";
import { progressText } from "./progress.js";
import { Submitter, type Extra, type SubmitHost } from "./submitter.js";
import { FileIndex, type FileHit } from "./file-index.js";

/** What the pager drives of an engine: the embedded EngineService, or a serve instance's (oceancode attach). */
export type PagerEngine = Pick<EngineService, "subscribe" | "setQuestionHandler" | "createSession" | "openSession" | "prompt" | "closeSession" | "checkModel"> & Partial<Pick<EngineService, "runTool">> & {
  models: Pick<EngineService["models"], "resolve">;
};

/** What the controller needs from the kernel (a Kernel satisfies it; tests may pass a real one). */
export interface KernelLike {
  slashCommands(): Array<{ name: string; usage?: string; summary: string }>;
  runSlash(name: string, args: string, host: SlashHost): Promise<boolean>;
}

export class PagerController implements PagerActions {
  readonly store = new PagerStore();
  session!: Session;
  private running?: AbortController;
  private unsubscribe?: () => void;
  private questions: Promise<unknown> = Promise.resolve();
  private exitResolve!: (code: number) => void;
  /** resolves with the exit code when the user leaves */
  readonly exited = new Promise<number>((r) => (this.exitResolve = r));

  constructor(
    private readonly kernel: KernelLike,
    private readonly engine: PagerEngine,
    private readonly opts: { cwd: string; model: string; tideline?: TidelineService; capUsd?: number; bounds?: BoundsService; skills?: SkillsLike & Partial<SkillsToggles>; plugins?: () => Promise<PluginsLike | undefined>; mcp?: () => Promise<McpLike | undefined>; todos?: () => Promise<TodosLike | undefined>; modes?: ModeSources; onOpen?: (s: Session) => void },
  ) {
    this.modes = new PagerModes(opts.modes ?? { cycleBypass: false });
  }

  readonly modes: PagerModes;

  private todosService?: TodosLike;
  private todosUnsubscribe?: () => void;

  /** Open the pager's session: a fresh one, or the stored session `resumeId` (-c, --resume). */
  async start(resumeId?: string): Promise<void> {
    this.unsubscribe = this.engine.subscribe((e) => this.store.apply(e));
    this.engine.setQuestionHandler((q, signal) => this.ask(q, signal));
    if (resumeId) {
      const next = await this.engine.openSession(resumeId);
      this.session = next;
      this.opts.onOpen?.(next);
      this.adopt(next);
    } else {
      await this.openNew();
      this.opts.onOpen?.(this.session);
    }
    // the todos service (the ctrl+t pane), loaded lazily: every change of this session's list re-renders
    if (this.opts.todos) {
      void this.opts.todos().then(
        (t) => {
          if (!t) return;
          this.todosService = t;
          this.store.todosAvailable = true;
          this.todosUnsubscribe = t.subscribe((list) => this.store.setTodos(list));
          this.readTodos();
        },
        () => undefined,
      );
    }
    // the mcp service (its prompts fill the `/` popup) once the session has started the servers
    if (!this.mcpService && this.opts.mcp) void this.opts.mcp().then((m) => (this.mcpService ??= m), () => undefined);
  }

  private async openNew(): Promise<void> {
    this.session = await this.engine.createSession({ cwd: this.opts.cwd, model: this.opts.model });
    this.store.sessionId = this.session.info.id;
    this.store.cwd = this.session.info.cwd;
    this.store.model = this.session.info.model;
    this.store.gaugeTokens = 0;
    this.store.totals = this.session.totals;
    this.readTodos();
    this.store.changed();
  }

  /** Make a reopened session the pager's: its figures, todos and the tail of its rows. */
  private adopt(next: Session): void {
    this.session = next;
    this.store.sessionId = next.info.id;
    this.store.model = next.info.model;
    this.store.totals = next.totals;
    this.store.gaugeTokens = lastGauge(next.rows);
    this.readTodos();
    this.store.post({ kind: "notice", level: "info", text: `resumed ${next.info.id} (${next.totals.turns} turns; the last rows follow)` });
    for (const it of rowsToItems(next.rows)) this.store.add(it);
    this.store.changed();
  }

  /** The current session's list, read afresh (a new or resumed session). */
  private readTodos(): void {
    if (!this.todosService || !this.session) return;
    try {
      this.store.setTodos(this.todosService.get(this.session.info.id));
    } catch {
      this.store.setTodos(undefined); // a todos service that throws must not take the pager down
    }
  }

  /** The status bar's extras: the mode (auto, plan, always-approve), the todo count. */
  statusExtras(): string[] {
    const out: string[] = [];
    const mode = this.session ? MODE_LABEL[this.modes.current(this.session)] : "";
    if (mode) out.push(mode);
    const todos = todosStatus(this.store.todos);
    if (todos) out.push(todos);
    return out;
  }

  /** Asks are shown one at a time; an aborted turn dismisses its prompt as a reject. */
  private ask(q: Question, signal: AbortSignal): Promise<Answer | FormAnswer> {
    const next = this.questions.then(
      () =>
        new Promise<Answer | FormAnswer>((resolve) => {
          if (signal.aborted) return resolve("reject");
          const onAbort = () => {
            if (this.store.question === entry) {
              this.store.question = undefined;
              this.store.changed();
            }
            resolve("reject");
          };
          // the prompt shows a display-safe copy; the engine keeps its own question
          const entry: PendingQuestion = {
            question: safeQuestion(q),
            resolve: (a) => {
              signal.removeEventListener("abort", onAbort);
              resolve(a);
            },
            // a form (an MCP server's elicitation) opens with each field's default filled in
            ...(q.fields?.length ? { form: { index: 0, values: q.fields.map((f) => (f.default === undefined ? "" : String(f.default))) } } : {}),
          };
          signal.addEventListener("abort", onAbort, { once: true });
          this.store.question = entry;
          this.store.changed();
        }),
    );
    this.questions = next.catch(() => undefined);
    return next;
  }

  slashCommands(): SlashEntry[] {
    // names and summaries come from extensions' manifests: shown, so made safe like any other text
    const builtins: SlashEntry[] = this.kernel.slashCommands().map((c) => ({ name: visibleLine(c.name), summary: visibleLine(c.summary), ...(c.usage !== undefined ? { usage: visibleLine(c.usage) } : {}) }));
    // then the enabled skills and commands a user may type (a built-in of the same name wins)
    const taken = new Set(builtins.map((b) => b.name));
    const mcp = this.mcpService as (McpLike & Partial<McpPromptsLike>) | undefined;
    return [...builtins, ...skillEntries(this.opts.skills, taken), ...(mcp?.prompts ? mcpPromptEntries(mcp as McpPromptsLike, taken) : [])];
  }

  meter(): MeterView {
    const model = this.engine.models.resolve(this.session?.info.model ?? this.opts.model);
    let meter;
    try {
      meter = this.session && this.opts.tideline ? this.opts.tideline.meter(this.session) : undefined;
    } catch {
      meter = undefined; // a meter that throws must not take the pager down
    }
    let capUsd = this.opts.capUsd;
    try {
      // the session's spend bound (/limits, a run flag, OC_MAX_USD): the status bar shows $spent / $cap
      capUsd = (this.session && this.opts.bounds?.limits(this.session).usd?.value) || capUsd;
    } catch {
      // a bounds service that throws must not take the pager down
    }
    return buildMeter({ model, totals: this.store.totals, gaugeTokens: this.store.gaugeTokens, meter, capUsd });
  }

  abort(): void {
    this.running?.abort();
  }

  /** The animated status line's text while a turn runs (no spinner). */
  progressText(): string {
    return progressText(this.store.progress, fmtTokens);
  }

  /** shift+tab, ctrl+o, /auto, /always-approve: the change is said as a hint on the status line. */
  private modeHint?: (text: string) => void;
  onModeHint(fn: (text: string) => void): void {
    this.modeHint = fn;
  }
  private async changeMode(how: (m: PagerModes, s: Session) => Promise<ModeChange>): Promise<ModeChange | undefined> {
    if (!this.modes.available) {
      this.modeHint?.("modes need the permissions extension (it is off)");
      return undefined;
    }
    const change = await how(this.modes, this.session);
    this.modeHint?.(change.message);
    this.store.changed();
    return change;
  }
  cycleMode(): void {
    void this.changeMode((m, s) => m.cycle(s));
  }
  toggleAlwaysApprove(): void {
    void this.changeMode((m, s) => m.toggleAlwaysApprove(s));
  }

  exit(code = 0): void {
    this.running?.abort();
    this.exitResolve(code);
  }

  async close(): Promise<void> {
    this.unsubscribe?.();
    this.todosUnsubscribe?.();
    this.engine.setQuestionHandler(undefined);
    if (this.session) await this.engine.closeSession(this.session, "exit").catch(() => undefined);
  }

  /** type-ahead, `!cmd`, `#note`, unknown `/words`, `@` mentions (submitter.ts) */
  readonly input: Submitter = new Submitter(this.submitHost());

  submit(text: string, shown?: string): void {
    void this.input.submit(text, shown);
  }

  /** the lines waiting to be sent (shown under the composer) */
  queued(): string[] {
    return this.input.queued.map((q) => q.shown ?? q.text);
  }

  unqueue(all: boolean): string[] {
    return this.input.unqueue(all);
  }

  private fileIndex?: FileIndex;
  /** the `@` picker's matches: the project's file list is read on the first `@`, then kept */
  files(query: string): { hits: FileHit[]; loading: boolean } {
    if (!this.fileIndex) {
      const index = (this.fileIndex = new FileIndex(this.opts.cwd));
      void index.load().then(
        () => this.store.changed(),
        () => undefined,
      );
    }
    return { hits: this.fileIndex.search(query), loading: !this.fileIndex.ready };
  }

  async prompt(text: string, o: { shown?: string; prepare?: (signal: AbortSignal) => Promise<Extra> } = {}): Promise<void> {
    const s = this.store;
    s.post({ kind: "user", text: o.shown ?? text });
    const ac = new AbortController();
    this.running = ac;
    s.progress.begin();
    s.busy = true;
    s.noticesThisPrompt = [];
    s.changed();
    try {
      const extra = o.prepare ? await o.prepare(ac.signal) : undefined;
      const attach = { ...(extra?.context.length ? { context: extra.context } : {}), ...(extra?.images.length ? { images: extra.images } : {}) };
      const r = await this.engine.prompt(this.session, text, { signal: ac.signal, ...attach });
      // the engine usually said it already (an error or blocked notice; "stopped" for an abort): once is enough
      const told = r.reason === "aborted" || (r.error !== undefined && s.noticesThisPrompt.some((n) => n.includes(visible(r.error!))));
      if (r.error && !told) s.post({ kind: "notice", level: "error", text: r.error });
      else if (r.reason === "blocked" && !r.error) s.post({ kind: "notice", level: "warn", text: "the prompt was blocked" });
    } catch (e) {
      s.post({ kind: "notice", level: "error", text: e instanceof Error ? e.message : String(e) });
    } finally {
      if (this.running === ac) this.running = undefined;
      s.progress.end();
      this.turnEnded?.(s.progress.lastEnded?.ms ?? 0);
      s.busy = false;
      s.totals = this.session.totals;
      s.changed();
    }
  }

  /** A line that starts with `/`: a built-in runs here, a skill goes to the session, an unknown name is refused. */
  slash(text: string): Promise<void> {
    return this.input.submit(text);
  }

  /** Run `text` when it is a built-in slash command (busy or not); false when it is not one. */
  private async builtin(text: string): Promise<boolean> {
    const p = parseSlash(text);
    if (!p) return false;
    try {
      return await this.kernel.runSlash(p.name, p.args, this.slashHost());
    } catch (e) {
      this.store.post({ kind: "notice", level: "error", text: `/${p.name}: ${e instanceof Error ? e.message : String(e)}` });
      return true;
    }
  }

  private submitHost(): SubmitHost {
    const self = this;
    // read when used: this runs from a field initialiser
    const run = () => (self.engine as Partial<Pick<EngineService, "runTool">>).runTool;
    return {
      get store() {
        return self.store;
      },
      get cwd() {
        return self.opts.cwd;
      },
      session: () => self.session,
      get runTool() {
        const r = run();
        return r ? (session: Session, call: UserToolCall, o: { signal?: AbortSignal }) => r.call(self.engine, session, call, o) : undefined;
      },
      prompt: (text, o) => self.prompt(text, o),
      builtin: (text) => self.builtin(text),
      names: () => self.slashCommands().map((e) => e.name),
      pick: (title, items) =>
        new Promise<string | undefined>((resolve) => {
          self.store.picker = { title, items, index: 0, resolve, oneKey: true };
          self.store.changed();
        }),
      running: (ac) => (self.running = ac),
    };
  }

  /** called with a finished prompt's duration (the long-turn notification) */
  turnEnded?: (ms: number) => void;

  private pluginsService?: PluginsLike;
  private mcpService?: McpLike;

  private capSources(): CapSources {
    const sk = this.opts.skills;
    const skills = sk?.all && sk.setEnabled && sk.setEverythingOff ? (sk as SkillsLike & SkillsToggles) : undefined;
    return { project: this.opts.cwd, ...(skills ? { skills } : {}), ...(this.pluginsService ? { plugins: this.pluginsService } : {}), ...(this.mcpService ? { mcp: this.mcpService } : {}) };
  }

  /** Open the capabilities picker on `tab` (the plugins service is activated on first use). */
  async openCapabilities(tab: CapTab): Promise<void> {
    if (!this.pluginsService && this.opts.plugins) this.pluginsService = await this.opts.plugins().catch(() => undefined);
    if (!this.mcpService && this.opts.mcp) this.mcpService = await this.opts.mcp().catch(() => undefined);
    const { data, error } = readCapabilities(this.capSources());
    this.store.capabilities = { tab, index: 0, data, ...(error ? { message: error } : {}) };
    this.store.changed();
  }

  /** Space / `t` in the picker: the services change now (the next step re-folds), then the rows are re-read. */
  applyCapabilities(actions: CapAction[]): void {
    const c = this.store.capabilities;
    if (!c) return;
    const failed = applyCapabilities(this.capSources(), actions);
    const { data, error } = readCapabilities(this.capSources());
    c.data = data;
    c.message = failed ?? error;
    this.store.changed();
    // a server connects or disconnects in the background: its row is read again shortly after
    if (actions.some((a) => a.kind === "mcp" || a.kind === "mcp-trust" || a.kind === "everything")) setTimeout(() => this.rereadCapabilities(), 1500).unref();
  }

  private rereadCapabilities(): void {
    const c = this.store.capabilities;
    if (!c) return;
    c.data = readCapabilities(this.capSources()).data;
    this.store.changed();
  }

  /** The actions slash commands may call (see extensions/session-commands/api.ts). */
  slashHost(): PagerSlashHost {
    const self = this;
    return {
      hostKind: "pager",
      get sessionId() {
        return self.session?.info.id;
      },
      get session() {
        return self.session;
      },
      cwd: this.opts.cwd,
      reply: (text: string) => self.store.post({ kind: "reply", text }),
      table: (sections: HelpSection[]) => self.store.post({ kind: "table", sections }),
      currentModel: () => self.session.info.model,
      setModel: (id: string) => {
        self.session.info.model = id;
        self.store.model = id;
        self.store.changed();
      },
      newSession: async () => {
        self.running?.abort();
        const old = self.session;
        await self.openNew();
        await self.engine.closeSession(old, "clear").catch(() => undefined);
        return self.session.info.id;
      },
      resume: async (id: string) => {
        const next = await self.engine.openSession(id);
        const old = self.session;
        self.adopt(next);
        if (old !== next) await self.engine.closeSession(old, "resume").catch(() => undefined);
      },
      setMode: async (mode: "acceptEdits" | "bypassPermissions") => (await self.changeMode((m, s) => (mode === "acceptEdits" ? m.toggleAuto(s) : m.toggleAlwaysApprove(s))))?.message ?? "modes need the permissions extension (it is off)",
      exit: () => self.exit(0),
      prompt: async (text: string) => {
        if (self.store.busy) return false;
        await self.prompt(text);
        return true;
      },
      busy: () => self.store.busy,
      capabilities: (tab: CapTab) => void self.openCapabilities(tab),
      pick: (title: string, items: PickItem[], selected?: string) =>
        new Promise<string | undefined>((resolve) => {
          const index = Math.max(0, items.findIndex((i) => i.id === selected));
          const shown = items.map((i) => ({ ...i, label: visibleLine(i.label) }));
          self.store.picker = { title: visibleLine(title), items: shown, index, resolve };
          self.store.changed();
        }),
    };
  }
}

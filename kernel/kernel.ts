/**
 * The kernel: discovers extensions (manifests only), layers config, checks the dependency graph,
 * and activates extension code lazily. It has no features: with zero extensions it boots and does nothing.
 *
 *   discover()  walk + manifests + config + requirements + enable/disable/replace + graph checks (no extension code)
 *   start()     kernel hooks, container, onStartup activation, trust gate for held roots
 *   activate()  fire an activation event; runCommand() / runSlash() dispatch contributions
 */
import type { AwilixContainer } from "awilix";
import { OcError, ErrorCodes, errorMessage, hasErrorCode } from "./errors.js";
import { DiscoveryWalk, type Root, type Reader, type WalkItem } from "./walk.js";
import type { CommandContribution } from "./manifest.js";
import type { ResolvedConfig } from "./config.js";
import type { RequirementsState } from "./requirements.js";
import type { Point } from "./points.js";
import type { ScopedConfig } from "./scoped-config.js";
import { KERNEL_VERSION } from "./version.js";
import { withinMs } from "./within.js";
import { discover, type Discovery, type ExtRecord, type KernelOptions } from "./discovery.js";
import type { KernelInternals } from "./context.js";
import type { Paths } from "./paths.js";
import type { KernelHooks } from "./kernel-hooks.js";
import type { HookErrorLog, HookRuntime } from "./hooks.js";
import type {
  CommandHandler,
  CommandIO,
  ContributionView,
  ExtensionInfo,
  ExtensionState,
  KernelIntrospection,
  Logger,
  LogLevelName,
  LogRecordFields,
  LogSink,
  PointContribution,
  ServiceMap,
  ServiceName,
  SlashHandler,
  SlashHost,
} from "./api.js";

/** Milliseconds for boot and load timings: process.hrtime, because the `performance` global loads perf_hooks (~10 internal modules) on a `--help` that needs none of it. */
const nowMs = (): number => Number(process.hrtime.bigint()) / 1e6;

export type { KernelOptions } from "./discovery.js";

/** Default activation timeout (ms); OC_ACTIVATION_TIMEOUT_MS overrides it. */
export const DEFAULT_ACTIVATION_TIMEOUT_MS = 10_000;

export function stderrLogger(verbose: boolean): Logger {
  const w = (lvl: string, m: string) => process.stderr.write(`oceancode: ${lvl}${m}\n`);
  return {
    debug: (m) => verbose && w("", m),
    info: (m) => verbose && w("", m),
    warn: (m) => w("warning: ", m),
    error: (m) => w("error: ", m),
  };
}

/** code-point order: localeCompare would load ICU collation (~30 ms) on every --help */
function byName(a: { name: string }, b: { name: string }): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

export class Kernel {
  readonly paths: Paths;
  readonly env: NodeJS.ProcessEnv;
  log: Logger;
  readonly walk: DiscoveryWalk;
  private records: ExtRecord[] = [];
  private byId = new Map<string, ExtRecord>();
  private serviceProvider = new Map<string, ExtRecord>();
  private commandOwner = new Map<string, ExtRecord>();
  private slashOwner = new Map<string, ExtRecord>();
  private commandHandlers = new Map<string, CommandHandler>();
  private slashHandlers = new Map<string, SlashHandler>();
  private readers = new Map<string, Reader<WalkItem>>();
  private points = new Map<string, Point>();
  private container?: AwilixContainer;
  private asValue?: typeof import("awilix").asValue;
  private ScopedConfig?: typeof ScopedConfig;
  /** activation and context helpers, loaded at start (a --help never needs them) */
  private act!: typeof import("./activation.js") & typeof import("./context.js");
  private hooksObj?: KernelHooks;
  /** one start per kernel: concurrent and repeated start() calls share it */
  private startPromise?: Promise<void>;
  /** this kernel's hook error sink and tap timeout (set at start) */
  private hookErrorLog?: HookErrorLog;
  private hookRuntime?: HookRuntime;
  /** hooks objects extensions bound, and the function that lists a hooks object's stages and taps */
  private readonly boundHooks: object[] = [];
  private orderOf?: typeof import("./hooks.js").hookOrder;
  private trustCache = new Map<string, boolean>();
  private ctxInternals?: KernelInternals;
  config!: ResolvedConfig;
  requirements!: RequirementsState;
  private files!: Discovery["files"];
  readonly warnings: string[] = [];
  private bootStart = nowMs();
  bootMs = 0;

  private constructor(private readonly opts: KernelOptions) {
    this.paths = opts.paths;
    this.env = opts.env ?? process.env;
    this.log = opts.log ?? stderrLogger(false);
    this.walk = new DiscoveryWalk({ paths: opts.paths, bundled: opts.bundled });
  }

  /** Discover everything from manifests and config files. Runs no extension code. */
  static async discover(opts: KernelOptions): Promise<Kernel> {
    const k = new Kernel(opts);
    await k.discoverAll();
    return k;
  }

  get hooks(): KernelHooks {
    if (!this.hooksObj) throw new Error("kernel not started");
    return this.hooksObj;
  }

  private async discoverAll(): Promise<void> {
    const d = await discover(this.opts, this.env, this.walk, this.warnings);
    this.records = d.records;
    this.byId = d.byId;
    this.serviceProvider = d.owners.service;
    this.commandOwner = d.owners.command;
    this.slashOwner = d.owners.slash;
    this.points = d.points;
    this.config = d.config;
    this.requirements = d.requirements;
    this.files = d.files;
    this.bootMs = nowMs() - this.bootStart;
  }

  /** Commands contributed by enabled (or held) extensions, from manifests alone. */
  commands(): Array<CommandContribution & { extension: string; state: ExtensionState }> {
    return [...this.commandOwner.entries()]
      .map(([name, rec]) => {
        const c = rec.manifest!.contributes!.commands!.find((x) => x.name === name)!;
        return { ...c, extension: rec.id, state: rec.state };
      })
      .sort(byName);
  }

  slashCommands(): Array<{ name: string; usage?: string; summary: string; extension: string }> {
    const out: Array<{ name: string; usage?: string; summary: string; extension: string }> = [];
    for (const rec of this.byId.values()) {
      if (rec.state !== "lazy" && rec.state !== "active") continue;
      for (const c of rec.manifest!.contributes?.slashCommands ?? []) out.push({ name: c.name, usage: c.usage, summary: c.summary, extension: rec.id });
    }
    return out.sort(byName);
  }

  /**
   * Start: kernel hooks, container, onStartup activation, trust gate. Idempotent and safe to call
   * concurrently: every caller awaits the same start.
   */
  start(): Promise<void> {
    this.startPromise ??= this.startOnce();
    return this.startPromise;
  }

  private async startOnce(): Promise<void> {
    const [{ createContainer, InjectionMode, asValue }, { createKernelHooks }, { setHookErrorSink, setTapTimeoutMs, bindHooks, HookErrorLog, DEFAULT_TAP_TIMEOUT_MS, hookOrder }, { ScopedConfig }, activation, context] = await Promise.all([
      import("awilix"),
      import("./kernel-hooks.js"),
      import("./hooks.js"),
      import("./scoped-config.js"),
      import("./activation.js"),
      import("./context.js"),
    ]);
    this.ScopedConfig = ScopedConfig;
    this.orderOf = hookOrder;
    this.act = { ...activation, ...context };
    // one hook error sink per kernel: each (hook, tap, code) is shown once on the log, all are kept for doctor/inspect
    const log = new HookErrorLog((line) => this.logLine("error", line));
    this.hookErrorLog = log;
    this.hookRuntime = {
      sink: log.sink,
      tapTimeoutMs: this.act.positiveMs(this.env.OC_TAP_TIMEOUT_MS, DEFAULT_TAP_TIMEOUT_MS),
      // an extension that failed after tapping (e.g. its activate() timed out) is out: its taps stop running
      skip: (tap) => this.byId.get(tap)?.state === "failed",
    };
    // hooks nobody bound (created outside any kernel) report here too, while this kernel is the latest started
    setHookErrorSink(log.sink);
    setTapTimeoutMs(this.hookRuntime.tapTimeoutMs);
    this.container = createContainer({ injectionMode: InjectionMode.PROXY, strict: true });
    this.asValue = asValue;
    this.hooksObj = bindHooks(createKernelHooks(), this.hookRuntime);
    // onStartup extensions activate first so they can tap boot and configResolved (nothing else could)
    await this.activate("onStartup");
    await this.hooksObj.boot.call({ project: this.paths.project });
    await this.hooksObj.configResolved.call(this.config);
    for (const rec of this.records) {
      if (rec.state === "held" && rec.heldFor === "untrusted" && (await this.isTrusted(rec.root, "extension", rec.id))) {
        rec.state = "lazy";
        rec.reason = undefined;
        rec.heldFor = undefined;
      }
    }
    await this.activate("onStartup");
    await this.hooksObj.extensionsActivated.call({ active: this.records.filter((r) => r.state === "active").map((r) => r.id) });
  }

  async isTrusted(root: Root, kind = "extension", name?: string): Promise<boolean> {
    if (root.trustedByDefault) return true;
    if (root.plugin && !root.plugin.enabled) return false;
    if (!this.hooksObj) return false;
    const key = `${root.tier}|${root.dir}|${kind}|${name ?? ""}`;
    const cached = this.trustCache.get(key);
    if (cached !== undefined) return cached;
    const v = (await this.hooksObj.trust.call({ root, kind, name })) === true;
    this.trustCache.set(key, v);
    return v;
  }

  /** Fire an activation event: every lazy extension listening to it activates (dependencies first). */
  async activate(event: string): Promise<void> {
    // start outside any extension's activation promise (start activates onStartup extensions itself)
    if (!this.container) await this.start();
    const targets = this.records.filter((r) => r.state === "lazy" && this.act.listensTo(r.manifest!, event));
    for (const rec of targets) this.act.prefetchExtension(rec);
    for (const rec of targets) {
      try {
        await this.activateRecord(rec, []);
      } catch (e) {
        // reported and disabled; the others still load
        this.logLine("error", errorMessage(e));
      }
    }
  }

  /**
   * Activate one extension (dependencies first). The activation promise is set synchronously, before
   * any await, so concurrent callers (service() during start, two events) share one activate() run and
   * see the same outcome.
   */
  private activateRecord(rec: ExtRecord, chain: string[]): Promise<void> {
    if (rec.state === "active") return Promise.resolve();
    if (rec.activating) return rec.activating;
    if (rec.state !== "lazy") {
      return Promise.reject(new OcError(ErrorCodes.ACTIVATION_FAILED, `extension '${rec.id}' cannot be activated: ${rec.state}${rec.reason ? ` (${rec.reason})` : ""}`));
    }
    if (!this.container) return this.start().then(() => this.activateRecord(rec, chain));
    rec.activating = this.runActivation(rec, chain);
    return rec.activating;
  }

  private async runActivation(rec: ExtRecord, chain: string[]): Promise<void> {
    const m = rec.manifest!;
    // its module, and those of the extensions it requires, load side by side while its dependencies activate
    for (const r of [rec, ...(m.requires ?? []).map((s) => this.serviceProvider.get(s)!)]) if (r.state === "lazy") this.act.prefetchExtension(r);
    for (const s of m.requires ?? []) {
      const dep = this.serviceProvider.get(s)!;
      if (dep === rec) continue;
      try {
        await this.activateRecord(dep, [...chain, rec.id]);
      } catch (e) {
        rec.state = "failed";
        rec.reason = `its dependency '${dep.id}' failed: ${errorMessage(e)}`;
        throw new OcError(ErrorCodes.ACTIVATION_FAILED, `extension '${rec.id}' (${rec.dir}) not activated: required extension '${dep.id}' (${dep.dir}) failed`, { cause: e });
      }
    }
    for (const s of m.optional ?? []) {
      const dep = this.serviceProvider.get(s);
      // a passive provider (serve, inspect) is used when something else activated it: a plain run loads neither
      if (dep && dep !== rec && dep.state === "lazy" && dep.manifest!.passive !== true) await this.activateRecord(dep, [...chain, rec.id]).catch(() => undefined);
    }
    const t0 = nowMs();
    const limit = this.act.positiveMs(this.env.OC_ACTIVATION_TIMEOUT_MS, DEFAULT_ACTIVATION_TIMEOUT_MS);
    try {
      // a module that never finishes loading or an activate() that never settles must not hang the program
      await withinMs(
        (async () => {
          const ext = await this.act.loadExtension(rec);
          rec.module = ext;
          rec.scope = this.container!.createScope();
          await ext.activate(this.act.contextFor(rec, this, this.contextInternals()));
        })(),
        limit,
        () =>
          new OcError(ErrorCodes.ACTIVATION_TIMEOUT, `extension '${rec.id}' (${rec.dir}) did not finish activating within ${limit} ms and was disabled`, {
            hint: "OC_ACTIVATION_TIMEOUT_MS sets the limit",
          }),
      );
      for (const s of m.provides ?? []) {
        if (!rec.scope!.hasRegistration(s)) {
          throw new OcError(ErrorCodes.SERVICE_NOT_PROVIDED, `extension '${rec.id}' declares service '${s}' in "provides" but did not register it`);
        }
      }
      rec.state = "active";
      rec.loadMs = nowMs() - t0;
    } catch (e) {
      rec.state = "failed";
      rec.loadMs = nowMs() - t0;
      rec.reason = errorMessage(e);
      if (hasErrorCode(e, ErrorCodes.ACTIVATION_TIMEOUT)) throw e;
      throw new OcError(ErrorCodes.ACTIVATION_FAILED, `extension '${rec.id}' (${rec.dir}) failed to activate and was disabled: ${errorMessage(e)}`, { cause: e });
    }
  }

  /** The kernel internals extension contexts use (built once, after start set its parts). */
  private contextInternals(): KernelInternals {
    return (this.ctxInternals ??= {
      hookRuntime: this.hookRuntime!,
      ScopedConfig: this.ScopedConfig!,
      asValue: this.asValue!,
      serviceProvider: this.serviceProvider,
      commandOwner: this.commandOwner,
      slashOwner: this.slashOwner,
      commandHandlers: this.commandHandlers,
      slashHandlers: this.slashHandlers,
      readers: this.readers,
      boundHooks: this.boundHooks,
    });
  }

  /** Hosts that own the terminal (the pager) route kernel and extension log lines to their own sink. */
  setLogger(log: Logger): void {
    this.log = log;
  }

  private logSink?: LogSink;
  /** One log line: the structured sink (obs) sees it at every level, the display shows `[ext] text`. */
  readonly logLine = (level: LogLevelName, msg: string, fields: LogRecordFields = {}): void => {
    let text = msg;
    try {
      if (this.logSink) text = this.logSink(level, msg, fields);
    } catch {
      // a failing sink never breaks the caller; the line is still shown
    }
    // trace is for the log file only: -v shows debug and up, as it always has
    if (level !== "trace") this.log[level](typeof fields.ext === "string" ? `[${fields.ext}] ${text}` : text, fields);
  };

  attachLogSink(sink: LogSink): boolean {
    if (this.logSink) return false;
    this.logSink = sink;
    return true;
  }

  /**
   * For hosts: activate the provider of a service and resolve it. Hosts drive sessions through
   * services and never import extension code.
   */
  async service<K extends ServiceName>(name: K): Promise<ServiceMap[K]>;
  async service(name: string): Promise<unknown>;
  async service(name: string): Promise<unknown> {
    const rec = this.serviceProvider.get(name);
    if (!rec) throw new OcError(ErrorCodes.SERVICE_NOT_PROVIDED, `no enabled extension provides service '${name}'`, { hint: "see oceancode inspect" });
    await this.start();
    await this.activateRecord(rec, []);
    return rec.scope!.resolve<unknown>(name);
  }

  /** Tap failures and timeouts so far (this kernel's hook error sink). */
  hookErrors(): import("./hooks.js").HookFailure[] {
    return this.hookErrorLog?.list() ?? [];
  }

  hasService(name: string): boolean {
    return this.serviceProvider.has(name);
  }

  contributions(): ContributionView[] {
    return [...this.byId.values()]
      .filter((r) => r.state === "lazy" || r.state === "active")
      .map((r) => ({ extension: r.id, tier: r.root.tier, manifest: r.manifest! }));
  }

  /** What live extensions contribute to a point, with the contributing extension. */
  pointContributions<T = unknown>(point: string): Array<PointContribution<T>> {
    return this.contributions()
      .filter((c) => c.manifest.contributes?.[point] !== undefined)
      .map((c) => ({ extension: c.extension, tier: c.tier, value: structuredClone(c.manifest.contributes![point]) as T }));
  }

  /** Contribution points live extensions declare (name, owner, doc). */
  contributionPoints(): Array<{ name: string; owner: string; doc: string }> {
    return [...this.points.values()].map((p) => ({ name: p.name, owner: p.owner, doc: p.doc }));
  }

  /** Activate the owner of a CLI subcommand and run it. Returns undefined when nobody contributes it. */
  async runCommand(name: string, argv: string[], io: CommandIO): Promise<number | undefined> {
    const owner = this.commandOwner.get(name);
    if (!owner) return undefined;
    if (owner.state === "held") {
      throw new OcError(ErrorCodes.ACTIVATION_FAILED, `command '${name}' comes from extension '${owner.id}' (${owner.root.tier} tier), which is ${owner.reason}`, {
        hint: owner.heldFor === "untrusted" ? "trust the project with: oceancode trust repo on" : "enable the plugin",
      });
    }
    await this.start();
    await this.activate(`onCommand:${name}`);
    if (owner.state !== "active") {
      throw new OcError(ErrorCodes.ACTIVATION_FAILED, `command '${name}' is unavailable: extension '${owner.id}' is ${owner.state}${owner.reason ? ` (${owner.reason})` : ""}`);
    }
    const h = this.commandHandlers.get(name);
    if (!h) throw new OcError(ErrorCodes.ACTIVATION_FAILED, `extension '${owner.id}' contributes command '${name}' but registered no handler for it`);
    return h(argv, io);
  }

  /** Run a slash command; false when no extension contributes it. */
  async runSlash(name: string, args: string, host: SlashHost): Promise<boolean> {
    const owner = this.slashOwner.get(name);
    if (!owner || (owner.state !== "lazy" && owner.state !== "active")) return false;
    await this.activate(`onSlash:${owner.manifest!.contributes!.slashCommands!.find((c) => c.name === name || c.aliases?.includes(name))!.name}`);
    const h = this.slashHandlers.get(name);
    if (!h) throw new OcError(ErrorCodes.ACTIVATION_FAILED, `extension '${owner.id}' contributes /${name} but registered no handler`);
    await h(args, host);
    return true;
  }

  introspect(): KernelIntrospection {
    const extensions: ExtensionInfo[] = this.records.map((r) => ({
      id: r.id,
      qualifiedId: r.qualifiedId,
      version: r.manifest?.version,
      tier: r.root.tier,
      dir: r.dir,
      codeDir: r.codeDir,
      state: r.state,
      reason: r.reason,
      loadMs: r.loadMs,
      manifest: r.manifest,
    }));
    return {
      kernelVersion: KERNEL_VERSION,
      extensions,
      config: this.config,
      configFiles: { ...this.files, requirements: this.requirements.file },
      requirements: {
        status: this.requirements.status,
        file: this.requirements.file,
        reason: "reason" in this.requirements ? this.requirements.reason : undefined,
        requirements: this.requirements.status === "applied" ? structuredClone(this.requirements.requirements) : undefined,
      },
      warnings: [...this.warnings],
      bootMs: this.bootMs,
      hookErrors: this.hookErrors(),
      hooks: this.orderOf && this.hooksObj ? [this.hooksObj, ...this.boundHooks].flatMap((h) => this.orderOf!(h)) : [],
      points: this.contributionPoints().map((p) => ({ ...p, contributors: this.pointContributions(p.name).map((c) => c.extension) })),
    };
  }

  async shutdown(reason = "exit"): Promise<void> {
    if (!this.hooksObj) return;
    await this.hooksObj.shutdown.call({ reason });
    for (const r of this.records) {
      if (r.state === "active" && r.module?.deactivate) {
        try {
          await r.module.deactivate();
        } catch (e) {
          this.logLine("error", `extension '${r.id}' failed to deactivate: ${errorMessage(e)}`);
        }
      }
    }
  }
}

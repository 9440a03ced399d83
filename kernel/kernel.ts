/**
 * The kernel: discovers extensions (manifests only), layers config, checks the dependency graph,
 * and activates extension code lazily. It has no features: with zero extensions it boots and does nothing.
 *
 *   discover()  walk + manifests + config + requirements + enable/disable/replace + graph checks (no extension code)
 *   start()     kernel hooks, container, onStartup activation, trust gate for held roots
 *   activate()  fire an activation event; runCommand() / runSlash() dispatch contributions
 */
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { AwilixContainer } from "awilix";
import { OcError, ErrorCodes, errorMessage, hasErrorCode } from "./errors.js";
import { DiscoveryWalk, qualify, type Root, type Reader, type WalkItem, type Discovered } from "./walk.js";
import { readManifest, extensionFolders, bundledFromIndex, type CommandContribution, type Manifest, type ManifestEntry } from "./manifest.js";
import { configFiles, readLayers, loadConfig, hostLayer, ResolvedConfig, type HostSetting, type SectionSchema } from "./config.js";
import { loadRequirements, checkSections, type RequirementsState, type RequirementsSection } from "./requirements.js";
import { registerPoints, checkContributions, type Point } from "./points.js";
import { declaredEcosystems } from "./ecosystems.js";
import type { ScopedConfig } from "./scoped-config.js";
import { repoTrustedOnDisk } from "./trust-file.js";
import { KERNEL_VERSION } from "./version.js";
import { withinMs } from "./within.js";
import { extensionControl, checkedPins, satisfies, KERNEL_CONFIG_SCHEMA } from "./control.js";
import type { Paths } from "./paths.js";
import type { KernelHooks } from "./kernel-hooks.js";
import type { HookErrorLog, HookRuntime } from "./hooks.js";
import type {
  CommandHandler,
  CommandIO,
  ContributionView,
  Extension,
  ExtensionContext,
  ExtensionInfo,
  ExtensionState,
  KernelIntrospection,
  Logger,
  PointContribution,
  SlashHandler,
  SlashHost,
} from "./api.js";
import fs from "node:fs";

export interface KernelOptions {
  paths: Paths;
  env?: NodeJS.ProcessEnv;
  /** bundled root: manifests under `dir`/extensions, compiled code under `codeDir`/extensions. Omit for a bare kernel. */
  bundled?: { dir: string; codeDir: string };
  log?: Logger;
  /** diagnostic hosts (doctor, inspect): broken config files and sections become warnings, so they always run */
  tolerant?: boolean;
  /** the host's command-line settings (--model, --db, --directory, ...): the host config layer, over every file */
  hostSettings?: HostSetting[];
}

/** The kernel's record of one extension: what introspection shows (ExtensionInfo) plus its root and runtime. */
interface ExtRecord extends Pick<ExtensionInfo, "id" | "qualifiedId" | "dir" | "manifest" | "state" | "reason" | "loadMs"> {
  root: Root;
  codeDir: string;
  /** its manifest came from the build-time index (contributions to bundled points checked at build) */
  prevalidated?: boolean;
  /** held roots wait for the trust gate */
  heldFor?: "untrusted" | "disabled plugin";
  activating?: Promise<void>;
  module?: Extension;
  scope?: AwilixContainer;
}

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
  /** requirements sections: who owns each (contributes.requirements) */
  private requirementSections: RequirementsSection[] = [];
  private container?: AwilixContainer;
  private asValue?: typeof import("awilix").asValue;
  private ScopedConfig?: typeof ScopedConfig;
  private hooksObj?: KernelHooks;
  /** one start per kernel: concurrent and repeated start() calls share it */
  private startPromise?: Promise<void>;
  /** this kernel's hook error sink and tap timeout (set at start) */
  private hookErrorLog?: HookErrorLog;
  private hookRuntime?: HookRuntime;
  private trustCache = new Map<string, boolean>();
  /** trust.json says repo=true for this project (read at discovery: config is gated before extension code runs) */
  private repoTrusted = false;
  config!: ResolvedConfig;
  requirements!: RequirementsState;
  private files!: ReturnType<typeof configFiles>;
  readonly warnings: string[] = [];
  private bootStart = performance.now();
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
    this.files = configFiles(this.paths, this.env);
    // a repo-tier .oceancode/ (tracked by the checkout): its committed config files are tighten-only until trusted
    const repoRoot = this.walk.roots().find((r) => r.tier === "repo" && r.ecosystem === "oceancode");
    this.repoTrusted = repoTrustedOnDisk(this.paths.userOcDir, this.paths.project);
    const committed = new Set((repoRoot?.tracked ?? []).map((f) => path.resolve(this.paths.project, f)));
    const rawLayers = readLayers(
      this.files,
      (file) => !this.repoTrusted && committed.has(file),
      this.opts.tolerant ? (e) => this.warnings.push(`${e.code}: ${e.message} (file ignored)`) : undefined,
    );
    const managedDir = path.dirname(this.files.managed);
    this.requirements = loadRequirements(path.join(managedDir, "requirements.json"), this.env.OC_REQUIREMENTS_PUBKEY);
    if (this.requirements.status === "refused") {
      this.warnings.push(`${ErrorCodes.REQUIREMENTS_REFUSED}: ${this.requirements.reason}; requirements not applied`);
    }
    const control = extensionControl(rawLayers.filter((l) => !l.untrusted));

    // 1. manifests; the first copy of an id wins, trusted roots before held ones (a held extension never displaces a trusted one)
    const found: Array<{ item: ManifestEntry; root: Root }> = [];
    for (const root of this.walk.roots()) {
      if (root.ecosystem !== "oceancode") continue;
      const entries = bundledFromIndex(root) ?? (await Promise.all(extensionFolders(root).map((f) => readManifest(f.dir, f.codeDir, f.folder))));
      for (const item of entries) found.push({ item, root });
    }
    const ordered = [...found.filter((f) => this.rootTrusted(f.root)), ...found.filter((f) => !this.rootTrusted(f.root))];
    const winner = new Map<string, Root>();
    for (const d of qualify(ordered)) {
      const e = d.item;
      const rec: ExtRecord = { id: e.name, qualifiedId: d.qualifiedName, root: d.root, dir: e.dir, codeDir: e.codeDir, manifest: e.manifest, state: "lazy", prevalidated: e.prevalidated };
      this.records.push(rec);
      if (d.shadowed) {
        const won = winner.get(e.name)!;
        rec.state = "shadowed";
        rec.reason = this.rootTrusted(d.root)
          ? `a narrower tier's '${e.name}' wins`
          : `held: untrusted; '${e.name}' is taken by the trusted ${won.tier} extension (a held extension never displaces a trusted one)`;
        continue;
      }
      winner.set(e.name, d.root);
      this.byId.set(rec.id, rec);
      if (e.error) {
        rec.state = control.disabled.has(e.name) ? "disabled" : "failed";
        rec.reason = control.disabled.has(e.name) ? `disabled by ${control.disabled.get(e.name)}` : errorMessage(e.error);
        if (rec.state === "failed") this.warnings.push(`extension '${e.name}' (${rec.root.tier}) failed: ${errorMessage(e.error)}`);
      }
    }
    // a trusted extension that stands where a bundled safety extension would: allowed, never silent
    for (const rec of this.records) {
      if (rec.state === "shadowed" && rec.root.tier === "bundled" && rec.manifest?.safety && this.byId.get(rec.id)?.root.tier !== "bundled") {
        const by = this.byId.get(rec.id)!;
        this.warnings.push(`the safety extension '${rec.id}' is replaced by the ${by.root.tier} extension in ${by.dir}`);
      }
    }

    // 2. enable / disable / replace / requirements / trust holds
    const req = this.requirements.status === "applied" ? this.requirements.requirements : undefined;
    const locked = new Set(req?.extensions?.locked ?? []);
    const allow = req?.extensions?.allow ? new Set(req.extensions.allow) : undefined;
    for (const rec of this.byId.values()) {
      const m = rec.manifest!;
      if (rec.state !== "lazy") continue;
      if (!satisfies(KERNEL_VERSION, m.kernel)) {
        rec.state = "disabled";
        rec.reason = `${ErrorCodes.KERNEL_RANGE}: needs kernel ${m.kernel}, this is ${KERNEL_VERSION}`;
        this.warnings.push(`extension '${rec.id}' (${rec.dir}) ${rec.reason}`);
        continue;
      }
      if (allow && rec.root.tier !== "bundled" && !allow.has(rec.id)) {
        rec.state = "disabled";
        rec.reason = `not in the requirements allow-list (${this.requirements.file})`;
        continue;
      }
      const by = control.disabled.get(rec.id);
      if (by && !locked.has(rec.id)) {
        rec.state = "disabled";
        rec.reason = `disabled by ${by}`;
        if (m.safety) this.warnings.push(`the safety extension '${rec.id}' is disabled by ${by}`);
        continue;
      }
      if (by && locked.has(rec.id)) this.warnings.push(`extension '${rec.id}' is locked on by ${this.requirements.file}; ignoring the disable in ${by}`);
    }
    for (const [target, replacement] of Object.entries(control.replace)) {
      const t = this.byId.get(target);
      const r = this.byId.get(replacement);
      if (!t || !r) throw new OcError(ErrorCodes.REPLACE_INVALID, `extensions.replace names '${!t ? target : replacement}', which is not installed`, { hint: "check the ids with oceancode inspect" });
      if (r.manifest?.replaces !== target) {
        throw new OcError(ErrorCodes.REPLACE_INVALID, `extension '${replacement}' cannot replace '${target}': its manifest does not declare "replaces": "${target}"`);
      }
      const missing = (t.manifest?.provides ?? []).filter((s) => !(r.manifest?.provides ?? []).includes(s));
      if (missing.length) throw new OcError(ErrorCodes.REPLACE_INVALID, `extension '${replacement}' cannot replace '${target}': it does not provide ${missing.join(", ")}`);
      if (locked.has(target)) throw new OcError(ErrorCodes.REPLACE_INVALID, `extension '${target}' is locked by ${this.requirements.file} and cannot be replaced`);
      t.state = "disabled";
      t.reason = `replaced by '${replacement}'`;
      if (t.manifest?.safety) this.warnings.push(`the safety extension '${target}' is replaced by '${replacement}' (${r.root.tier}: ${r.dir})`);
    }
    for (const rec of this.byId.values()) {
      const rep = rec.manifest?.replaces;
      if (rec.state === "lazy" && rep && control.replace[rep] !== rec.id) {
        rec.state = "disabled";
        rec.reason = `stands in for '${rep}'; select it with extensions.replace {"${rep}": "${rec.id}"}`;
      }
      if (rec.state === "lazy" && !rec.root.trustedByDefault) {
        rec.state = "held";
        rec.heldFor = rec.root.plugin && !rec.root.plugin.enabled ? "disabled plugin" : "untrusted";
        rec.reason = `held: ${rec.heldFor}`;
      }
    }

    // other ecosystems' roots come from enabled, trusted extensions' manifests (ecosystems.ts checks the tier)
    const declarers = [...this.byId.values()].filter((r) => r.state === "lazy");
    const eco = await declaredEcosystems(declarers.map((r) => ({ id: r.id, tier: r.root.tier, codeDir: r.codeDir, manifest: r.manifest })), this.paths, (m) => this.warnings.push(m));
    if (eco.roots.length || eco.plugins.length) this.walk.addEcosystems(eco.roots, eco.plugins);

    // 3. contribution points, services, commands, slash commands: add-only registries
    let live = [...this.byId.values()].filter((r) => r.state === "lazy" || r.state === "held");
    live = this.dropHeldCollisions(live);
    live = await this.checkPoints(live);
    // bundled extensions register first: an extension that clashes with one without declaring "replaces" is the one that fails
    live = [...live.filter((r) => r.root.tier === "bundled"), ...live.filter((r) => r.root.tier !== "bundled")].filter((rec) => this.register(rec));
    live = this.dropUnmetDependencies(live);
    for (const reg of [this.serviceProvider, this.commandOwner, this.slashOwner]) for (const [k, r] of reg) if (r.state === "failed") reg.delete(k);
    this.checkCycles(live);

    // 4. config. Section schemas come from live extensions whose code is trusted (a held one could
    // otherwise mark its own keys safe for an untrusted layer); the first declaration of a section wins.
    const sections: SectionSchema[] = [];
    const known = new Set<string>(["extensions"]);
    for (const rec of this.records) for (const c of rec.manifest?.contributes?.config ?? []) known.add(c.section);
    for (const rec of live) {
      if (!this.rootTrusted(rec.root)) continue;
      for (const c of rec.manifest!.contributes?.config ?? []) {
        if (sections.some((x) => x.section === c.section)) {
          this.warnings.push(`extension '${rec.id}' declares config section '${c.section}', which '${sections.find((x) => x.section === c.section)!.owner}' already owns; its schema is ignored`);
          continue;
        }
        const file = path.join(rec.dir, c.schema);
        let schema: object;
        try {
          schema = JSON.parse(fs.readFileSync(file, "utf8")) as object;
        } catch (e) {
          throw new OcError(ErrorCodes.MANIFEST_INVALID, `${file}: cannot read the config schema of '${rec.id}' (${errorMessage(e)})`);
        }
        sections.push({ section: c.section, schema, owner: rec.id, removed: c.removed, aliases: c.aliases });
      }
    }
    sections.push({ section: "extensions", schema: KERNEL_CONFIG_SCHEMA, owner: "kernel" });
    for (const rec of live) {
      if (!this.rootTrusted(rec.root)) continue;
      for (const r of rec.manifest!.contributes?.requirements ?? []) {
        if (!this.requirementSections.some((x) => x.section === r.section)) this.requirementSections.push({ section: r.section, owner: rec.id, schemaFile: path.join(rec.dir, r.schema) });
      }
    }
    if (this.requirements.status === "applied") {
      const checked = checkSections(this.requirements.requirements, this.requirements.file, this.requirementSections);
      this.requirements = { ...this.requirements, requirements: checked.requirements };
      for (const r of checked.refused) this.warnings.push(`${ErrorCodes.REQUIREMENTS_REFUSED}: ${r}`);
    }
    const pins = checkedPins(req?.config, sections);
    for (const key of pins.refused) {
      this.warnings.push(`${ErrorCodes.REQUIREMENTS_REFUSED}: ${this.requirements.file}: the pin '${key}' names a config key no extension declares; that pin is invalid and not applied`);
    }
    this.config = loadConfig({
      layers: rawLayers,
      sections,
      pins: pins.valid,
      pinsFile: this.requirements.file,
      knownSections: [...known],
      tolerant: this.opts.tolerant,
      env: this.env,
      host: this.opts.hostSettings?.length ? hostLayer(this.opts.hostSettings) : undefined,
    });
    this.warnings.push(...this.config.warnings);
    for (const h of this.config.held) {
      this.warnings.push(`${h.file}: held until you trust this project (oceancode trust repo on): ${h.keys.join(", ")}`);
    }
    this.bootMs = performance.now() - this.bootStart;
  }

  /**
   * Add an extension's services, commands and slash commands to the add-only registries. A clash is a
   * coded error that fails this extension (named in a warning), never the boot: the first one keeps it.
   */
  private register(rec: ExtRecord): boolean {
    const owners = { service: this.serviceProvider, command: this.commandOwner, slash: this.slashOwner };
    const mine = claims(rec.manifest!);
    const taken = mine.find((c) => owners[c.kind].has(c.name));
    if (taken) {
      const pair = `extensions '${owners[taken.kind].get(taken.name)!.id}' and '${rec.id}' both`;
      const clash =
        taken.kind === "service"
          ? new OcError(ErrorCodes.DUPLICATE_SERVICE, `${pair} provide ${taken.label}`, { hint: `disable one, or declare "replaces" and select it with extensions.replace` })
          : new OcError(ErrorCodes.DUPLICATE_COMMAND, `${pair} contribute the ${taken.label}`, { hint: "disable one of them" });
      rec.state = "failed";
      rec.reason = clash.toLine();
      this.warnings.push(`${clash.toLine()}; '${rec.id}' is not loaded`);
      return false;
    }
    for (const c of mine) owners[c.kind].set(c.name, rec);
    return true;
  }

  /**
   * Register the contribution points live extensions declare (bundled first, held ones last: a held
   * extension never takes a name from a trusted one), then check every live extension's contributions
   * against them. A failure marks only that extension failed, with a warning.
   */
  private async checkPoints(live: ExtRecord[]): Promise<ExtRecord[]> {
    const rank = (r: ExtRecord) => (r.root.tier === "bundled" ? 0 : this.rootTrusted(r.root) ? 1 : 2);
    const ordered = [...live].sort((a, b) => rank(a) - rank(b));
    const holders = ordered.map((r) => ({ id: r.id, dir: r.dir, manifest: r.manifest, prevalidated: r.prevalidated, rec: r }));
    const { points, failed } = registerPoints(holders);
    this.points = points;
    const declared = new Set(this.records.flatMap((r) => (r.manifest?.contributionPoints ?? []).map((p) => p.name)));
    for (const h of holders) {
      const err = failed.get(h) ?? (await checkContributions(h, points, declared));
      if (!err) continue;
      h.rec.state = "failed";
      h.rec.reason = err.toLine();
      this.warnings.push(`extension '${h.id}' (${h.rec.root.tier}) failed: ${err.toLine()}`);
    }
    for (const [name, p] of points) if (this.byId.get(p.owner)?.state === "failed") points.delete(name);
    return live.filter((r) => r.state !== "failed");
  }

  /** Is this root's code trusted, as far as the files on disk say? (the trust hook may still hold it at start) */
  private rootTrusted(root: Root): boolean {
    if (root.trustedByDefault) return true;
    if (root.tier === "repo") return this.repoTrusted;
    return root.plugin?.enabled === true && root.plugin.trusted === true;
  }

  /** A held extension whose service, command or slash name a trusted one has loses it (and never breaks the boot). */
  private dropHeldCollisions(live: ExtRecord[]): ExtRecord[] {
    const names = (r: ExtRecord) => claims(r.manifest!).map((c) => c.label);
    const taken = new Map<string, ExtRecord>();
    for (const r of live) if (this.rootTrusted(r.root)) for (const n of names(r)) taken.set(n, r);
    return live.filter((r) => {
      if (this.rootTrusted(r.root)) return true;
      const clash = names(r).find((n) => taken.has(n));
      if (!clash) return true;
      r.state = "shadowed";
      r.reason = `held: untrusted; its ${clash} belongs to the trusted '${taken.get(clash)!.id}' (a held extension never displaces a trusted one)`;
      return false;
    });
  }

  /** An extension whose required service nobody live provides fails (named, with the reason); the rest boot. */
  private dropUnmetDependencies(live: ExtRecord[]): ExtRecord[] {
    for (;;) {
      const provided = new Set(live.flatMap((r) => r.manifest!.provides ?? []));
      const rec = live.find((r) => (r.manifest!.requires ?? []).some((s) => !provided.has(s)));
      if (!rec) return live;
      const s = rec.manifest!.requires!.find((x) => !provided.has(x))!;
      const off = [...this.byId.values()].find((r) => (r.manifest?.provides ?? []).includes(s)) ?? this.records.find((r) => (r.manifest?.provides ?? []).includes(s));
      const why = off
        ? `${ErrorCodes.DEPENDENCY_DISABLED}: extension '${rec.id}' requires service '${s}' from extension '${off.id}', which is ${off.state}${off.reason ? ` (${off.reason})` : ""}`
        : `${ErrorCodes.DEPENDENCY_MISSING}: extension '${rec.id}' requires service '${s}', which no installed extension provides`;
      rec.state = "failed";
      rec.reason = why;
      this.warnings.push(`${why}; '${rec.id}' is not loaded`);
      live = live.filter((r) => r !== rec);
    }
  }

  private checkCycles(live: ExtRecord[]): void {
    const color = new Map<string, 0 | 1 | 2>();
    const stack: string[] = [];
    const visit = (rec: ExtRecord): void => {
      color.set(rec.id, 1);
      stack.push(rec.id);
      for (const s of [...(rec.manifest!.requires ?? []), ...(rec.manifest!.optional ?? [])]) {
        const dep = this.serviceProvider.get(s);
        if (!dep || dep === rec) continue;
        const c = color.get(dep.id) ?? 0;
        if (c === 1) {
          const cycle = [...stack.slice(stack.indexOf(dep.id)), dep.id];
          throw new OcError(ErrorCodes.DEPENDENCY_CYCLE, `extensions '${rec.id}' and '${dep.id}' depend on each other (${cycle.join(" -> ")})`, {
            hint: "break the cycle: one of them must not require the other's service",
          });
        }
        if (c === 0) visit(dep);
      }
      stack.pop();
      color.set(rec.id, 2);
    };
    for (const rec of live) if ((color.get(rec.id) ?? 0) === 0) visit(rec);
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
    const [{ createContainer, InjectionMode, asValue }, { createKernelHooks }, { setHookErrorSink, setTapTimeoutMs, bindHooks, HookErrorLog, DEFAULT_TAP_TIMEOUT_MS }, { ScopedConfig }] = await Promise.all([
      import("awilix"),
      import("./kernel-hooks.js"),
      import("./hooks.js"),
      import("./scoped-config.js"),
    ]);
    this.ScopedConfig = ScopedConfig;
    // one hook error sink per kernel: each (hook, tap, code) is shown once on the log, all are kept for doctor/inspect
    const log = new HookErrorLog((line) => this.log.error(line));
    this.hookErrorLog = log;
    this.hookRuntime = {
      sink: log.sink,
      tapTimeoutMs: positiveMs(this.env.OC_TAP_TIMEOUT_MS, DEFAULT_TAP_TIMEOUT_MS),
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
    const targets = this.records.filter((r) => r.state === "lazy" && listensTo(r.manifest!, event));
    for (const rec of targets) {
      try {
        await this.activateRecord(rec, []);
      } catch (e) {
        // reported and disabled; the others still load
        this.log.error(errorMessage(e));
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
      if (dep && dep !== rec && dep.state === "lazy") await this.activateRecord(dep, [...chain, rec.id]).catch(() => undefined);
    }
    const t0 = performance.now();
    const limit = positiveMs(this.env.OC_ACTIVATION_TIMEOUT_MS, DEFAULT_ACTIVATION_TIMEOUT_MS);
    try {
      // a module that never finishes loading or an activate() that never settles must not hang the program
      await withinMs(
        (async () => {
          const entry = path.join(rec.codeDir, m.main);
          // code from outside the package imports "oceancode/api/<id>": give it this host's modules
          if (rec.root.tier !== "bundled") {
            const self = await import("./self-resolve.js");
            if (self.usesSelfModule(rec.codeDir)) self.provideSelfModule();
          }
          const mod = (await import(pathToFileURL(entry).href)) as { default?: Extension; activate?: Extension["activate"] };
          const ext: Extension | undefined = mod.default ?? (mod.activate ? { activate: mod.activate } : undefined);
          if (!ext || typeof ext.activate !== "function") throw new Error(`${entry} has no default export with an activate() function`);
          rec.module = ext;
          rec.scope = this.container!.createScope();
          await ext.activate(this.contextFor(rec));
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
      rec.loadMs = performance.now() - t0;
    } catch (e) {
      rec.state = "failed";
      rec.loadMs = performance.now() - t0;
      rec.reason = errorMessage(e);
      if (hasErrorCode(e, ErrorCodes.ACTIVATION_TIMEOUT)) throw e;
      throw new OcError(ErrorCodes.ACTIVATION_FAILED, `extension '${rec.id}' (${rec.dir}) failed to activate and was disabled: ${errorMessage(e)}`, { cause: e });
    }
  }

  private contextFor(rec: ExtRecord): ExtensionContext {
    const m = rec.manifest!;
    const declared = new Set([...(m.requires ?? []), ...(m.optional ?? []), ...(m.provides ?? [])]);
    const scope = rec.scope!;
    const kernel = this;
    // services live in their provider's own scope: reachable only through declared provides/requires
    const providerScope = (name: string) => (declared.has(name) ? this.serviceProvider.get(name)?.scope : undefined);
    const has = (name: string) => providerScope(name)?.hasRegistration(name) === true;
    const get = <T>(name: string): T => {
      if (!declared.has(name)) {
        throw new OcError(ErrorCodes.SERVICE_NOT_DECLARED, `extension '${rec.id}' resolved service '${name}' without declaring it in "requires"`);
      }
      if (!has(name)) {
        throw new OcError(ErrorCodes.SERVICE_NOT_PROVIDED, `service '${name}' is not available to '${rec.id}' (its provider is not active)`);
      }
      return providerScope(name)!.resolve<T>(name);
    };
    const owned = (kind: "config" | "requirements") => new Set([...(m.contributes?.[kind] ?? []).map((c) => c.section), ...(m.reads ?? [])]);
    const readable = owned("requirements");
    const prefix = `[${rec.id}] `;
    return {
      id: rec.id,
      tier: rec.root.tier,
      dir: rec.dir,
      manifest: m,
      paths: this.paths,
      env: this.env,
      log: {
        // delegate at call time so a host's setLogger() also reaches extensions activated earlier
        debug: (s) => this.log.debug(prefix + s),
        info: (s) => this.log.info(prefix + s),
        warn: (s) => this.log.warn(prefix + s),
        error: (s) => this.log.error(prefix + s),
      },
      config: new this.ScopedConfig!(this.config, owned("config"), rec.id),
      kernelHooks: this.hooks,
      services: {
        get,
        tryGet: <T>(name: string) => (has(name) ? providerScope(name)!.resolve<T>(name) : undefined),
        has,
      },
      provide<T>(name: string, value: T) {
        if (!(m.provides ?? []).includes(name)) {
          throw new OcError(ErrorCodes.SERVICE_NOT_DECLARED, `extension '${rec.id}' registered service '${name}' without declaring it in "provides"`);
        }
        scope.register(name, kernel.asValue!(value));
      },
      registerCommand(name: string, handler: CommandHandler) {
        if (kernel.commandOwner.get(name) !== rec) throw new OcError(ErrorCodes.SERVICE_NOT_DECLARED, `extension '${rec.id}' registered command '${name}' that its manifest does not contribute`);
        kernel.commandHandlers.set(name, handler);
      },
      registerSlash(name: string, handler: SlashHandler) {
        if (kernel.slashOwner.get(name) !== rec) throw new OcError(ErrorCodes.SERVICE_NOT_DECLARED, `extension '${rec.id}' registered slash command '/${name}' that its manifest does not contribute`);
        kernel.slashHandlers.set(name, handler);
        const c = m.contributes?.slashCommands?.find((x) => x.name === name);
        for (const a of c?.aliases ?? []) kernel.slashHandlers.set(a, handler);
      },
      registerReader<T extends WalkItem>(reader: Reader<T>) {
        if (kernel.readers.has(reader.id)) throw new OcError(ErrorCodes.DUPLICATE_SERVICE, `walk reader '${reader.id}' registered twice (by '${rec.id}')`);
        kernel.readers.set(reader.id, reader as unknown as Reader<WalkItem>);
      },
      walk<T extends WalkItem>(readerId: string): Array<Discovered<T>> {
        const r = kernel.readers.get(readerId);
        if (!r) throw new OcError(ErrorCodes.SERVICE_NOT_PROVIDED, `no walk reader '${readerId}'`);
        return kernel.walk.run(r) as unknown as Array<Discovered<T>>;
      },
      activate: (event: string) => this.activate(event),
      contributions: ((point?: string) => (point === undefined ? this.contributions() : this.pointContributions(point))) as ExtensionContext["contributions"],
      requirements: <T>(section: string): T | undefined => {
        if (!readable.has(section)) {
          throw new OcError(ErrorCodes.SERVICE_NOT_DECLARED, `extension '${rec.id}' read requirements section '${section}' without declaring it`, { hint: `add "reads": ["${section}"] to its manifest` });
        }
        return this.requirements.status === "applied" ? (structuredClone(this.requirements.requirements[section]) as T | undefined) : undefined;
      },
      introspect: () => this.introspect(),
      isTrusted: (root: Root) => this.isTrusted(root, "code"),
      bindHooks: <H extends object>(hooks: H): H => {
        for (const h of Object.values(hooks)) if (h && typeof (h as { bind?: unknown }).bind === "function") (h as { bind(rt: HookRuntime): void }).bind(kernel.hookRuntime!);
        return hooks;
      },
    } as ExtensionContext;
  }

  /** Hosts that own the terminal (the pager) route kernel and extension log lines to their own sink. */
  setLogger(log: Logger): void {
    this.log = log;
  }

  /**
   * For hosts: activate the provider of a service and resolve it. Hosts drive sessions through
   * services and never import extension code.
   */
  async service<T>(name: string): Promise<T> {
    const rec = this.serviceProvider.get(name);
    if (!rec) throw new OcError(ErrorCodes.SERVICE_NOT_PROVIDED, `no enabled extension provides service '${name}'`, { hint: "see oceancode inspect" });
    await this.start();
    await this.activateRecord(rec, []);
    return rec.scope!.resolve<T>(name);
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
          this.log.error(`extension '${r.id}' failed to deactivate: ${errorMessage(e)}`);
        }
      }
    }
  }
}

/** Default activation timeout (ms); OC_ACTIVATION_TIMEOUT_MS overrides it. */
export const DEFAULT_ACTIVATION_TIMEOUT_MS = 10_000;

/** A positive number of milliseconds from an env value, else the default. */
function positiveMs(raw: string | undefined, fallback: number): number {
  const n = raw === undefined || raw === "" ? NaN : Number(raw);
  return Number.isFinite(n) && n > 0 ? n : fallback;
}

/** What an extension claims in the add-only registries: its services, commands and slash command names (with aliases). */
function claims(m: Manifest): Array<{ kind: "service" | "command" | "slash"; name: string; label: string }> {
  return [
    ...(m.provides ?? []).map((name) => ({ kind: "service" as const, name, label: `service '${name}'` })),
    ...(m.contributes?.commands ?? []).map((c) => ({ kind: "command" as const, name: c.name, label: `command '${c.name}'` })),
    ...(m.contributes?.slashCommands ?? []).flatMap((c) => [c.name, ...(c.aliases ?? [])].map((name) => ({ kind: "slash" as const, name, label: `slash command '/${name}'` }))),
  ];
}

function listensTo(m: Manifest, event: string): boolean {
  if ((m.activation ?? []).includes(event)) return true;
  if (event.startsWith("onCommand:")) return (m.contributes?.commands ?? []).some((c) => `onCommand:${c.name}` === event);
  if (event.startsWith("onSlash:")) return (m.contributes?.slashCommands ?? []).some((c) => `onSlash:${c.name}` === event);
  return false;
}

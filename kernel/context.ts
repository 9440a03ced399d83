/**
 * The ExtensionContext the kernel hands an extension's activate(): its declared services, its config
 * sections, its commands and slash commands, walk readers, and the kernel's hooks and introspection.
 * It reaches the kernel only through the narrow KernelView and KernelInternals below.
 */
import type { asValue as AsValue } from "awilix";
import { OcError, ErrorCodes } from "./errors.js";
import type { DiscoveryWalk, Reader, WalkItem, Discovered, Root } from "./walk.js";
import type { ResolvedConfig } from "./config.js";
import type { RequirementsState } from "./requirements.js";
import type { ScopedConfig } from "./scoped-config.js";
import type { Paths } from "./paths.js";
import type { KernelHooks } from "./kernel-hooks.js";
import type { HookRuntime } from "./hooks.js";
import type { ExtRecord } from "./discovery.js";
import type { CommandHandler, ContributionView, ExtensionContext, KernelIntrospection, LogEmit, Logger, LogSink, PointContribution, SlashHandler, SlashHost } from "./api.js";

/** The kernel's public side a context uses (the Kernel itself): read at call time, so a host's setLogger() reaches earlier contexts. */
export interface KernelView {
  readonly paths: Paths;
  readonly env: NodeJS.ProcessEnv;
  readonly log: Logger;
  /** a line through the structured sink (if any), then the display logger */
  readonly logLine: LogEmit;
  /** attach the one structured sink (false: one is attached already) */
  attachLogSink(sink: LogSink): boolean;
  readonly config: ResolvedConfig;
  readonly requirements: RequirementsState;
  readonly hooks: KernelHooks;
  readonly walk: DiscoveryWalk;
  activate(event: string): Promise<void>;
  runSlash(name: string, args: string, host: SlashHost): Promise<boolean>;
  contributions(): ContributionView[];
  pointContributions(point: string): PointContribution[];
  introspect(): KernelIntrospection;
  isTrusted(root: Root, kind: string): Promise<boolean>;
}

/** The kernel internals a context needs: set at start, before any extension activates. */
export interface KernelInternals {
  readonly hookRuntime: HookRuntime;
  readonly ScopedConfig: typeof ScopedConfig;
  readonly asValue: typeof AsValue;
  readonly serviceProvider: ReadonlyMap<string, ExtRecord>;
  readonly commandOwner: ReadonlyMap<string, ExtRecord>;
  readonly slashOwner: ReadonlyMap<string, ExtRecord>;
  readonly commandHandlers: Map<string, CommandHandler>;
  readonly slashHandlers: Map<string, SlashHandler>;
  readonly readers: Map<string, Reader<WalkItem>>;
  /** hooks objects extensions bound (ctx.bindHooks), for introspection's hook order */
  readonly boundHooks: object[];
}

/** The context for one extension being activated (its scope already created). */
export function contextFor(rec: ExtRecord, k: KernelView, x: KernelInternals): ExtensionContext {
  const m = rec.manifest!;
  const declared = new Set([...(m.requires ?? []), ...(m.optional ?? []), ...(m.provides ?? [])]);
  const scope = rec.scope!;
  // services live in their provider's own scope: reachable only through declared provides/requires
  const providerScope = (name: string) => (declared.has(name) ? x.serviceProvider.get(name)?.scope : undefined);
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
  return {
    id: rec.id,
    tier: rec.root.tier,
    dir: rec.dir,
    manifest: m,
    paths: k.paths,
    env: k.env,
    log: {
      // delegate at call time so a host's setLogger() also reaches extensions activated earlier; the id is a field
      debug: (s, f) => k.logLine("debug", s, { ...f, ext: rec.id }),
      info: (s, f) => k.logLine("info", s, { ...f, ext: rec.id }),
      warn: (s, f) => k.logLine("warn", s, { ...f, ext: rec.id }),
      error: (s, f) => k.logLine("error", s, { ...f, ext: rec.id }),
    },
    setLogSink(sink: LogSink): LogEmit {
      // the sink sees every line of every extension: only trusted code that runs first may attach it
      const trusted = rec.root.tier === "bundled" || rec.root.tier === "user";
      if (!trusted || !(m.activation ?? []).includes("onStartup")) throw new OcError(ErrorCodes.SERVICE_NOT_DECLARED, `extension '${rec.id}' may not attach the log sink (a bundled or user-tier onStartup extension only)`);
      if (!k.attachLogSink(sink)) throw new OcError(ErrorCodes.DUPLICATE_SERVICE, `extension '${rec.id}' attached a second log sink`);
      return k.logLine;
    },
    config: new x.ScopedConfig(k.config, owned("config"), rec.id),
    kernelHooks: k.hooks,
    services: {
      get,
      tryGet: <T>(name: string) => (has(name) ? providerScope(name)!.resolve<T>(name) : undefined),
      has,
    },
    provide<T>(name: string, value: T) {
      if (!(m.provides ?? []).includes(name)) {
        throw new OcError(ErrorCodes.SERVICE_NOT_DECLARED, `extension '${rec.id}' registered service '${name}' without declaring it in "provides"`);
      }
      scope.register(name, x.asValue(value));
    },
    registerCommand(name: string, handler: CommandHandler) {
      if (x.commandOwner.get(name) !== rec) throw new OcError(ErrorCodes.SERVICE_NOT_DECLARED, `extension '${rec.id}' registered command '${name}' that its manifest does not contribute`);
      x.commandHandlers.set(name, handler);
    },
    registerSlash(name: string, handler: SlashHandler) {
      if (x.slashOwner.get(name) !== rec) throw new OcError(ErrorCodes.SERVICE_NOT_DECLARED, `extension '${rec.id}' registered slash command '/${name}' that its manifest does not contribute`);
      x.slashHandlers.set(name, handler);
      const c = m.contributes?.slashCommands?.find((x) => x.name === name);
      for (const a of c?.aliases ?? []) x.slashHandlers.set(a, handler);
    },
    registerReader<T extends WalkItem>(reader: Reader<T>) {
      if (x.readers.has(reader.id)) throw new OcError(ErrorCodes.DUPLICATE_SERVICE, `walk reader '${reader.id}' registered twice (by '${rec.id}')`);
      x.readers.set(reader.id, reader as unknown as Reader<WalkItem>);
    },
    walk<T extends WalkItem>(readerId: string): Array<Discovered<T>> {
      const r = x.readers.get(readerId);
      if (!r) throw new OcError(ErrorCodes.SERVICE_NOT_PROVIDED, `no walk reader '${readerId}'`);
      return k.walk.run(r) as unknown as Array<Discovered<T>>;
    },
    activate: (event: string) => k.activate(event),
    runSlash: (name: string, args: string, host: SlashHost) => k.runSlash(name, args, host),
    contributions: ((point?: string) => (point === undefined ? k.contributions() : k.pointContributions(point))) as ExtensionContext["contributions"],
    requirements: <T>(section: string): T | undefined => {
      if (!readable.has(section)) {
        throw new OcError(ErrorCodes.SERVICE_NOT_DECLARED, `extension '${rec.id}' read requirements section '${section}' without declaring it`, { hint: `add "reads": ["${section}"] to its manifest` });
      }
      const req = k.requirements;
      return req.status === "applied" ? (structuredClone(req.requirements[section]) as T | undefined) : undefined;
    },
    introspect: () => k.introspect(),
    isTrusted: (root: Root) => k.isTrusted(root, "code"),
    bindHooks: <H extends object>(hooks: H): H => {
      for (const h of Object.values(hooks)) if (h && typeof (h as { bind?: unknown }).bind === "function") (h as { bind(rt: HookRuntime): void }).bind(x.hookRuntime);
      if (!x.boundHooks.includes(hooks)) x.boundHooks.push(hooks);
      return hooks;
    },
  } as ExtensionContext;
}

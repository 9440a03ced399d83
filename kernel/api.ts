/**
 * The public API an extension is written against (first-party and third-party alike).
 * An extension module's default export is an `Extension`; the kernel calls `activate(ctx)` once,
 * lazily, when one of its activation events fires.
 */
import type { ResolvedConfig, Provenance } from "./config.js";
import type { KernelHooks } from "./kernel-hooks.js";
import type { Tier, Root, Reader, WalkItem, Discovered } from "./walk.js";
import type { Manifest } from "./manifest.js";
import type { Paths } from "./paths.js";
import type { Requirements } from "./requirements.js";
import type { HookFailure, HookOrder } from "./hooks.js";

export type { Manifest, Tier, Root, Reader, WalkItem, Discovered, Paths, Provenance, Requirements, HookFailure };
/** installed.json and the walk's plugin-state rule, for readers that re-apply it live (hooks, rules) */
export { pluginStateIn, readPluginStoreFile, type PluginStoreFile } from "./walk.js";
export { Stages } from "./hooks.js";
export { writeFileAtomic } from "./files.js";
export { oceancodeVersion, KERNEL_VERSION } from "./version.js";
export { readJsoncForEdit, jsoncObject, editJsonc } from "./jsonc.js";
/** whose a project file is (local or repo tier), and the one way oceancode runs git (inert) */
export { projectOwnership, ownershipOf, repositoryRoot, type Ownership } from "./ownership.js";
export { gitSync, gitBuffer, inertArgs, inertEnv, type GitOptions, type GitResult } from "./git.js";
export { SeriesHook, ParallelHook, WaterfallHook, BailHook, WrapHook, defineHooks, createHooks, observeHookCalls, type HookCallObserver, type HookKind } from "./hooks.js";
export { declareHooks, hook, type HookDecl, type HookTable, type HooksOf } from "./hook-decl.js";
/** stages: each hook's owner publishes its ordered stages; taps name one (bare numbers are refused) */
export { defineStages, staged, STANDARD_STAGES, type StageTable, type StandardStage } from "./hook-decl.js";
export { SHUTDOWN_STAGES } from "./kernel-hooks.js";
export { holdUntil, hookOrder, type HeldAnswer, type TapOptions, type HookOrder } from "./hooks.js";
export {
  OcError,
  ErrorCodes,
  ERROR_CODE_PATTERN,
  registerErrorCodes,
  errorCodes,
  isOcError,
  hasErrorCode,
  errorMessage,
  type ErrorCode,
  type KernelErrorCode,
  type CodedError,
} from "./errors.js";
export { defineError, errorDefinitions, exitCodeOf, Usage, type ErrorDefinition, type ErrorFactory, type ErrorParams, type ErrorThrowOptions } from "./errors.js";
/**
 * What first-party extensions and hosts take from the kernel, exported here so a third party writes them
 * the same way (test/lint/reach.ts refuses any other kernel module from extensions/ and hosts/).
 */
export { TIERS, type Ecosystem, type PluginRootRecord } from "./walk.js";
export type { PluginRootsModule } from "./ecosystems.js";
export { parseJsonc, lineColAt, lineOfPath, JsoncSyntaxError, type JsoncDocument } from "./jsonc.js";
export { nearest, nearestMany } from "./nearest.js";
export { isPlainObject, ResolvedConfig, type ConfigLayer, type HostSetting } from "./config.js";
export { compileSchema, validate, formatProblem, type SchemaProblem } from "./schema.js";
export { tightenLayer, type Tightened } from "./untrusted.js";
/** the pieces of a stand-in context (the conformance suites' testContext builds one with them) */
export { createKernelHooks, type TrustQuery, type KernelHooks } from "./kernel-hooks.js";

/** Fields a log line carries beside its message (`ext`: the extension that wrote it; set by the kernel). */
export type LogRecordFields = Record<string, unknown>;

export interface Logger {
  debug(msg: string, fields?: LogRecordFields): void;
  info(msg: string, fields?: LogRecordFields): void;
  warn(msg: string, fields?: LogRecordFields): void;
  error(msg: string, fields?: LogRecordFields): void;
}

export type LogLevelName = "trace" | "debug" | "info" | "warn" | "error";
/**
 * The one structured sink (ExtensionContext.setLogSink): it sees every line at every level before the
 * display logger, and returns the message text to display (e.g. redacted).
 */
export type LogSink = (level: LogLevelName, msg: string, fields: LogRecordFields) => string;
/** Write a line as the kernel does (through the sink, then the display): what setLogSink returns. */
export type LogEmit = (level: LogLevelName, msg: string, fields?: LogRecordFields) => void;

export interface CommandIO {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  env: NodeJS.ProcessEnv;
  /** --dir / --directory (the project) */
  project: string;
  /** --home */
  home: string;
  verbose: boolean;
}

/** A CLI subcommand handler: argv after the subcommand name; resolves to the exit code. */
export type CommandHandler = (argv: string[], io: CommandIO) => Promise<number>;

/** A slash command handler; `host` is whatever the calling host passes (session id, reply sink, ...). */
export interface SlashHost {
  sessionId?: string;
  reply(text: string): void;
  /** Report that the command refused or failed (a headless host exits non-zero); absent: reply is used. */
  fail?(text: string): void;
  readonly [key: string]: unknown;
}
export type SlashHandler = (args: string, host: SlashHost) => Promise<void> | void;

/**
 * Services by name, each typed by its provider's contract. A contract adds its own by declaration merging,
 * so `ctx.services.get("storage")` is a StorageService with no hand-written generic:
 *
 *   declare module "../../kernel/api.js" { interface ServiceMap { storage: StorageService } }
 *
 * (a third party's contract augments "oceancode/kernel" the same way; a consumer sees the entries of the
 * contracts its program imports, e.g. `import type {} from "oceancode/api/storage"`).
 */
// empty here: filled by declaration merging
export interface ServiceMap {}
/** A service name some contract in the program declares. */
export type ServiceName = keyof ServiceMap & string;

export interface ServiceAccess {
  /** Resolve a service this extension declared in `requires`/`optional`. Throws OC_ERR_SERVICE_NOT_DECLARED otherwise. */
  get<K extends ServiceName>(name: K): ServiceMap[K];
  /** A service no contract in the program declares: unknown until checked (or declare it in a ServiceMap). */
  get(name: string): unknown;
  /** Like get, for `optional` services: undefined when no enabled extension provides it. */
  tryGet<K extends ServiceName>(name: K): ServiceMap[K] | undefined;
  tryGet(name: string): unknown;
  has(name: string): boolean;
}

export interface ContributionView {
  extension: string;
  tier: Tier;
  manifest: Manifest;
}

/** One extension's `contributes.<point>` (already validated against the point's schema). */
export interface PointContribution<T = unknown> {
  extension: string;
  tier: Tier;
  value: T;
}

export interface ExtensionContext {
  readonly id: string;
  readonly tier: Tier;
  /** the extension's folder (manifest, data files) */
  readonly dir: string;
  readonly manifest: Manifest;
  readonly paths: Paths;
  readonly env: NodeJS.ProcessEnv;
  readonly log: Logger;
  /** the resolved, layered config: only this extension's sections and those its manifest `reads` */
  readonly config: ResolvedConfig;
  /** the kernel's own hooks (boot, configResolved, extensionsActivated, shutdown, trust) */
  readonly kernelHooks: KernelHooks;
  readonly services: ServiceAccess;
  /** Register a service named in this extension's `provides`. */
  provide<T>(name: string, value: T): void;
  /** Register the handler of a CLI subcommand this extension's manifest contributes. */
  registerCommand(name: string, handler: CommandHandler): void;
  /** Register the handler of a slash command this extension's manifest contributes. */
  registerSlash(name: string, handler: SlashHandler): void;
  /** Register a discovery-walk reader; its items are read on demand with `walk`. */
  registerReader<T extends WalkItem>(reader: Reader<T>): void;
  /** Run a registered reader over the walk's roots. */
  walk<T extends WalkItem>(readerId: string): Array<Discovered<T>>;
  /** Fire an activation event (e.g. "onEvent:provider:anthropic"): activates every extension listening. */
  activate(event: string): Promise<void>;
  /**
   * Run a slash command as a host does (a server's POST /session/:id/command): whichever extension
   * contributes it, activated first. False when no enabled extension contributes it.
   */
  runSlash(name: string, args: string, host: SlashHost): Promise<boolean>;
  /** Manifest-level view of every enabled extension (contributions are data: no code runs). */
  contributions(): ContributionView[];
  /** What enabled extensions contribute to a contribution point (e.g. the engine reads "tools"). */
  contributions<T = unknown>(point: string): Array<PointContribution<T>>;
  /**
   * A section of the signed requirements.json this extension owns (contributes.requirements) or
   * `reads`, validated against its schema; undefined when no verified file applies or it has no such section.
   */
  requirements<T = Record<string, unknown>>(section: string): T | undefined;
  /** Record of every extension and its state, for introspection commands. */
  introspect(): KernelIntrospection;
  /**
   * Bind the hooks this extension publishes (a hooks object) to the kernel: their tap failures and
   * timeouts land in the kernel's hook error sink, and they use its tap timeout (OC_TAP_TIMEOUT_MS).
   */
  bindHooks<H extends object>(hooks: H): H;
  /** Is this root's code allowed to run (bundled/user/local yes; repo/plugin per the trust gate)? */
  isTrusted(root: Root): Promise<boolean>;
  /**
   * Attach the kernel's one structured log sink (only a bundled or user-tier onStartup extension, once).
   * Returns the kernel's line writer, for loggers that carry another extension's id.
   */
  setLogSink(sink: LogSink): LogEmit;
}

export interface Extension {
  activate(ctx: ExtensionContext): void | Promise<void>;
  deactivate?(): void | Promise<void>;
}

export type ExtensionState = "active" | "lazy" | "disabled" | "held" | "failed" | "shadowed";

export interface ExtensionInfo {
  id: string;
  qualifiedId: string;
  version?: string;
  tier: Tier;
  dir: string;
  /** where its compiled code is (its errors.js, for inspect --errors) */
  codeDir?: string;
  state: ExtensionState;
  reason?: string;
  loadMs?: number;
  manifest?: Manifest;
}

export interface KernelIntrospection {
  kernelVersion: string;
  extensions: ExtensionInfo[];
  config: ResolvedConfig;
  configFiles: { global: string[]; project: string[]; managed: string; requirements: string };
  /** requirements.json status; `requirements` is set only when its signature verified and it applied */
  requirements: { status: string; file: string; reason?: string; requirements?: Requirements };
  warnings: string[];
  bootMs: number;
  /** tap failures and timeouts of this run so far (the kernel's hook error sink), one per (hook, tap, code) */
  hookErrors?: HookFailure[];
  /** every hook of the kernel and of the hooks objects extensions bound: its stages and its taps in call order */
  hooks?: HookOrder[];
  /** contribution points live extensions declare, with their owner and who contributes */
  points: Array<{ name: string; owner: string; doc: string; contributors: string[] }>;
}

/** Helper for typed extension modules. */
export function defineExtension(ext: Extension): Extension {
  return ext;
}

/** Let code from outside the package import "oceancode/..." (done before a user extension's entry; inspect --errors needs it for an errors.js). */
export async function provideSelfModule(): Promise<void> {
  (await import("./self-resolve.js")).provideSelfModule();
}

/**
 * Typed hooks over tapable. A hook's kind is part of its type:
 *  - SeriesHook     (AsyncSeriesHook)          taps run one after another; no value
 *  - ParallelHook   (AsyncParallelHook)        taps run concurrently; no value
 *  - WaterfallHook  (AsyncSeriesWaterfallHook) each tap receives the previous tap's value and returns a new one
 *  - BailHook       (AsyncSeriesBailHook)      the first tap to return a value other than undefined wins
 *  - WrapHook       (SyncWaterfallHook over functions) each tap wraps the next executor (middleware)
 *
 * Every tap is named after its extension id and names one of its hook's stages (the owner's published
 * StageTable, kernel/hook-decl.ts; STANDARD_STAGES unless it publishes its own); a bare number or an
 * unknown name is refused at registration (OC_ERR_HOOK_STAGE, naming the hook, the tap and the stages it
 * may name). Load order breaks ties within a stage; `before` puts a tap ahead of named taps.
 * A bail tap may hold its answer until a later stage of the same hook (holdUntil): it lands there
 * unless a tap in between answers first (e.g. a PreToolUse ask lands after the permission rules).
 * A hook is either fail-open (a throwing tap is logged and skipped) or fail-closed (a throwing tap
 * turns into the hook's `onTapError` value, e.g. a deny for security hooks).
 *
 * No tap can hang a caller: an async tap that has not settled after the tap timeout (default 60 s,
 * OC_TAP_TIMEOUT_MS) is treated like a throwing tap, with the coded error OC_ERR_TAP_TIMEOUT — series
 * and parallel hooks skip it, a waterfall keeps the value it was given, a bail hook moves on (a
 * fail-closed one answers its `onTapError` value, e.g. deny). A tap may carry its own bound
 * (TapOptions.timeoutMs) when the work it runs has a longer one of its own. Wrap hooks have no tap timeout: a wrap tap
 * surrounds the work itself (a tool run), which has its own bounds. Failures go to the hook's error
 * sink: the kernel owns one per process run (see HookErrorLog), bound to its own hooks and to the
 * hooks objects extensions bind with ctx.bindHooks; unbound hooks use the process default sink.
 */
import tapable from "tapable";
import { OcError, ErrorCodes, isOcError } from "./errors.js";
import { withinMs } from "./within.js";
import { Holds, isHeld, tapableOptions, type HeldAnswer } from "./hook-stages.js";
export { holdUntil, type HeldAnswer } from "./hook-stages.js";
import { STANDARD_STAGES, type HookTable, type HooksOf, type HookDecl, type StageTable, type StandardStage } from "./hook-decl.js";

const { AsyncSeriesHook, AsyncParallelHook, AsyncSeriesWaterfallHook, AsyncSeriesBailHook, SyncWaterfallHook } =
  tapable;

/** The standard stages' order as numbers (STANDARD_STAGES); taps name a stage, never a number. */
export const Stages = {
  STAGE_FLOOR: -300, // hard safety floors (dangerous-command deny)
  STAGE_POLICY: -200, // rules and modes
  STAGE_GUARD: -100, // classifiers / guards
  STAGE_DEFAULT: 0,
  STAGE_ENRICH: 100, // adds context
  STAGE_AUDIT: 200, // observes, records
  STAGE_ASK: 300, // last resort: ask the user
} as const;
export type StageName = keyof typeof Stages;

export type HookKind = "series" | "parallel" | "waterfall" | "bail" | "wrap";

export interface TapOptions<S extends string = StandardStage> {
  /** The tapping extension's id. Required: anonymous taps are refused. */
  name: string;
  /** One of the hook's stages (its owner's StageTable); absent: the table's default stage. */
  stage?: S;
  /** Run ahead of these taps (by name) within the stage, when load order is not enough. */
  before?: string | readonly string[];
  /**
   * This tap's own bound (ms) instead of the kernel's tap timeout, read at each call (a function: a bound
   * that depends on the moment, e.g. the hooks extension's longest handler timeout plus a margin). A tap
   * that runs work with its own, longer bound says so here, so the kernel's timer never fires first.
   * undefined (or a function answering undefined): the kernel's tap timeout.
   */
  timeoutMs?: number | (() => number | undefined);
}

export interface HookErrorSink {
  (hookName: string, tapName: string, error: unknown): void;
}

/** Default per-tap timeout (ms); OC_TAP_TIMEOUT_MS overrides it for a kernel. */
export const DEFAULT_TAP_TIMEOUT_MS = 60_000;

/** Where a hook's tap failures go, and how long an async tap may take. */
export interface HookRuntime {
  sink: HookErrorSink;
  tapTimeoutMs: number;
  /** taps to pass over (the kernel: those of an extension that failed, e.g. timed out while activating) */
  skip?(tapName: string): boolean;
}

const defaults: HookRuntime = {
  sink: (hook, tap, error) => {
    process.stderr.write(`oceancode: tap '${tap}' on hook '${hook}' failed: ${String(error)}\n`);
  },
  tapTimeoutMs: DEFAULT_TAP_TIMEOUT_MS,
};
/** The process default sink, for hooks no kernel bound (the kernel sets it to its own sink at start). */
export function setHookErrorSink(sink: HookErrorSink): void {
  defaults.sink = sink;
}
/** The process default tap timeout, for hooks no kernel bound. */
export function setTapTimeoutMs(ms: number): void {
  defaults.tapTimeoutMs = ms;
}

/**
 * An observer of hook calls (telemetry's hook spans): told when a hook is called, with its taps' count
 * and arguments; the function it returns (if any) is called once the call settles, with the error if it
 * threw. One per process, installed by an extension; none installed costs one check per call.
 */
export type HookCallObserver = (call: { hook: string; kind: HookKind; taps: number; args: readonly unknown[] }) => ((error?: unknown) => void) | undefined;
let observer: HookCallObserver | undefined;
/** Install the hook-call observer; returns its removal. A throwing observer is ignored. */
export function observeHookCalls(o: HookCallObserver): () => void {
  observer = o;
  return () => {
    if (observer === o) observer = undefined;
  };
}

/** A tap failure as the kernel's sink keeps it. */
export interface HookFailure {
  hook: string;
  /** the tap's name: the tapping extension's id */
  tap: string;
  code: string;
  message: string;
  /** how many times this (hook, tap, code) failed in this run */
  count: number;
}

/**
 * One per kernel: every tap failure (a throw or a timeout) of the hooks bound to it, with the tap's
 * extension, the hook and a code. Each distinct (hook, tap, code) is shown once (through `show`, the
 * kernel's logger: stderr in the CLI); all of them stay listed for doctor and inspect.
 */
export class HookErrorLog {
  private readonly byKey = new Map<string, HookFailure>();
  constructor(private readonly show: (line: string) => void) {}
  readonly sink: HookErrorSink = (hook, tap, error) => {
    const code = isOcError(error) ? error.code : ErrorCodes.TAP_FAILED;
    const message = isOcError(error) || error instanceof Error ? error.message : String(error);
    const key = `${hook}\u0000${tap}\u0000${code}`;
    const seen = this.byKey.get(key);
    if (seen) {
      seen.count += 1;
      return;
    }
    this.byKey.set(key, { hook, tap, code, message, count: 1 });
    this.show(`${code}: extension '${tap}' failed in hook '${hook}': ${message}`);
  };
  list(): HookFailure[] {
    return [...this.byKey.values()].map((f) => ({ ...f }));
  }
}

/** Run a tap; a promise that has not settled within `ms` rejects with OC_ERR_TAP_TIMEOUT. Sync taps get no timer. */
function runTap<R>(fn: () => R | Promise<R>, ms: number): R | Promise<R> {
  const out = fn();
  if (!(ms > 0) || !Number.isFinite(ms) || !out || typeof (out as Promise<R>).then !== "function") return out;
  const timeout = () => new OcError(ErrorCodes.TAP_TIMEOUT, `its tap did not settle within ${ms} ms and was skipped`, { hint: "raise OC_TAP_TIMEOUT_MS if this tap is legitimately slow" });
  return withinMs(out as Promise<R>, ms, timeout);
}

interface HookMeta {
  readonly name: string;
  readonly kind: HookKind;
  readonly doc: string;
  readonly failClosed: boolean;
}

abstract class BaseHook implements HookMeta {
  abstract readonly kind: HookKind;
  readonly failClosed: boolean = false;
  /** set by bindHooks: the owning kernel's sink and tap timeout; unset = the process defaults */
  private runtime?: HookRuntime;
  constructor(
    readonly name: string,
    readonly doc: string,
    /** the stages its taps name, in order: its owner's table (STANDARD_STAGES unless it published one) */
    readonly stages: StageTable = STANDARD_STAGES,
  ) {}
  protected tapOptions(opts: TapOptions<string>): { name: string; stage: number; before?: string } {
    return tapableOptions(this.name, this.stages, opts);
  }
  /** Route this hook's tap failures to `rt` (a kernel's HookErrorLog) and use its tap timeout. */
  bind(rt: HookRuntime): void {
    this.runtime = rt;
  }
  protected report(tap: string, error: unknown): void {
    (this.runtime ?? defaults).sink(this.name, tap, error);
  }
  /** Is this tap's extension out (failed after tapping)? Its tap is passed over as if absent. */
  protected skipped(tap: string): boolean {
    return (this.runtime ?? defaults).skip?.(tap) === true;
  }
  protected guard<R>(opts: TapOptions<string>, fn: () => R | Promise<R>): R | Promise<R> {
    const own = typeof opts.timeoutMs === "function" ? opts.timeoutMs() : opts.timeoutMs;
    return runTap(fn, own ?? (this.runtime ?? defaults).tapTimeoutMs);
  }
  /** Run a call, telling the hook-call observer (if one is installed) when it starts and settles. */
  protected observed<R>(args: readonly unknown[], run: () => Promise<R>): Promise<R> {
    const o = observer!;
    let end: ((error?: unknown) => void) | undefined;
    try {
      end = o({ hook: this.name, kind: this.kind, taps: this.h.taps.length, args });
    } catch {
      end = undefined;
    }
    if (end === undefined) return run();
    const done = end;
    const quiet = (e?: unknown) => {
      try {
        done(e);
      } catch {
        /* an observer never breaks a call */
      }
    };
    return run().then(
      (v) => {
        quiet();
        return v;
      },
      (e: unknown) => {
        quiet(e ?? new Error("rejected"));
        throw e;
      },
    );
  }
  /** the tapable hook underneath */
  protected abstract readonly h: { readonly taps: ReadonlyArray<{ name: string; stage?: number }> };
  /** Names of the taps, in call order. */
  taps(): string[] {
    return this.h.taps.map((t) => t.name);
  }
  /** The taps in call order (a wrap hook: outermost first), each with the stage it named. */
  stagedTaps(): Array<{ name: string; stage: string }> {
    return this.h.taps.map((t) => ({ name: t.name, stage: this.stages.names[t.stage ?? 0] ?? String(t.stage) }));
  }
}

/** Series and parallel hooks: every tap runs for its effect; a failing one is reported and skipped. */
abstract class EffectHook<T, S extends string> extends BaseHook {
  protected abstract override readonly h: InstanceType<typeof AsyncSeriesHook<[T]>> | InstanceType<typeof AsyncParallelHook<[T]>>;
  tap(opts: TapOptions<S>, fn: (arg: T) => void | Promise<void>): void {
    this.h.tapPromise(this.tapOptions(opts), async (arg: T) => {
      if (this.skipped(opts.name)) return;
      try {
        await this.guard(opts, () => fn(arg));
      } catch (e) {
        this.report(opts.name, e);
      }
    });
  }
  call(arg: T): Promise<void> {
    return observer === undefined ? this.h.promise(arg) : this.observed([arg], () => this.h.promise(arg));
  }
}

export class SeriesHook<T, S extends string = StandardStage> extends EffectHook<T, S> {
  readonly kind = "series" as const;
  protected readonly h = new AsyncSeriesHook<[T]>(["arg"]);
}

export class ParallelHook<T, S extends string = StandardStage> extends EffectHook<T, S> {
  readonly kind = "parallel" as const;
  protected readonly h = new AsyncParallelHook<[T]>(["arg"]);
}

export class WaterfallHook<T, C = undefined, S extends string = StandardStage> extends BaseHook {
  readonly kind = "waterfall" as const;
  protected readonly h = new AsyncSeriesWaterfallHook<[T, C]>(["value", "context"]);
  tap(opts: TapOptions<S>, fn: (value: T, context: C) => T | Promise<T>): void {
    this.h.tapPromise(this.tapOptions(opts), async (value: T, context: C) => {
      if (this.skipped(opts.name)) return value;
      try {
        const out = await this.guard(opts, () => fn(value, context));
        return out === undefined ? value : out;
      } catch (e) {
        this.report(opts.name, e);
        return value;
      }
    });
  }
  call(value: T, context: C): Promise<T> {
    return (observer === undefined ? this.h.promise(value, context) : this.observed([value, context], () => this.h.promise(value, context))) as Promise<T>;
  }
}

export class BailHook<T, R, S extends string = StandardStage> extends BaseHook {
  readonly kind = "bail" as const;
  override readonly failClosed: boolean;
  /** the second argument is the call's held answers (holdUntil), one per call */
  protected readonly h = new AsyncSeriesBailHook<[T, Holds<R>], R | undefined>(["arg", "holds"]);
  /**
   * @param onTapError when set, the hook is fail-closed: a throwing tap bails with this value
   *   (security hooks return a deny naming the extension).
   */
  constructor(
    name: string,
    doc: string,
    private readonly onTapError?: (tapName: string, error: unknown) => R,
    stages?: StageTable,
  ) {
    super(name, doc, stages);
    this.failClosed = onTapError !== undefined;
  }
  tap(opts: TapOptions<S>, fn: (arg: T) => R | HeldAnswer<R, S> | undefined | Promise<R | HeldAnswer<R, S> | undefined>): void {
    const onErr = this.onTapError;
    const o = this.tapOptions(opts);
    this.h.tapPromise(o, async (arg: T, holds: Holds<R>) => {
      // an answer an earlier tap held for this stage (or one before it) lands now
      const due = holds.due(o.stage);
      if (due !== undefined) return due;
      if (this.skipped(opts.name)) return undefined;
      try {
        const out = await this.guard(opts, () => fn(arg));
        if (!isHeld(out)) return out;
        const at = this.stages.names.indexOf(out.__ocHeldUntil);
        if (at < 0) throw new OcError(ErrorCodes.HOOK_UNKNOWN_STAGE, `tap '${opts.name}' held its answer until unknown stage '${out.__ocHeldUntil}' of hook '${this.name}'; its stages: ${this.stages.names.join(", ")}`);
        if (at <= o.stage) return out.value as R;
        holds.hold(at, out.value as R);
        return undefined;
      } catch (e) {
        this.report(opts.name, e);
        return onErr ? onErr(opts.name, e) : undefined;
      }
    });
  }
  call(arg: T): Promise<R | undefined> {
    const run = async (): Promise<R | undefined> => {
      const holds = new Holds<R>();
      const out = await this.h.promise(arg, holds);
      return out === undefined ? holds.rest() : out;
    };
    return observer === undefined ? run() : this.observed([arg], run);
  }
}

/** Middleware: each tap gets the next executor and returns a wrapped one. */
export class WrapHook<A, R, S extends string = StandardStage> extends BaseHook {
  readonly kind = "wrap" as const;
  protected readonly h = new SyncWaterfallHook<[(a: A) => Promise<R>]>(["next"]);
  tap(opts: TapOptions<S>, wrap: (next: (a: A) => Promise<R>) => (a: A) => Promise<R>): void {
    this.h.tap(this.tapOptions(opts), (next: (a: A) => Promise<R>) => wrap(next));
  }
  /** Build the chain around `inner` and run it. Taps with a lower stage end up outermost. */
  call(arg: A, inner: (a: A) => Promise<R>): Promise<R> {
    // SyncWaterfallHook runs taps in stage order, each wrapping the previous result, so the last tap
    // is outermost; reverse so the lowest stage is outermost (sees the call first).
    const taps = [...this.h.taps].reverse();
    let fn = inner;
    for (const t of taps) if (!this.skipped(t.name)) fn = (t.fn as (n: (a: A) => Promise<R>) => (a: A) => Promise<R>)(fn);
    return observer === undefined ? fn(arg) : this.observed([arg], () => fn(arg));
  }
}

export type AnyHook =
  | SeriesHook<never, string>
  | ParallelHook<never, string>
  | WaterfallHook<never, never, string>
  | BailHook<never, unknown, string>
  | WrapHook<never, unknown, string>;

/** Freeze a hooks object so nobody can add or swap a hook after it is declared. */
export function defineHooks<H extends Record<string, BaseHook>>(hooks: H): Readonly<H> {
  return Object.freeze(hooks);
}

/** The doc an instance reports: the kind (and fail-closed) first, then the declaration's doc line. */
function instanceDoc(d: HookDecl): string {
  return `${d.kind}${d.failClosed ? " (fail-closed)" : ""}: ${d.doc}`;
}

/** Make the hooks object a declaration table describes (kernel/hook-decl.ts): one frozen instance per hook. */
export function createHooks<T extends HookTable>(table: T): HooksOf<T> {
  const out: Record<string, BaseHook> = {};
  for (const [key, d] of Object.entries(table.hooks)) {
    const name = `${table.prefix}.${key}`;
    const doc = instanceDoc(d);
    const stages = d.stages ?? STANDARD_STAGES;
    switch (d.kind) {
      case "series":
        out[key] = new SeriesHook(name, doc, stages);
        break;
      case "parallel":
        out[key] = new ParallelHook(name, doc, stages);
        break;
      case "waterfall":
        out[key] = new WaterfallHook(name, doc, stages);
        break;
      case "bail":
        out[key] = new BailHook(name, doc, d.onTapError, stages);
        break;
      case "wrap":
        out[key] = new WrapHook(name, doc, stages);
        break;
    }
  }
  return defineHooks(out) as unknown as HooksOf<T>;
}

/** Bind every hook of a hooks object to a runtime (a kernel's sink and tap timeout). Returns the object. */
export function bindHooks<H extends object>(hooks: H, rt: HookRuntime): H {
  for (const h of Object.values(hooks)) if (h instanceof BaseHook) h.bind(rt);
  return hooks;
}

export function describeHooks(hooks: Record<string, BaseHook>): Array<{ name: string; kind: HookKind; doc: string; failClosed: boolean; taps: string[] }> {
  return Object.values(hooks).map((h) => ({ name: h.name, kind: h.kind, doc: h.doc, failClosed: h.failClosed, taps: h.taps() }));
}

/** One hook's order as introspection shows it: its stages in order and its taps in call order with their stage. */
export interface HookOrder {
  name: string;
  kind: HookKind;
  failClosed: boolean;
  stages: Array<{ name: string; doc: string; default: boolean }>;
  taps: Array<{ name: string; stage: string }>;
}
export function hookOrder(hooks: object): HookOrder[] {
  return Object.values(hooks)
    .filter((h): h is BaseHook => h instanceof BaseHook)
    .map((h) => ({
      name: h.name,
      kind: h.kind,
      failClosed: h.failClosed,
      stages: h.stages.names.map((s) => ({ name: s, doc: h.stages.docs[s] ?? "", default: h.stages.default === s })),
      taps: h.stagedTaps(),
    }));
}
export { BaseHook };

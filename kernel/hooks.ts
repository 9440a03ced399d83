/**
 * Typed hooks over tapable. A hook's kind is part of its type:
 *  - SeriesHook     (AsyncSeriesHook)          taps run one after another; no value
 *  - ParallelHook   (AsyncParallelHook)        taps run concurrently; no value
 *  - WaterfallHook  (AsyncSeriesWaterfallHook) each tap receives the previous tap's value and returns a new one
 *  - BailHook       (AsyncSeriesBailHook)      the first tap to return a value other than undefined wins
 *  - WrapHook       (SyncWaterfallHook over functions) each tap wraps the next executor (middleware)
 *
 * Every tap is named after its extension id and ordered by a named stage; load order breaks ties.
 * A hook is either fail-open (a throwing tap is logged and skipped) or fail-closed (a throwing tap
 * turns into the hook's `onTapError` value, e.g. a deny for security hooks).
 */
import tapable from "tapable";
import { OcError, ErrorCodes } from "./errors.js";

const { AsyncSeriesHook, AsyncParallelHook, AsyncSeriesWaterfallHook, AsyncSeriesBailHook, SyncWaterfallHook } =
  tapable;

/** Named stages. Lower runs first. */
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

export interface TapOptions {
  /** The tapping extension's id. Required: anonymous taps are refused. */
  name: string;
  /** A named stage (see Stages) or a number. */
  stage?: StageName | number;
}

export interface HookErrorSink {
  (hookName: string, tapName: string, error: unknown): void;
}

let errorSink: HookErrorSink = (hook, tap, error) => {
  process.stderr.write(`oceancode: tap '${tap}' on hook '${hook}' failed: ${String(error)}\n`);
};
/** The kernel routes tap failures to its logger. */
export function setHookErrorSink(sink: HookErrorSink): void {
  errorSink = sink;
}

function stageOf(opts: TapOptions): number {
  if (typeof opts.name !== "string" || opts.name.length === 0) {
    throw new OcError(ErrorCodes.HOOK_UNKNOWN_STAGE, "a tap must be named after its extension id");
  }
  if (opts.stage === undefined) return 0;
  if (typeof opts.stage === "number") return opts.stage;
  const s = Stages[opts.stage];
  if (s === undefined) throw new OcError(ErrorCodes.HOOK_UNKNOWN_STAGE, `unknown stage '${opts.stage}' in tap '${opts.name}'`);
  return s;
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
  constructor(
    readonly name: string,
    readonly doc: string,
  ) {}
  /** Names of the taps, in call order. */
  abstract taps(): string[];
}

export class SeriesHook<T> extends BaseHook {
  readonly kind = "series" as const;
  private readonly h = new AsyncSeriesHook<[T]>(["arg"]);
  tap(opts: TapOptions, fn: (arg: T) => void | Promise<void>): void {
    const name = this.name;
    this.h.tapPromise({ name: opts.name, stage: stageOf(opts) }, async (arg: T) => {
      try {
        await fn(arg);
      } catch (e) {
        errorSink(name, opts.name, e);
      }
    });
  }
  call(arg: T): Promise<void> {
    return this.h.promise(arg);
  }
  taps(): string[] {
    return this.h.taps.map((t) => t.name);
  }
}

export class ParallelHook<T> extends BaseHook {
  readonly kind = "parallel" as const;
  private readonly h = new AsyncParallelHook<[T]>(["arg"]);
  tap(opts: TapOptions, fn: (arg: T) => void | Promise<void>): void {
    const name = this.name;
    this.h.tapPromise({ name: opts.name, stage: stageOf(opts) }, async (arg: T) => {
      try {
        await fn(arg);
      } catch (e) {
        errorSink(name, opts.name, e);
      }
    });
  }
  call(arg: T): Promise<void> {
    return this.h.promise(arg);
  }
  taps(): string[] {
    return this.h.taps.map((t) => t.name);
  }
}

export class WaterfallHook<T, C = undefined> extends BaseHook {
  readonly kind = "waterfall" as const;
  private readonly h = new AsyncSeriesWaterfallHook<[T, C]>(["value", "context"]);
  tap(opts: TapOptions, fn: (value: T, context: C) => T | Promise<T>): void {
    const name = this.name;
    this.h.tapPromise({ name: opts.name, stage: stageOf(opts) }, async (value: T, context: C) => {
      try {
        const out = await fn(value, context);
        return out === undefined ? value : out;
      } catch (e) {
        errorSink(name, opts.name, e);
        return value;
      }
    });
  }
  call(value: T, context: C): Promise<T> {
    return this.h.promise(value, context) as Promise<T>;
  }
  taps(): string[] {
    return this.h.taps.map((t) => t.name);
  }
}

export class BailHook<T, R> extends BaseHook {
  readonly kind = "bail" as const;
  override readonly failClosed: boolean;
  private readonly h = new AsyncSeriesBailHook<[T], R | undefined>(["arg"]);
  /**
   * @param onTapError when set, the hook is fail-closed: a throwing tap bails with this value
   *   (security hooks return a deny naming the extension).
   */
  constructor(
    name: string,
    doc: string,
    private readonly onTapError?: (tapName: string, error: unknown) => R,
  ) {
    super(name, doc);
    this.failClosed = onTapError !== undefined;
  }
  tap(opts: TapOptions, fn: (arg: T) => R | undefined | Promise<R | undefined>): void {
    const name = this.name;
    const onErr = this.onTapError;
    this.h.tapPromise({ name: opts.name, stage: stageOf(opts) }, async (arg: T) => {
      try {
        return await fn(arg);
      } catch (e) {
        errorSink(name, opts.name, e);
        return onErr ? onErr(opts.name, e) : undefined;
      }
    });
  }
  call(arg: T): Promise<R | undefined> {
    return this.h.promise(arg) as Promise<R | undefined>;
  }
  taps(): string[] {
    return this.h.taps.map((t) => t.name);
  }
}

/** Middleware: each tap gets the next executor and returns a wrapped one. */
export class WrapHook<A, R> extends BaseHook {
  readonly kind = "wrap" as const;
  private readonly h = new SyncWaterfallHook<[(a: A) => Promise<R>]>(["next"]);
  tap(opts: TapOptions, wrap: (next: (a: A) => Promise<R>) => (a: A) => Promise<R>): void {
    this.h.tap({ name: opts.name, stage: stageOf(opts) }, (next: (a: A) => Promise<R>) => wrap(next));
  }
  /** Build the chain around `inner` and run it. Taps with a lower stage end up outermost. */
  call(arg: A, inner: (a: A) => Promise<R>): Promise<R> {
    // SyncWaterfallHook runs taps in stage order, each wrapping the previous result, so the last tap
    // is outermost; reverse so the lowest stage is outermost (sees the call first).
    const taps = [...this.h.taps].reverse();
    let fn = inner;
    for (const t of taps) fn = (t.fn as (n: (a: A) => Promise<R>) => (a: A) => Promise<R>)(fn);
    return fn(arg);
  }
  taps(): string[] {
    return this.h.taps.map((t) => t.name);
  }
}

export type AnyHook =
  | SeriesHook<never>
  | ParallelHook<never>
  | WaterfallHook<never, never>
  | BailHook<never, unknown>
  | WrapHook<never, unknown>;

/** Freeze a hooks object so nobody can add or swap a hook after it is declared. */
export function defineHooks<H extends Record<string, BaseHook>>(hooks: H): Readonly<H> {
  return Object.freeze(hooks);
}

export function describeHooks(hooks: Record<string, BaseHook>): Array<{ name: string; kind: HookKind; doc: string; failClosed: boolean; taps: string[] }> {
  return Object.values(hooks).map((h) => ({ name: h.name, kind: h.kind, doc: h.doc, failClosed: h.failClosed, taps: h.taps() }));
}
export { BaseHook };

/**
 * Stages and held answers, for kernel/hooks.ts: where a tap's stage sits in its hook's table (a missing
 * name, a bare number or an unknown stage refused with OC_ERR_HOOK_STAGE), and the answers a bail tap
 * holds until a later stage of the same hook (holdUntil).
 */
import { OcError, ErrorCodes } from "./errors.js";
import type { StageTable } from "./hook-decl.js";
import type { TapOptions } from "./hooks.js";

const STAGE_HINT = "a hook's stages are published in its owner's contract; `oceancode inspect --hooks` lists them";

/** The position of a tap's stage in its hook's table; a missing name, a bare number or an unknown stage is refused. */
export function stageIndex(hook: string, table: StageTable, opts: { name: string; stage?: unknown }): number {
  if (typeof opts.name !== "string" || opts.name.length === 0) {
    throw new OcError(ErrorCodes.HOOK_UNKNOWN_STAGE, `a tap on hook '${hook}' must be named after its extension id`);
  }
  const may = table.names.join(", ");
  if (opts.stage === undefined) {
    if (table.default !== undefined) return table.names.indexOf(table.default);
    throw new OcError(ErrorCodes.HOOK_UNKNOWN_STAGE, `tap '${opts.name}' on hook '${hook}' names no stage; this hook has no default: name one of ${may}`, { hint: STAGE_HINT });
  }
  if (typeof opts.stage !== "string") {
    throw new OcError(ErrorCodes.HOOK_UNKNOWN_STAGE, `tap '${opts.name}' on hook '${hook}' names stage ${JSON.stringify(opts.stage)}, a bare number; name one of its stages: ${may}`, { hint: STAGE_HINT });
  }
  const i = table.names.indexOf(opts.stage);
  if (i < 0) throw new OcError(ErrorCodes.HOOK_UNKNOWN_STAGE, `unknown stage '${opts.stage}' in tap '${opts.name}' on hook '${hook}'; its stages: ${may}`, { hint: STAGE_HINT });
  return i;
}

/** tapable's options for a tap: its stage's position, and `before` when given (tapable takes a list too; its types say string). */
export function tapableOptions(hook: string, table: StageTable, opts: TapOptions<string>): { name: string; stage: number; before?: string } {
  const stage = stageIndex(hook, table, opts);
  if (opts.before === undefined) return { name: opts.name, stage };
  return { name: opts.name, stage, before: (typeof opts.before === "string" ? opts.before : [...opts.before]) as unknown as string };
}

/** A bail answer held until a later stage of the same hook (see holdUntil). */
export interface HeldAnswer<R, S extends string = string> {
  readonly __ocHeldUntil: S;
  readonly value: R;
}
/**
 * A bail tap's answer that lands at `stage` (later in the same hook) instead of now: taps up to that
 * stage still run, and the first of them to answer wins; otherwise the held answer is the result when
 * the first tap of `stage` (or a later one) would run, or at the end. A stage not later than the tap's
 * own answers at once.
 */
export function holdUntil<R, S extends string>(stage: S, value: R): HeldAnswer<R, S> {
  return { __ocHeldUntil: stage, value };
}
export function isHeld(x: unknown): x is HeldAnswer<unknown> {
  return typeof x === "object" && x !== null && typeof (x as { __ocHeldUntil?: unknown }).__ocHeldUntil === "string";
}
/** One bail call's held answers: the first held for each stage position. */
export class Holds<R> {
  private readonly at: Array<{ stage: number; value: R }> = [];
  hold(stage: number, value: R): void {
    this.at.push({ stage, value });
  }
  /** the earliest-held answer due at `stage` or before */
  due(stage: number): R | undefined {
    let best: { stage: number; value: R } | undefined;
    for (const h of this.at) if (h.stage <= stage && (!best || h.stage < best.stage)) best = h;
    return best?.value;
  }
  rest(): R | undefined {
    return this.due(Number.POSITIVE_INFINITY);
  }
}


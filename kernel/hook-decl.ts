/**
 * Hook declarations: the one source of truth for a published hooks object. An extension declares each
 * hook once — name, kind, payload and result types, doc line, fail-closed — in a table exported from its
 * api module:
 *
 *   export const ENGINE_HOOKS = declareHooks("engine", {
 *     stop: hook.bail<StopContext, StopDecision>("the model settled: continue or settle"),
 *   });
 *   export type EngineHooks = HooksOf<typeof ENGINE_HOOKS>;   // { readonly stop: BailHook<StopContext, StopDecision> }
 *
 * createHooks(table) (kernel/hooks.ts) makes the instances; the kind is in the type (Rollup style). The
 * build (build/precompile.ts) checks the manifest's contributes.hooks against every table an extension's
 * api module exports: same names, kinds, docs and failClosed, none missing on either side.
 * This module has no dependencies, so an api module can declare hooks without loading tapable.
 */
import type { HookKind, SeriesHook, ParallelHook, WaterfallHook, BailHook, WrapHook } from "./hooks.js";

declare const PAYLOAD: unique symbol;

/**
 * A hook's ordered stages, published by the hook's owner in its contract: stage names in call order
 * (a wrap hook: outermost first), each with one line saying what belongs there. A tap names one of
 * them; a bare number is refused at registration. `default` is where a tap that names no stage goes;
 * a table without one makes every tap name its stage.
 */
export interface StageTable<S extends string = string> {
  readonly __ocStageTable: 1;
  /** in call order */
  readonly names: readonly S[];
  readonly docs: Readonly<Record<S, string>>;
  readonly default?: S;
}

/** Declare a stage table: `{ name: "what belongs here", ... }` in call order (object key order). Frozen. */
export function defineStages<const T extends Record<string, string>>(stages: T, opts: { default?: keyof T & string } = {}): StageTable<keyof T & string> {
  const names = Object.keys(stages) as Array<keyof T & string>;
  if (opts.default !== undefined && !names.includes(opts.default)) throw new TypeError(`default stage '${opts.default}' is not in the table (${names.join(", ")})`);
  return Object.freeze({
    __ocStageTable: 1 as const,
    names: Object.freeze(names),
    docs: Object.freeze({ ...stages }),
    ...(opts.default !== undefined ? { default: opts.default } : {}),
  });
}

/**
 * The kernel's general-purpose stages, for a hook whose owner publishes none of its own. Lower runs
 * first; load order breaks ties within a stage.
 */
export const STANDARD_STAGES = defineStages(
  {
    STAGE_FLOOR: "hard safety floors",
    STAGE_POLICY: "rules and modes",
    STAGE_GUARD: "classifiers and guards",
    STAGE_DEFAULT: "a tap that names no stage",
    STAGE_ENRICH: "adds context",
    STAGE_AUDIT: "observes and records",
    STAGE_ASK: "last resort",
  },
  { default: "STAGE_DEFAULT" },
);
export type StandardStage = (typeof STANDARD_STAGES.names)[number];

/** One hook's declaration. `P` carries the payload types at the type level only; `S` its stage names. */
export interface HookDecl<K extends HookKind = HookKind, P extends unknown[] = unknown[], S extends string = string> {
  readonly kind: K;
  /** one line, as the manifest's contributes.hooks doc repeats it */
  readonly doc: string;
  readonly failClosed: boolean;
  /** fail-closed bail hooks: the answer when a tap throws or times out (e.g. a deny naming the extension) */
  readonly onTapError?: (tapName: string, error: unknown) => unknown;
  /** the stages its taps name, in order (STANDARD_STAGES unless the owner publishes its own) */
  readonly stages: StageTable<S>;
  readonly [PAYLOAD]?: P;
}

/** Declare one hook; the kind is the function, the payload types its type parameters. */
export const hook = {
  /** taps run one after another; no value */
  series: <T>(doc: string): HookDecl<"series", [T], StandardStage> => ({ kind: "series", doc, failClosed: false, stages: STANDARD_STAGES }),
  /** taps run concurrently; no value */
  parallel: <T>(doc: string): HookDecl<"parallel", [T], StandardStage> => ({ kind: "parallel", doc, failClosed: false, stages: STANDARD_STAGES }),
  /** each tap gets the previous tap's value (and a context) and returns the next */
  waterfall: <T, C = undefined>(doc: string): HookDecl<"waterfall", [T, C], StandardStage> => ({ kind: "waterfall", doc, failClosed: false, stages: STANDARD_STAGES }),
  /** the first tap returning a value wins; with `onTapError` the hook is fail-closed */
  bail: <T, R>(doc: string, onTapError?: (tapName: string, error: unknown) => R): HookDecl<"bail", [T, R], StandardStage> =>
    onTapError ? { kind: "bail", doc, failClosed: true, onTapError, stages: STANDARD_STAGES } : { kind: "bail", doc, failClosed: false, stages: STANDARD_STAGES },
  /** middleware: each tap wraps the next executor */
  wrap: <A, R>(doc: string): HookDecl<"wrap", [A, R], StandardStage> => ({ kind: "wrap", doc, failClosed: false, stages: STANDARD_STAGES }),
};

/** The same declaration with its owner's own stage table: `staged(PROMPT_STAGES, hook.waterfall<...>("..."))`. */
export function staged<K extends HookKind, P extends unknown[], S extends string>(stages: StageTable<S>, d: HookDecl<K, P, string>): HookDecl<K, P, S> {
  return { ...d, stages } as HookDecl<K, P, S>;
}

/** A table of hook declarations under a name prefix: hook `key` is named `${prefix}.${key}`. */
export interface HookTable<H extends Record<string, HookDecl> = Record<string, HookDecl>> {
  readonly __ocHookTable: 1;
  readonly prefix: string;
  readonly hooks: H;
}

export function declareHooks<H extends Record<string, HookDecl>>(prefix: string, hooks: H): HookTable<H> {
  return Object.freeze({ __ocHookTable: 1 as const, prefix, hooks: Object.freeze(hooks) });
}

export function isHookTable(x: unknown): x is HookTable {
  return typeof x === "object" && x !== null && (x as { __ocHookTable?: unknown }).__ocHookTable === 1;
}

/** The hook instance type a declaration makes. */
export type HookOf<D> =
  D extends HookDecl<"series", [infer T], infer S>
    ? SeriesHook<T, S>
    : D extends HookDecl<"parallel", [infer T], infer S>
      ? ParallelHook<T, S>
      : D extends HookDecl<"waterfall", [infer T, infer C], infer S>
        ? WaterfallHook<T, C, S>
        : D extends HookDecl<"bail", [infer T, infer R], infer S>
          ? BailHook<T, R, S>
          : D extends HookDecl<"wrap", [infer A, infer R], infer S>
            ? WrapHook<A, R, S>
            : never;

/** The hooks object a table makes: one typed, frozen instance per declaration. */
export type HooksOf<T extends HookTable> = { readonly [K in keyof T["hooks"]]: HookOf<T["hooks"][K]> };

/** A manifest contributes.hooks entry. */
export interface ManifestHookEntry {
  name: string;
  kind: string;
  doc: string;
  failClosed?: boolean;
}

/**
 * Where a manifest's contributes.hooks and the declaration tables disagree: one line per problem
 * (a hook missing on either side, or a different kind, doc or failClosed). Empty when they agree.
 */
export function checkManifestHooks(where: string, manifestHooks: readonly ManifestHookEntry[], tables: readonly HookTable[]): string[] {
  const declared = new Map<string, HookDecl>();
  for (const t of tables) for (const [key, d] of Object.entries(t.hooks)) declared.set(`${t.prefix}.${key}`, d);
  const problems: string[] = [];
  const listed = new Set<string>();
  for (const m of manifestHooks) {
    if (listed.has(m.name)) problems.push(`${where}: hook '${m.name}' is listed twice in contributes.hooks`);
    listed.add(m.name);
    const d = declared.get(m.name);
    if (!d) {
      problems.push(`${where}: contributes.hooks lists '${m.name}', which the extension's api declares no hook for`);
      continue;
    }
    if (m.kind !== d.kind) problems.push(`${where}: hook '${m.name}' is '${m.kind}' in the manifest but declared '${d.kind}'`);
    if (m.doc !== d.doc) problems.push(`${where}: hook '${m.name}' doc differs: manifest "${m.doc}", declared "${d.doc}"`);
    if ((m.failClosed === true) !== d.failClosed) problems.push(`${where}: hook '${m.name}' failClosed is ${m.failClosed === true} in the manifest but declared ${d.failClosed}`);
  }
  for (const [name, d] of declared) {
    if (!listed.has(name)) problems.push(`${where}: hook '${name}' (${d.kind}) is declared but missing from contributes.hooks`);
  }
  return problems;
}

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

/** One hook's declaration. `P` carries the payload types at the type level only. */
export interface HookDecl<K extends HookKind = HookKind, P extends unknown[] = unknown[]> {
  readonly kind: K;
  /** one line, as the manifest's contributes.hooks doc repeats it */
  readonly doc: string;
  readonly failClosed: boolean;
  /** fail-closed bail hooks: the answer when a tap throws or times out (e.g. a deny naming the extension) */
  readonly onTapError?: (tapName: string, error: unknown) => unknown;
  readonly [PAYLOAD]?: P;
}

/** Declare one hook; the kind is the function, the payload types its type parameters. */
export const hook = {
  /** taps run one after another; no value */
  series: <T>(doc: string): HookDecl<"series", [T]> => ({ kind: "series", doc, failClosed: false }),
  /** taps run concurrently; no value */
  parallel: <T>(doc: string): HookDecl<"parallel", [T]> => ({ kind: "parallel", doc, failClosed: false }),
  /** each tap gets the previous tap's value (and a context) and returns the next */
  waterfall: <T, C = undefined>(doc: string): HookDecl<"waterfall", [T, C]> => ({ kind: "waterfall", doc, failClosed: false }),
  /** the first tap returning a value wins; with `onTapError` the hook is fail-closed */
  bail: <T, R>(doc: string, onTapError?: (tapName: string, error: unknown) => R): HookDecl<"bail", [T, R]> =>
    onTapError ? { kind: "bail", doc, failClosed: true, onTapError } : { kind: "bail", doc, failClosed: false },
  /** middleware: each tap wraps the next executor */
  wrap: <A, R>(doc: string): HookDecl<"wrap", [A, R]> => ({ kind: "wrap", doc, failClosed: false }),
};

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
  D extends HookDecl<"series", [infer T]>
    ? SeriesHook<T>
    : D extends HookDecl<"parallel", [infer T]>
      ? ParallelHook<T>
      : D extends HookDecl<"waterfall", [infer T, infer C]>
        ? WaterfallHook<T, C>
        : D extends HookDecl<"bail", [infer T, infer R]>
          ? BailHook<T, R>
          : D extends HookDecl<"wrap", [infer A, infer R]>
            ? WrapHook<A, R>
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

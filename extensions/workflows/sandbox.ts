/**
 * The QuickJS sandbox: a workflow script is an ES module evaluated in QuickJS compiled to WebAssembly, in a
 * fresh WebAssembly instance per run (nothing a script does can reach another run or the host process).
 * Its globals are QuickJS's own (no require, process, fetch, timers, fs); the one way out is the `api`
 * object its entry function receives, whose methods call host ops by name with JSON-only values.
 * Limits: memory (setMemoryLimit), stack (setMaxStackSize) and a time slice per stretch of synchronous
 * execution (the interrupt handler), so an endless loop, an unbounded allocation or recursion ends the run
 * with a clear error while the host stays as it was.
 */
import { newQuickJSWASMModuleFromVariant, type QuickJSContext, type QuickJSHandle, type QuickJSRuntime } from "quickjs-emscripten-core";
import variantModule from "@jitl/quickjs-wasmfile-release-sync";
import type { OcError } from "../../kernel/api.js";
import { WorkflowScript } from "./errors.js";

type Variant = Parameters<typeof newQuickJSWASMModuleFromVariant>[0];
// the package's ESM build exports the variant as default; its CommonJS typings describe module.exports
const variant = ((variantModule as unknown as { default?: Variant }).default ?? variantModule) as Variant;

export interface SandboxLimits {
  memoryBytes: number;
  stackBytes: number;
  /** the longest a script may run without awaiting the host */
  sliceMs: number;
}

export const DEFAULT_LIMITS: SandboxLimits = { memoryBytes: 64 * 1024 * 1024, stackBytes: 256 * 1024, sliceMs: 2000 };

/** A host op: takes the script's JSON argument, resolves to a JSON-able value. */
export type HostOp = (arg: unknown) => Promise<unknown>;

/** The script's failure (OC_ERR_WORKFLOW_SCRIPT); `data.where` is where it threw, when known. */
export function ScriptError(message: string, where?: string): OcError<{ where?: string }> {
  return WorkflowScript({ message }, { data: where === undefined ? {} : { where } });
}
export const isScriptError = (e: unknown): boolean => WorkflowScript.is(e);

/** The in-sandbox prelude: builds the frozen `api` object over the single host function. */
const PRELUDE = `(() => {
  const host = globalThis.__oc_host;
  delete globalThis.__oc_host;
  const call = async (op, arg) => { const r = await host(op, JSON.stringify(arg === undefined ? null : arg)); return r === "" ? undefined : JSON.parse(r); };
  const text = (parts) => parts.map((p) => typeof p === "string" ? p : JSON.stringify(p)).join(" ");
  const args = JSON.parse(globalThis.__oc_args);
  delete globalThis.__oc_args;
  const api = Object.freeze({
    args,
    session: (spec) => call("session", spec),
    resume: (sessionId, prompt) => call("resume", { sessionId, prompt }),
    parallel: (specs, opts) => call("parallel", { specs, opts }),
    progress: (t) => call("progress", String(t)),
    budget: () => call("budget"),
    ask: (q) => call("ask", String(q)),
    sleep: (ms) => call("sleep", ms),
    log: (...parts) => call("log", text(parts)),
  });
  globalThis.console = Object.freeze({ log: (...p) => { api.log(...p); }, error: (...p) => { api.log(...p); }, warn: (...p) => { api.log(...p); } });
  return api;
})()`;

interface Vm {
  runtime: QuickJSRuntime;
  ctx: QuickJSContext;
  /** the current slice's deadline (ms since epoch) */
  deadline: number;
  halted: boolean;
}

async function newVm(limits: SandboxLimits): Promise<Vm> {
  const mod = await newQuickJSWASMModuleFromVariant(variant);
  const runtime = mod.newRuntime();
  runtime.setMemoryLimit(limits.memoryBytes);
  runtime.setMaxStackSize(limits.stackBytes);
  const vm: Vm = { runtime, ctx: runtime.newContext(), deadline: Date.now() + limits.sliceMs, halted: false };
  runtime.setInterruptHandler(() => vm.halted || Date.now() > vm.deadline);
  return vm;
}

function dispose(vm: Vm): void {
  // Each run has its own WebAssembly instance, dropped whole when the run ends (garbage collected). Freeing
  // the QuickJS runtime instead would assert on any handle a halted script still holds, and abort loudly.
  vm.halted = true;
}

/** A thrown value from the sandbox as one clear line (the limit it hit, or the script's own message). */
function describe(vm: Vm, handle: QuickJSHandle, limits: SandboxLimits, file: string): OcError {
  let raw: unknown;
  try {
    raw = vm.ctx.dump(handle);
  } catch {
    raw = { message: "out of memory" };
  }
  const e = (raw && typeof raw === "object" ? raw : { message: String(raw) }) as { name?: string; message?: string; stack?: string };
  const msg = String(e.message ?? "");
  const where = /\s*at\s+(?:.*?\()?([^()\s]+:\d+:\d+)/.exec(e.stack ?? "")?.[1];
  if (vm.halted) return ScriptError("the run was stopped");
  if (/interrupted/i.test(msg)) return ScriptError(`the script ran ${limits.sliceMs} ms without awaiting the host (an endless loop?): stopped by its time slice`, where);
  if (/out of memory/i.test(msg)) return ScriptError(`the script ran out of its ${Math.round(limits.memoryBytes / 1048576)} MB memory limit`, where);
  if (/stack overflow|call stack/i.test(msg)) return ScriptError(`the script overflowed its ${Math.round(limits.stackBytes / 1024)} KB stack (unbounded recursion?)`, where);
  const name = e.name && e.name !== "Error" ? `${e.name}: ` : "";
  return ScriptError(`${name}${msg}${where ? ` (at ${where.startsWith(file) ? where : `${file}:${where}`})` : ""}`, where);
}

/** Parse and compile a module without running it: undefined, or `file:line:column: message`. */
export async function compileCheck(source: string, file: string, limits: SandboxLimits = DEFAULT_LIMITS): Promise<string | undefined> {
  const vm = await newVm(limits);
  try {
    const r = vm.ctx.evalCode(source, file, { type: "module", compileOnly: true });
    if (r.error) {
      const raw = vm.ctx.dump(r.error) as { name?: string; message?: string; stack?: string; lineNumber?: number };
      r.error.dispose();
      const where = /([^\s()]+:\d+:\d+)/.exec(raw.stack ?? "")?.[1] ?? `${file}:${raw.lineNumber ?? 1}:1`;
      return `${where}: ${raw.name ?? "SyntaxError"}: ${raw.message ?? "cannot compile"}`;
    }
    r.value.dispose();
    return undefined;
  } finally {
    dispose(vm);
  }
}

/** Evaluate a module in a sandbox with no host API and read its `meta` (discovery). Throws ScriptError. */
export async function readMeta(source: string, file: string, limits: SandboxLimits = { ...DEFAULT_LIMITS, sliceMs: 500, memoryBytes: 16 * 1024 * 1024 }): Promise<{ name: string; description: string }> {
  const vm = await newVm(limits);
  try {
    vm.deadline = Date.now() + limits.sliceMs;
    const r = vm.ctx.evalCode(source, file, { type: "module" });
    if (r.error) throw describe(vm, r.error, limits, file);
    const state = vm.ctx.getPromiseState(r.value);
    if (state.type !== "fulfilled") throw ScriptError("the module did not finish loading (top-level await is not allowed in a workflow)");
    const meta = vm.ctx.dump(vm.ctx.getProp(state.value, "meta")) as { name?: unknown; description?: unknown } | undefined;
    if (!meta || typeof meta.name !== "string" || !meta.name.trim()) throw ScriptError("it exports no meta.name (export const meta = { name, description })");
    return { name: meta.name.trim(), description: typeof meta.description === "string" ? meta.description : "" };
  } finally {
    dispose(vm);
  }
}

export interface RunScriptOptions {
  args: unknown;
  ops: Record<string, HostOp>;
  limits?: SandboxLimits;
  /** true once the run is ending for another reason (stopped, paused, budget): the script is abandoned */
  halted(): boolean;
  /** resolves when halted() may have turned true */
  onHalt: Promise<void>;
}

/**
 * Run a script's entry (`export default async function main(api)`, or `export async function run(api)`)
 * to its end. Resolves to its return value (JSON), or undefined when the run was halted; throws ScriptError.
 */
export async function runScript(source: string, file: string, opts: RunScriptOptions): Promise<unknown> {
  const limits = opts.limits ?? DEFAULT_LIMITS;
  try {
    return await runInVm(source, file, opts, limits);
  } catch (e) {
    if (isScriptError(e)) throw e;
    // the WebAssembly instance itself gave out (its own stack): this run's instance is dropped, the host goes on
    if (e instanceof RangeError) throw ScriptError(`the script overflowed its ${Math.round(limits.stackBytes / 1024)} KB stack (unbounded recursion?)`);
    throw ScriptError(`the sandbox failed: ${e instanceof Error ? e.message : String(e)}`);
  }
}

async function runInVm(source: string, file: string, opts: RunScriptOptions, limitsIn: SandboxLimits): Promise<unknown> {
  const limits = limitsIn;
    const vm = await newVm(limits);
  const { ctx, runtime } = vm;
  let wake: () => void = () => undefined;
  let woken = new Promise<void>((r) => (wake = r));
  const ring = () => {
    const w = wake;
    woken = new Promise<void>((r) => (wake = r));
    w();
  };
  void opts.onHalt.then(() => {
    vm.halted = true;
    ring();
  });
  const slice = () => (vm.deadline = Date.now() + limits.sliceMs);
  try {
    const host = ctx.newFunction("__oc_host", (opH, argH) => {
      const op = ctx.getString(opH);
      const arg = JSON.parse(ctx.getString(argH)) as unknown;
      const d = ctx.newPromise();
      const fn = Object.prototype.hasOwnProperty.call(opts.ops, op) ? opts.ops[op] : undefined;
      const p = fn ? fn(arg) : Promise.reject(new Error(`unknown host call '${op}'`));
      p.then(
        (v) => {
          if (vm.halted || !d.alive) return;
          const s = ctx.newString(v === undefined ? "" : JSON.stringify(v));
          d.resolve(s);
          s.dispose();
        },
        (e: unknown) => {
          if (vm.halted || !d.alive) return;
          const err = ctx.newError(e instanceof Error ? e.message : String(e));
          d.reject(err);
          err.dispose();
        },
      ).finally(() => {
        if (d.alive) d.dispose();
        ring();
      });
      return d.handle;
    });
    ctx.setProp(ctx.global, "__oc_host", host);
    host.dispose();
    const argsH = ctx.newString(JSON.stringify(opts.args ?? null));
    ctx.setProp(ctx.global, "__oc_args", argsH);
    argsH.dispose();

    slice();
    const apiR = ctx.evalCode(PRELUDE, "<prelude>");
    if (apiR.error) throw describe(vm, apiR.error, limits, file);
    const api = apiR.value;

    slice();
    const modR = ctx.evalCode(source, file, { type: "module" });
    if (modR.error) throw describe(vm, modR.error, limits, file);
    const loaded = ctx.getPromiseState(modR.value);
    if (loaded.type !== "fulfilled") throw ScriptError("the module did not finish loading (top-level await is not allowed in a workflow)");
    const ns = loaded.value;
    let entry = ctx.getProp(ns, "default");
    if (ctx.typeof(entry) !== "function") {
      entry.dispose();
      entry = ctx.getProp(ns, "run");
    }
    if (ctx.typeof(entry) !== "function") throw ScriptError("the script exports no entry: export default async function main(api) { … } (or export async function run(api))");

    slice();
    const callR = ctx.callFunction(entry, ctx.undefined, api);
    if (callR.error) throw describe(vm, callR.error, limits, file);
    const result = callR.value;
    for (;;) {
      if (vm.halted || opts.halted()) return undefined;
      slice();
      const jobs = runtime.executePendingJobs();
      if (jobs.error) throw describe(vm, jobs.error, limits, file);
      const state = ctx.getPromiseState(result);
      if (state.type === "fulfilled") {
        if (state.notAPromise) return ctx.dump(result);
        const v = ctx.dump(state.value);
        state.value.dispose();
        return v;
      }
      if (state.type === "rejected") throw describe(vm, state.error, limits, file);
      if (runtime.hasPendingJob()) continue;
      await woken; // a host call settles (or the run halts): more jobs to run
    }
  } finally {
    dispose(vm);
  }
}

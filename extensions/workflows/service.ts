/** The `workflows` service: the built-in registry, discovery, launching a run (built-in, discovered or a typed path) and the control seam. */
import fs from "node:fs";
import path from "node:path";
import type { EngineService } from "../engine/api.js";
import type { BuiltinWorkflow, LaunchOptions, RunBody, RunOutcome, WorkflowEntry, WorkflowsService } from "./api.js";
import { WORKFLOWS_API_VERSION } from "./api.js";
import { RunStore } from "./store.js";
import { discover, PORTING_DOC } from "./discovery.js";
// the QuickJS sandbox loads when a script is checked or run: the extension activates with every session (serve routes)
import type { SandboxLimits } from "./sandbox.js";
import { hostOps } from "./host-ops.js";
import { pauseRun, resumeRun, startRun, stopRun, type LiveRun } from "./run.js";
import { isBudgetSpent, pauseOf, WorkflowError } from "./errors.js";

export interface ServiceDeps {
  dataDir: string;
  userOcDir: string;
  engine(): Promise<EngineService>;
  defaultModel(): string;
  projectTrusted(project: string): boolean;
  log(text: string): void;
  limits?: SandboxLimits;
}

/** What `workflow run <target>` names: a built-in, a discovered script, or a script file typed as a path. */
export type Target = { kind: "builtin"; def: BuiltinWorkflow } | { kind: "script"; name: string; file: string; source: string };

export function looksLikePath(t: string): boolean {
  return t.includes("/") || t.includes(path.sep) || /\.(m?js|rhai)$/.test(t);
}

export class Workflows implements WorkflowsService {
  readonly version = WORKFLOWS_API_VERSION;
  private builtins = new Map<string, BuiltinWorkflow>();
  readonly store: RunStore;
  constructor(private deps: ServiceDeps) {
    this.store = new RunStore(deps.dataDir);
  }

  registerBuiltin(def: BuiltinWorkflow): void {
    if (this.builtins.has(def.name)) throw WorkflowError(`a built-in workflow '${def.name}' is already registered`);
    this.builtins.set(def.name, def);
  }

  builtin(name: string): BuiltinWorkflow | undefined {
    return this.builtins.get(name);
  }

  list(project: string): Promise<{ entries: WorkflowEntry[]; warnings: string[] }> {
    return this.discover(project);
  }

  discover(project: string): ReturnType<typeof discover> {
    return discover({ project, userOcDir: this.deps.userOcDir, builtins: [...this.builtins.values()], projectTrusted: this.deps.projectTrusted(project) });
  }

  /** Resolve a target; warnings (shadowing, .rhai) go to `warn`. Throws WorkflowError for an unknown name or unreadable path. */
  async resolve(target: string, project: string, warn: (w: string) => void): Promise<Target> {
    if (looksLikePath(target)) {
      const file = path.resolve(project, target);
      if (file.endsWith(".rhai")) throw WorkflowError(`${target}: .rhai workflows are not supported: workflows are JavaScript modules now; see ${PORTING_DOC}`, "OC_ERR_WORKFLOW_USAGE");
      let source: string;
      try {
        source = fs.readFileSync(file, "utf8");
      } catch (e) {
        throw WorkflowError(`cannot read ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`, "OC_ERR_WORKFLOW_USAGE");
      }
      return { kind: "script", name: path.basename(file).replace(/\.(m?js)$/, ""), file, source };
    }
    const found = await this.discover(project);
    for (const w of found.warnings) warn(w);
    const b = this.builtins.get(target);
    if (b) return { kind: "builtin", def: b };
    const e = found.entries.find((x) => x.name === target);
    if (!e?.file) {
      const names = found.entries.map((x) => x.name).join(", ");
      throw WorkflowError(`no workflow named '${target}' (known: ${names || "none"})`, "OC_ERR_WORKFLOW_USAGE");
    }
    // a project script runs only because it was named here; its sessions still go through permissions and containment
    return { kind: "script", name: e.name, file: e.file, source: fs.readFileSync(e.file, "utf8") };
  }

  /** --validate-only: compile a script or check a built-in's args; undefined, or the usage error. */
  async validate(t: Target, args: unknown): Promise<string | undefined> {
    if (t.kind === "builtin") return t.def.validate?.(args);
    const { compileCheck, DEFAULT_LIMITS } = await import("./sandbox.js");
    return compileCheck(t.source, t.file, this.deps.limits ?? DEFAULT_LIMITS);
  }

  async launch(target: string, project: string, opts: LaunchOptions): Promise<RunBody> {
    const t = await this.resolve(target, project, (w) => this.deps.log(`warning: ${w}`));
    const bad = await this.validate(t, opts.args ?? null);
    if (bad) throw WorkflowError(bad, "OC_ERR_WORKFLOW_USAGE");
    return this.start(t, project, opts);
  }

  async start(t: Target, project: string, opts: LaunchOptions & { log?(text: string): void }): Promise<RunBody> {
    const engine = await this.deps.engine();
    const model = opts.model ?? this.deps.defaultModel();
    const log = opts.log ?? this.deps.log;
    const execute =
      t.kind === "builtin"
        ? (ctx: Parameters<BuiltinWorkflow["run"]>[0]) => t.def.run(ctx)
        : async (ctx: Parameters<BuiltinWorkflow["run"]>[0], run: LiveRun): Promise<RunOutcome> => {
            // an outcome a host call decides (a pause, a spent budget) ends the script: it cannot catch it
            let fatal: Error | undefined;
            const halt = new AbortController();
            const onHalt = new Promise<void>((res) => {
              halt.signal.addEventListener("abort", () => res(), { once: true });
              ctx.signal.addEventListener("abort", () => res(), { once: true });
            });
            const ops = hostOps(ctx, run, { defaultModel: model, log });
            for (const [k, fn] of Object.entries(ops)) {
              ops[k] = async (a) => {
                try {
                  return await fn(a);
                } catch (e) {
                  if (pauseOf(e) || isBudgetSpent(e)) {
                    fatal = e as Error;
                    halt.abort();
                  }
                  throw e;
                }
              };
            }
            const { runScript } = await import("./sandbox.js");
            const result = await runScript(t.source, t.file, { args: opts.args ?? null, ops, limits: this.deps.limits, halted: () => halt.signal.aborted || ctx.signal.aborted, onHalt });
            if (fatal) throw fatal;
            if (ctx.signal.aborted) return { status: "cancelled", error: "the run was stopped" };
            return { status: "complete", ...(result === undefined ? {} : { result }) };
          };
    return startRun({
      workflow: t.kind === "builtin" ? t.def.name : t.name,
      kind: t.kind === "builtin" ? t.def.kind : "workflow",
      project,
      args: opts.args ?? null,
      budget: opts.budget ?? null,
      model,
      overrides: { ...(opts.maxUsd !== undefined ? { max_usd: opts.maxUsd } : {}), ...(opts.maxMinutes !== undefined ? { max_minutes: opts.maxMinutes } : {}) },
      store: this.store,
      engine,
      signal: opts.signal,
      onBody: opts.onBody,
      execute,
    });
  }

  pause(runId: string): boolean {
    return pauseRun(runId);
  }
  resume(runId: string, opts?: { budget?: number }): boolean {
    return resumeRun(runId, opts);
  }
  stop(runId: string): boolean {
    return stopRun(runId);
  }
}

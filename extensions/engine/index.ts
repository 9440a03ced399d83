/** The engine extension: builds the Engine and provides it as service "engine". */
import { type ExtensionContext, type PointContribution } from "../../kernel/api.js";
import { Engine, stepCap, subagentStepCap } from "./engine.js";
import { OBS_SERVICE, type ObsService } from "../obs/api.js";
import { type ModelNameEntry } from "./api.js";
import { ModelNames } from "./kit/model-names.js";
import type { CrashService } from "../crash/api.js";

/** name -> the extension whose manifest declares it, for one of the engine's contribution points */
function declared<T>(contributions: Array<PointContribution<T[]>>, name: (entry: T) => string): Map<string, string> {
  const out = new Map<string, string>();
  for (const c of contributions) for (const e of c.value) out.set(name(e), c.extension);
  return out;
}

export default {
  activate(ctx: ExtensionContext) {
    const cfg = ctx.config.section<{
      max_retries?: number;
      idle_minutes?: number;
      system_prompt?: string;
      max_stop_continuations?: number;
    }>("engine");
    const engine = new Engine({
      activate: (event) => ctx.activate(event),
      log: ctx.log,
      logContext: ctx.services.tryGet(OBS_SERVICE),
      env: ctx.env,
      maxSteps: (stored) => stepCap(ctx.config, stored),
      maxSubagentSteps: () => subagentStepCap(ctx.config),
      maxRetries: ctx.env.OC_MAX_RETRIES !== undefined ? Number(ctx.env.OC_MAX_RETRIES) : (cfg.max_retries ?? 4),
      idleMinutes: cfg.idle_minutes ?? 15,
      systemPromptExtra: cfg.system_prompt,
      maxStopContinuations: cfg.max_stop_continuations,
      names: ModelNames.fromContributions(ctx.contributions<string[]>("providers"), ctx.contributions<ModelNameEntry[]>("models")),
      declared: {
        tools: declared(ctx.contributions<Array<{ name: string }>>("tools"), (t) => t.name),
        providers: declared(ctx.contributions<string[]>("providers"), (p) => p),
        optionalTools: new Set(ctx.contributions<Array<{ name: string; optional?: boolean }>>("tools").flatMap((c) => c.value.filter((t) => t.optional === true).map((t) => t.name))),
      },
    });
    // tap failures and timeouts on the engine's hooks land in the kernel's hook error sink
    ctx.bindHooks(engine.hooks);
    ctx.kernelHooks.shutdown.tap({ name: "engine" }, () => engine.dispose());
    ctx.provide("engine", engine);
    // a crash report names the sessions open in this process
    const crash = ctx.services.tryGet("crash");
    if (crash) {
      const open = new Set<string>();
      engine.hooks.sessionStart.tap({ name: "engine:crash" }, ({ session }) => void open.add(session.info.id));
      engine.hooks.sessionEnd.tap({ name: "engine:crash" }, ({ session }) => void open.delete(session.info.id));
      crash.addContext({ sessions: () => [...open] });
    }
  },
};

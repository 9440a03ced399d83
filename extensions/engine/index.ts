/** The engine extension: builds the Engine and provides it as service "engine". */
import type { ExtensionContext } from "../../kernel/api.js";
import { Engine } from "./engine.js";

export default {
  activate(ctx: ExtensionContext) {
    const cfg = ctx.config.section<{
      max_retries?: number;
      idle_minutes?: number;
      system_prompt?: string;
      max_steps?: number;
      max_stop_continuations?: number;
    }>("engine");
    const engine = new Engine({
      activate: (event) => ctx.activate(event),
      log: ctx.log,
      env: ctx.env,
      maxRetries: ctx.env.OC_MAX_RETRIES !== undefined ? Number(ctx.env.OC_MAX_RETRIES) : (cfg.max_retries ?? 4),
      idleMinutes: cfg.idle_minutes ?? 15,
      systemPromptExtra: cfg.system_prompt,
      // OC_MAX_STEPS (and --max-steps, which sets it) still wins over the config value
      maxSteps: cfg.max_steps,
      maxStopContinuations: cfg.max_stop_continuations,
    });
    // tap failures and timeouts on the engine's hooks land in the kernel's hook error sink
    ctx.bindHooks(engine.hooks);
    ctx.kernelHooks.shutdown.tap({ name: "engine" }, () => engine.dispose());
    ctx.provide("engine", engine);
  },
};

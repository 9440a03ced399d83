/** child-env: taps engine.hooks.childProcess (STAGE_POLICY, before the sandbox wraps the spawn). */
import type { ExtensionContext } from "../../kernel/api.js";
import { composeEnv, type ChildEnvConfig } from "./env.js";

export default {
  activate(ctx: ExtensionContext) {
    const engine = ctx.services.tryGet("engine");
    if (!engine) return;
    const cfg = ctx.config.section<ChildEnvConfig>("child_env");
    engine.hooks.childProcess.tap({ name: ctx.id, stage: "STAGE_POLICY" }, (spec) => ({ ...spec, env: composeEnv(spec.env ?? process.env, cfg) }));
  },
};

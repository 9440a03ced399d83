/**
 * sandbox: off by default. When sandbox.enabled, taps engine.hooks.childProcess at STAGE_AUDIT (after
 * child-env composed the environment) and wraps every child in bwrap / sandbox-exec.
 */
import type { ExtensionContext } from "../../kernel/api.js";
import type { EngineService } from "../engine/api.js";
import { planFor, type SandboxConfig } from "./config.js";
import { wrapSpawn, failingSpec } from "./wrap.js";
import { startRelay, type Relay } from "./relay.js";
import { findOnPath, BWRAP_MISSING } from "./bwrap.js";

export default {
  activate(ctx: ExtensionContext) {
    const cfg = ctx.config.section<SandboxConfig>("sandbox");
    if (!cfg.enabled) return;
    if (process.platform === "linux" && !findOnPath("bwrap")) ctx.log.error(BWRAP_MISSING);
    const engine = ctx.services.tryGet<EngineService>("engine");
    if (!engine) return;
    let relay: Promise<Relay> | undefined;
    ctx.kernelHooks.shutdown?.tap({ name: ctx.id }, async () => {
      if (relay) await (await relay).close();
    });
    engine.hooks.childProcess.tap({ name: ctx.id, stage: "STAGE_AUDIT" }, async (spec) => {
      const plan = planFor(cfg, ctx.paths.project, spec.cwd, ctx.paths.home);
      try {
        let relayDir: string | undefined;
        if (plan.network === "allowlist") {
          relay ??= startRelay(plan.allowHosts, (m) => ctx.log.warn(m));
          relayDir = (await relay).dir;
        }
        return wrapSpawn(spec, plan, { relayDir });
      } catch (e) {
        // fail closed: a sandbox that cannot be set up must not turn into an unsandboxed run
        return failingSpec(spec, `sandbox setup failed: ${(e as Error).message}`);
      }
    });
  },
};

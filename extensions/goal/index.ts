/** Goal mode: the `oceancode goal` command, the `/orchestrate` slash command, and the `goal` built-in of the workflows service when it is there. */
import path from "node:path";
import type { CommandIO, ExtensionContext } from "../../kernel/api.js";
import { goalCommand } from "./cli.js";
import { registerGoalBuiltin } from "./builtin.js";
import { orchestrateSlash } from "./slash.js";
import { runsDir } from "./store.js";

const int = (v: unknown, dflt: number): number => (typeof v === "number" && Number.isInteger(v) && v > 0 ? v : dflt);

export default {
  activate(ctx: ExtensionContext) {
    const skeptics = () => int(ctx.config.get("goal.skeptics"), 2);
    const maxRounds = () => int(ctx.config.get("goal.max_rounds"), 8);
    const configuredModel = () => {
      const m = ctx.config.get("model");
      return typeof m === "string" && m ? m : undefined;
    };
    const hasPlanMode = () => ctx.services.has("plan-mode");
    const root = runsDir(ctx.paths.dataDir);
    const dataDir = ctx.paths.dataDir;
    const project = path.resolve(ctx.paths.project);
    const engine = async () => {
      // the providers, tools and guards a session needs (as run boots them)
      await ctx.activate("onSession");
      return ctx.services.get("engine");
    };
    ctx.registerCommand("goal", (argv: string[], io: CommandIO) => goalCommand(argv, io, { engine, configuredModel, skeptics: skeptics(), maxRounds: maxRounds(), hasPlanMode, runsRoot: root, dataDir }));

    const orchestrate = orchestrateSlash({ engine: () => ctx.services.get("engine"), configuredModel, skeptics, maxRounds, hasPlanMode, runsRoot: root, dataDir, project });
    ctx.registerSlash("orchestrate", (args, host) => orchestrate.handler(args, host));
    // a goal still running in the background when the host exits ends cancelled, recorded (before the engine closes)
    ctx.kernelHooks.shutdown.tap({ name: ctx.id, stage: "stop" }, () => orchestrate.stop());

    const workflows = ctx.services.tryGet("workflows");
    if (workflows) registerGoalBuiltin(workflows, { skeptics, maxRounds, hasPlanMode, project: () => project });
  },
};

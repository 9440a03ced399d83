/** The workflows extension: the `workflows` service, the `pipeline` built-in, the budget gate on model requests, and `oceancode workflow`. */
import path from "node:path";
import { type CommandIO, type ExtensionContext } from "../../kernel/api.js";
import { DEFAULT_MODEL_ID, type EngineService } from "../engine/api.js";
import { Workflows } from "./service.js";
import { pipelineBuiltin } from "./pipeline.js";
import { workflowCommand } from "./command.js";
import { budgetSpent, runOfSession } from "./run.js";
import { BudgetSpent } from "./errors.js";
import { RunFeed } from "./feed.js";
import { workflowRoutes } from "./routes.js";

export default {
  activate(ctx: ExtensionContext) {
    const defaultModel = () => {
      const m = ctx.config.get("model");
      return typeof m === "string" && m ? m : DEFAULT_MODEL_ID;
    };
    let tapped: EngineService | undefined;
    const engine = async (): Promise<EngineService> => {
      await ctx.activate("onSession");
      const e = ctx.services.get("engine");
      if (tapped !== e) {
        tapped = e;
        // the budget: each model request of a run's session counts one; once spent, the next is refused
        e.hooks.modelRequest.tap({ name: ctx.id, stage: "policy" }, (req, step) => {
          const run = runOfSession(step.session.info.id, step.session.info.parentId);
          if (!run) return req;
          if (budgetSpent(run)) throw BudgetSpent();
          run.spent++;
          return req;
        });
      }
      return e;
    };
    const wf = new Workflows({
      dataDir: ctx.paths.dataDir,
      userOcDir: ctx.paths.userOcDir,
      engine,
      defaultModel,
      projectTrusted: (p) => ctx.services.tryGet("trust")?.repoTrusted(p) ?? false,
      log: (t) => ctx.log.warn(t),
    });
    wf.registerBuiltin(pipelineBuiltin(defaultModel));
    ctx.provide("workflows", wf);
    // serve's routes (the extension activates with onSession, which `oceancode serve` fires before it listens)
    const routes = ctx.services.tryGet("routes");
    if (routes) {
      const feed = new RunFeed(wf.store);
      for (const r of workflowRoutes({ wf, feed, project: path.resolve(ctx.paths.project), wake: () => ctx.activate("onEvent:workflows"), log: (t) => ctx.log.warn(t) })) routes.add(r, ctx.id);
      // runs a client launched end cancelled, recorded, when the server stops (before the engine closes)
      ctx.kernelHooks.shutdown.tap({ name: ctx.id, stage: "stop" }, async () => {
        const ending = [...feed.launched.entries()];
        for (const [id] of ending) wf.stop(id);
        await Promise.race([Promise.all(ending.map(([, done]) => done)), new Promise((r) => setTimeout(r, 5_000).unref())]);
      });
    }
    // the extensions that register built-ins (goal) listen to onEvent:workflows: woken before any name resolves
    ctx.registerCommand("workflow", async (argv: string[], io: CommandIO) => {
      await ctx.activate("onEvent:workflows");
      return workflowCommand(argv, io, wf, engine);
    });
  },
};

/** The workflows extension: the `workflows` service, the `pipeline` built-in, the budget gate on model requests, and `oceancode workflow`. */
import { registerErrorCodes, type CommandIO, type ExtensionContext } from "../../kernel/api.js";
import { DEFAULT_MODEL_ID, type EngineService } from "../engine/api.js";
import type { TrustService } from "../trust/api.js";
import { Workflows } from "./service.js";
import { pipelineBuiltin } from "./pipeline.js";
import { workflowCommand } from "./command.js";
import { budgetSpent, runOfSession } from "./run.js";
import { BudgetSpent } from "./errors.js";
import { WORKFLOW_CODES } from "./errors.js";

export default {
  activate(ctx: ExtensionContext) {
    registerErrorCodes(ctx.id, WORKFLOW_CODES);
    const defaultModel = () => {
      const m = ctx.config.get("model");
      return typeof m === "string" && m ? m : DEFAULT_MODEL_ID;
    };
    let tapped: EngineService | undefined;
    const engine = async (): Promise<EngineService> => {
      await ctx.activate("onSession");
      const e = ctx.services.get<EngineService>("engine");
      if (tapped !== e) {
        tapped = e;
        // the budget: each model request of a run's session counts one; once spent, the next is refused
        e.hooks.modelRequest.tap({ name: ctx.id, stage: "STAGE_POLICY" }, (req, step) => {
          const run = runOfSession(step.session.info.id, step.session.info.parentId);
          if (!run) return req;
          if (budgetSpent(run)) throw new BudgetSpent();
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
      projectTrusted: (p) => ctx.services.tryGet<TrustService>("trust")?.repoTrusted(p) ?? false,
      log: (t) => ctx.log.warn(t),
    });
    wf.registerBuiltin(pipelineBuiltin(defaultModel));
    ctx.provide("workflows", wf);
    // the extensions that register built-ins (goal) listen to onEvent:workflows: woken before any name resolves
    ctx.registerCommand("workflow", async (argv: string[], io: CommandIO) => {
      await ctx.activate("onEvent:workflows");
      return workflowCommand(argv, io, wf, engine);
    });
  },
};

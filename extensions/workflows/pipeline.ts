/** The built-in `pipeline`: {"steps":[{"prompt":…},…]}, each step a turn of one resumed session, `{{previous}}` = the step before's answer. */
import type { BuiltinWorkflow } from "./api.js";
import type { Session } from "../engine/api.js";
import { turn, type TurnHost } from "./turns.js";
import { WorkflowError } from "./errors.js";

export function validatePipeline(args: unknown): string | undefined {
  if (!args || typeof args !== "object" || Array.isArray(args)) return `pipeline takes --args '{"steps":[{"prompt":"…"},…]}'`;
  const steps = (args as { steps?: unknown }).steps;
  if (!Array.isArray(steps) || steps.length === 0) return "pipeline: steps must be a non-empty list";
  for (const [i, s] of steps.entries()) {
    if (!s || typeof s !== "object" || typeof (s as { prompt?: unknown }).prompt !== "string" || !(s as { prompt: string }).prompt.trim()) {
      return `pipeline: steps[${i}] needs a non-empty "prompt" string`;
    }
  }
  return undefined;
}

export function pipelineBuiltin(defaultModel: () => string): BuiltinWorkflow {
  return {
    name: "pipeline",
    description: "each step one turn of one resumed session; {{previous}} in a prompt is the step before's answer",
    kind: "workflow",
    validate: validatePipeline,
    async run(ctx) {
      const steps = (ctx.args as { steps: Array<{ prompt: string }> }).steps;
      const open = new Map<string, Session>();
      const h: TurnHost = {
        engine: ctx.engine,
        project: ctx.project,
        defaultModel: ctx.model ?? defaultModel(),
        signal: ctx.signal,
        open,
        budgetSpent: () => ctx.budget.limit !== null && ctx.budget.spent() >= ctx.budget.limit,
      };
      let session: Session | undefined;
      let previous = "";
      const outputs: string[] = [];
      try {
        for (const [i, step] of steps.entries()) {
          if (ctx.signal.aborted) throw WorkflowError("the run was stopped");
          if (!session) {
            const model = h.defaultModel;
            const unready = await ctx.engine.checkModel(model);
            if (unready) throw WorkflowError(unready);
            session = await ctx.engine.createSession({ cwd: ctx.project, model });
            open.set(session.info.id, session);
          }
          const out = await turn(h, session, step.prompt.split("{{previous}}").join(previous));
          previous = out.text;
          outputs.push(out.text);
          ctx.emit({ progress: `step ${i + 1}/${steps.length} done`, step: i + 1, session_id: session.info.id, output: out.text });
        }
      } finally {
        for (const s of open.values()) await ctx.engine.closeSession(s, "exit").catch(() => undefined);
      }
      return { status: "complete", result: { session_id: session?.info.id, outputs, text: previous } };
    },
  };
}

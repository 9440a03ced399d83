/**
 * The seam with the workflows extension: when its service is there, goal registers as the built-in `goal`, so
 * `workflow run goal --args '{"objective":"…"}'` runs this same loop (the workflows runner writes that run's store).
 */
import { DEFAULT_MODEL_ID } from "../engine/api.js";
import type { WorkflowsService } from "../workflows/api.js";
import { GoalLoop } from "./loop.js";

export type WorkflowsLike = Pick<WorkflowsService, "registerBuiltin">;

function objectiveOf(args: unknown): string | undefined {
  const o = typeof args === "object" && args !== null ? (args as { objective?: unknown }).objective : undefined;
  return typeof o === "string" && o.trim() ? o.trim() : undefined;
}

export function registerGoalBuiltin(workflows: WorkflowsLike, cfg: { skeptics(): number; maxRounds(): number; hasPlanMode(): boolean; project(): string }): void {
  workflows.registerBuiltin({
    name: "goal",
    description: "Plan -> Work -> Verify: converge only when a cold panel of skeptics fails to refute every deliverable",
    kind: "goal",
    validate: (args) => (objectiveOf(args) ? undefined : 'goal needs --args \'{"objective":"<what must be done>"}\''),
    async run(ctx) {
      const objective = objectiveOf(ctx.args);
      if (!objective) return { status: "failed", error: "no objective in the args" };
      if (!cfg.hasPlanMode()) return { status: "failed", error: "the skeptics run read-only in plan mode, and the plan-mode extension is not enabled" };
      const model = ctx.engine.resolveModel(ctx.model ?? DEFAULT_MODEL_ID);
      const loop = new GoalLoop(ctx.engine, { objective, project: ctx.project || cfg.project(), model, budget: ctx.budget.limit, skeptics: cfg.skeptics(), maxRounds: cfg.maxRounds(), signal: ctx.signal }, (s) => ctx.emit({ ...s, objective }));
      return loop.run();
    },
  });
}

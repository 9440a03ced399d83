/** Implementation published by the kit `oceancode/kit/goal` (moved out of extensions/goal/api.ts, which keeps the types). */
import type { RunStatus } from "../../workflows/api.js";

/** The exit code of a run's outcome: 0 complete; 2 failed, cancelled, budget_limited; 3 a pause. */
export function exitCodeOf(status: RunStatus): number {
  if (status === "complete") return 0;
  if (status === "failed" || status === "cancelled" || status === "budget_limited" || status === "running") return 2;
  return 3;
}

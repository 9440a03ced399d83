/** Implementation published by the kit `oceancode/kit/workflows` (moved out of extensions/workflows/api.ts, which keeps the types). */
import { type RunStatus, PAUSE_STATUSES } from "../api.js";

/** The exit code of a run's outcome: 0 complete, 3 any pause, 2 the rest (failed, cancelled, budget_limited). */
export function exitCodeOf(status: RunStatus): number {
  if (status === "complete") return 0;
  return PAUSE_STATUSES.has(status) ? 3 : 2;
}

/** The goal extension's coded errors (each defined once here); a usage error is the kernel's Usage. */
import { defineError } from "../../kernel/api.js";
import type { GoalOutcome } from "./api.js";

/** Not a failure: ends the goal loop with this outcome (budget spent, a failed request, an interrupt). */
export const GoalStopped = defineError("goal", "OC_ERR_GOAL_STOPPED", "{reason}").withData<GoalOutcome>();

/** The workflows extension's coded errors. */
import { OcError, type ErrorCode } from "../../kernel/api.js";

export const WORKFLOW_CODES = {
  OC_ERR_WORKFLOW: "a workflow run or one of its host calls failed",
  OC_ERR_WORKFLOW_BUDGET: "a workflow run spent its budget of model calls (--budget)",
  OC_ERR_WORKFLOW_USAGE: "oceancode workflow: a bad name, path, flag or --args",
} as const;

export class WorkflowError extends OcError {
  constructor(message: string, code = "OC_ERR_WORKFLOW") {
    super(code as ErrorCode, message);
  }
}

export class BudgetSpent extends OcError {
  constructor() {
    super("OC_ERR_WORKFLOW_BUDGET" as ErrorCode, "the run's budget of model calls is spent");
  }
}

/** Thrown by a host op that ends the run with a pause (api.ask in a headless run). */
/**
 * A turn's error that is the provider's back-off (rate limited or overloaded after the engine's own retries): the
 * run pauses `back_off_paused` (exit 3) instead of failing, so it can be resumed once the provider recovers.
 */
export function isProviderBackOff(error: string | undefined): boolean {
  return /^(rate_limited|overloaded)\b/.test(error ?? "");
}

export class PauseRun extends Error {
  constructor(
    readonly status: "user_paused" | "back_off_paused",
    readonly fields: Record<string, unknown>,
  ) {
    super(status);
  }
}

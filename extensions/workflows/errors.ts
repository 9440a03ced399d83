/** The workflows extension's coded errors (each defined once here). */
import { defineError, type OcError } from "../../kernel/api.js";

export const WorkflowFailed = defineError("workflows", "OC_ERR_WORKFLOW", "{message}");
export const WorkflowUsage = defineError("workflows", "OC_ERR_WORKFLOW_USAGE", "{message}", { hint: "oceancode workflow list shows the workflows there are" });
export const BudgetSpentError = defineError("workflows", "OC_ERR_WORKFLOW_BUDGET", "the run's budget of model calls is spent", { hint: "raise --budget, or resume the run with a new one" });
/** The script failed in its sandbox (a limit it hit, or its own message); `data.where` is file:line:col when known. */
export const WorkflowScript = defineError("workflows", "OC_ERR_WORKFLOW_SCRIPT", "{message}").withData<{ where?: string }>();
/** Not a failure: a host op ends the run with a pause (api.ask in a headless run, or the provider's back-off). */
export const RunPaused = defineError("workflows", "OC_ERR_WORKFLOW_PAUSED", "{status}").withData<{ status: "user_paused" | "back_off_paused"; fields: Record<string, unknown> }>();
export const WorkflowTooLarge = defineError("workflows", "OC_ERR_WORKFLOW_TOO_LARGE", "larger than {kb} KB");

/** A run's failure: OC_ERR_WORKFLOW, or OC_ERR_WORKFLOW_USAGE for a bad name, path, flag or --args. */
export function WorkflowError(message: string, code: "OC_ERR_WORKFLOW" | "OC_ERR_WORKFLOW_USAGE" = "OC_ERR_WORKFLOW"): OcError {
  return (code === "OC_ERR_WORKFLOW_USAGE" ? WorkflowUsage : WorkflowFailed)({ message });
}
export const BudgetSpent = (): OcError => BudgetSpentError();
export const isBudgetSpent = (e: unknown): boolean => BudgetSpentError.is(e);

export function PauseRun(status: "user_paused" | "back_off_paused", fields: Record<string, unknown>): OcError {
  return RunPaused({ status }, { data: { status, fields } });
}
/** The pause a host op ended the run with, if `e` is one. */
export function pauseOf(e: unknown): { status: "user_paused" | "back_off_paused"; fields: Record<string, unknown> } | undefined {
  return RunPaused.is(e) ? e.data : undefined;
}

/**
 * A turn's error that is the provider's back-off (rate limited or overloaded after the engine's own retries): the
 * run pauses `back_off_paused` (exit 3) instead of failing, so it can be resumed once the provider recovers.
 */
export function isProviderBackOff(error: string | undefined): boolean {
  return /^(rate_limited|overloaded)\b/.test(error ?? "");
}

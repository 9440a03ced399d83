/** The engine's coded errors (each defined once here; other extensions import them through oceancode/api/engine). */
import { defineError } from "../../kernel/api.js";

/** Another process holds the session (a store's claimSession tap refused; the message names the holder). */
export const SessionBusy = defineError("engine", "OC_ERR_SESSION_BUSY", "session {sessionId} is open in {holder}; close it there, or pass --wait to wait for it", { exitCode: 2 }).withData<{
  holder?: { pid: number; host: string; since: number } | string;
}>();
/** The store will not open the session as it stands (the message says what to run). */
export const SessionRefused = defineError("engine", "OC_ERR_SESSION_REFUSED", "{message}");
export const SessionUnknown = defineError("engine", "OC_ERR_SESSION_UNKNOWN", "no session '{id}' (see oceancode sessions)");
export const StepCapInvalid = defineError("engine", "OC_ERR_STEP_CAP_INVALID", "{name} must be a positive whole number (got '{value}')");
export const StepCapZero = defineError("engine", "OC_ERR_STEP_CAP_ZERO", "{name}=0 is rejected: bound a long run with a budget or a clock instead");
export const SubagentStepCapInvalid = defineError("engine", "OC_ERR_SUBAGENT_STEP_CAP_INVALID", "{name} must be a whole number above 0 (got '{value}')");
export const DuplicateTool = defineError("engine", "OC_ERR_DUPLICATE_TOOL", "tool '{name}' is already registered", { hint: "two extensions contribute a tool of that name: disable one (oceancode inspect)" });
export const DuplicateProvider = defineError("engine", "OC_ERR_DUPLICATE_PROVIDER", "provider '{id}' is already registered", { hint: "two extensions provide that model provider: disable one (oceancode inspect)" });

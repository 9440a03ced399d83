/** Implementation published by the kit `oceancode/kit/plan-mode` (moved out of extensions/plan-mode/api.ts, which keeps the types). */
import type { SessionInfo } from "../../engine/api.js";
import { AGENT_KEY, PLAN_AGENT } from "../api.js";

/** Whether a session (its info) is in plan mode. */
export function isPlanMode(info: Pick<SessionInfo, "overrides">): boolean {
  return info.overrides[AGENT_KEY] === PLAN_AGENT;
}

/** Implementation published by the kit `oceancode/kit/engine` (moved out of extensions/engine/contract/approval.ts, which keeps the types). */
import { type AutomaticApproval } from "../contract/approval.js";

export function isAutomaticApproval(x: unknown): x is AutomaticApproval {
  return typeof x === "object" && x !== null && (x as { automatic?: unknown }).automatic === true && (x as { answer?: unknown }).answer === "once";
}

/** A decision's strictness: allow < ask < deny. */
export function strictness(action: "allow" | "ask" | "deny"): number {
  return action === "allow" ? 0 : action === "ask" ? 1 : 2;
}

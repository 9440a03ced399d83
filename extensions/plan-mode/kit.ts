/**
 * The kit `oceancode/kit/plan-mode`: the implementation plan-mode shares with other extensions and third parties
 * (its types, hook tables and constants are the contract `oceancode/api/plan-mode`, extensions/plan-mode/api.ts).
 */
export { isPlanMode } from "./kit/shared.js";

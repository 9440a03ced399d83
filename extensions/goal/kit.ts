/**
 * The kit `oceancode/kit/goal`: the implementation goal shares with other extensions and third parties
 * (its types, hook tables and constants are the contract `oceancode/api/goal`, extensions/goal/api.ts).
 */
export { exitCodeOf } from "./kit/shared.js";

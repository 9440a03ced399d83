/**
 * The kit `oceancode/kit/hooks`: the implementation hooks shares with other extensions and third parties
 * (its types, hook tables and constants are the contract `oceancode/api/hooks`, extensions/hooks/api.ts).
 */
export { isHookEvent } from "./kit/shared.js";

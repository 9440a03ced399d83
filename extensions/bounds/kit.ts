/**
 * The kit `oceancode/kit/bounds`: the implementation bounds shares with other extensions and third parties
 * (its types, hook tables and constants are the contract `oceancode/api/bounds`, extensions/bounds/api.ts).
 */
export { formatUsd, parseBound } from "./kit/shared.js";

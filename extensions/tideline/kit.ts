/**
 * The kit `oceancode/kit/tideline`: the implementation tideline shares with other extensions and third parties
 * (its types, hook tables and constants are the contract `oceancode/api/tideline`, extensions/tideline/api.ts).
 */
export { formatTokens, parseTidelineSpec, statusText } from "./kit/shared.js";

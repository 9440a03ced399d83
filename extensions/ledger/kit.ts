/**
 * The kit `oceancode/kit/ledger`: the implementation ledger shares with other extensions and third parties
 * (its types, hook tables and constants are the contract `oceancode/api/ledger`, extensions/ledger/api.ts).
 */
export { turnEndedText } from "./kit/shared.js";

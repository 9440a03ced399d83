/**
 * The kit `oceancode/kit/trust`: the implementation trust shares with other extensions and third parties
 * (its types, hook tables and constants are the contract `oceancode/api/trust`, extensions/trust/api.ts).
 */
export { TrustFileInvalid, emptyTrust, isTrustFileError } from "./kit/shared.js";

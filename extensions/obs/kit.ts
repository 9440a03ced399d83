/**
 * The kit `oceancode/kit/obs`: the implementation obs shares with other extensions and third parties
 * (its types, hook tables and constants are the contract `oceancode/api/obs`, extensions/obs/api.ts).
 */
export { redact, redactUrl, redactorFor, secretName, secretValue, secretValuesMatcher } from "./redact.js";

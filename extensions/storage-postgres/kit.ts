/**
 * The kit `oceancode/kit/storage-postgres`: the implementation storage-postgres shares with other extensions and third parties
 * (its types, hook tables and constants are the contract `oceancode/api/storage-postgres`, extensions/storage-postgres/api.ts).
 */
export { redactUrl } from "../obs/kit.js";
export { redactText, urlPassword } from "./kit/shared.js";

/**
 * The kit `oceancode/kit/distribution`: the implementation distribution shares with other extensions and third parties
 * (its types, hook tables and constants are the contract `oceancode/api/distribution`, extensions/distribution/api.ts).
 */
export { versionsDir } from "./kit/shared.js";

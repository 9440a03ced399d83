/**
 * The kit `oceancode/kit/crash`: the implementation crash shares with other extensions and third parties
 * (its types, hook tables and constants are the contract `oceancode/api/crash`, extensions/crash/api.ts).
 */
export { crashDir, readCrashReports } from "./kit/shared.js";

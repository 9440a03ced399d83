/**
 * The kit `oceancode/kit/cache-keepalive`: the implementation cache-keepalive shares with other extensions and third parties
 * (its types, hook tables and constants are the contract `oceancode/api/cache-keepalive`, extensions/cache-keepalive/api.ts).
 */
export { parseMax, parseMinutes, retryDelayMs } from "./kit/shared.js";

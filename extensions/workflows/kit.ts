/**
 * The kit `oceancode/kit/workflows`: the implementation workflows shares with other extensions and third parties
 * (its types, hook tables and constants are the contract `oceancode/api/workflows`, extensions/workflows/api.ts).
 */
export { isProviderBackOff } from "./errors.js";
export { exitCodeOf } from "./kit/shared.js";
export { RunStore, newRunId, runsDir } from "./store.js";

/**
 * The kit `oceancode/kit/session-commands`: the implementation session-commands shares with other extensions and third parties
 * (its types, hook tables and constants are the contract `oceancode/api/session-commands`, extensions/session-commands/api.ts).
 */
export { isPagerSlashHost } from "./kit/shared.js";

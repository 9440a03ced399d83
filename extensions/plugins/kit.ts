/**
 * The kit `oceancode/kit/plugins`: the implementation plugins shares with other extensions and third parties
 * (its types, hook tables and constants are the contract `oceancode/api/plugins`, extensions/plugins/api.ts).
 */
export { isPluginError, isValidName } from "./kit/shared.js";

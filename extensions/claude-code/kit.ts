/**
 * The kit `oceancode/kit/claude-code`: the implementation claude-code shares with other extensions and third parties
 * (its types, hook tables and constants are the contract `oceancode/api/claude-code`, extensions/claude-code/api.ts).
 */
export { locateClaude } from "./locate.js";
export { readMirror, reloadNotice, settingsFiles } from "./settings.js";

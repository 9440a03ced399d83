/**
 * The kit `oceancode/kit/shell-guard`: the implementation shell-guard shares with other extensions and third parties
 * (its types, hook tables and constants are the contract `oceancode/api/shell-guard`, extensions/shell-guard/api.ts).
 */
/** secretPath: does a path (or glob) name a secret (.env, ~/.ssh/id_*, ~/.aws/credentials, ...)? The rules extension refuses such @imports. */
/** procSecret: is an absolute path a process's environment, command line, memory or open files (/proc/<pid>/environ, ...)? */
export { procSecret, secretPath } from "./paths.js";
export { matchBash, wildcard } from "./pattern.js";

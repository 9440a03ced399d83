/**
 * The kit `oceancode/kit/tools`: the implementation tools shares with other extensions and third parties
 * (its types, hook tables and constants are the contract `oceancode/api/tools`, extensions/tools/api.ts).
 */
export { keepOutputBlock, splitOutputBlocks } from "./blocks.js";
export { fileDiff } from "./diff.js";
export { walkFiles } from "./filewalk.js";
export { globToRegExp } from "./glob-match.js";
export { startTaskJob } from "./jobs.js";
export { outputDir } from "./output.js";
export { isInside, isSecretEnvFile, realPathLoose, refRoot, resolveToolPath } from "./paths.js";
export { toolPaths } from "./touched.js";
/** child process groups, killed at exit (was kernel/process-groups.ts) */
export { groupAlive, groupRegistry, signalGroup, type GroupRegistry } from "./process-groups.js";

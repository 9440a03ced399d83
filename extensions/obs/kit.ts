/**
 * The kit `oceancode/kit/obs`: the implementation obs shares with other extensions and third parties
 * (its types, hook tables and constants are the contract `oceancode/api/obs`, extensions/obs/api.ts).
 */
export { redact, redactUrl, redactorFor, secretName, secretValue, secretValuesMatcher } from "./redact.js";
/** terminal-safe output: every line a host or extension prints from repo or model text (was kernel/safe-output.ts) */
export { hasControls, safeJson, safeOutput, visible, visibleLine, VisibleStream, type VisibleOptions } from "./safe-output.js";

/**
 * The published contract `oceancode/api/claude-code`: the route's settings mirror and install hint, for
 * hosts and other extensions (doctor, the pager's identity row). The route flag itself is the engine's
 * isClaudeCliRoute (so the hooks extension needs no import from here).
 */
export { INSTALL_HINT } from "./locate.js";
export { type Mirror, type MirrorFile } from "./settings.js";
export { DEFAULT_MODEL_NAME } from "./models.js";

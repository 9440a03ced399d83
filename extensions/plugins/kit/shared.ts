/** Implementation published by the kit `oceancode/kit/plugins` (moved out of extensions/plugins/api.ts, which keeps the types). */
import { PLUGIN_STORE_INVALID, PLUGIN_INVALID, PLUGIN_STORE_BUSY, type PluginErrorCode, NAME_PATTERN } from "../api.js";


/** Is this one of the plugin store's coded errors (from any copy of this module)? */
export function isPluginError(e: unknown): e is Error & { code: PluginErrorCode } {
  const c = (e as { code?: unknown } | null)?.code;
  return typeof e === "object" && e !== null && (c === PLUGIN_STORE_INVALID || c === PLUGIN_INVALID || c === PLUGIN_STORE_BUSY);
}

export function isValidName(name: unknown): name is string {
  return typeof name === "string" && NAME_PATTERN.test(name);
}

/** The plugins extension's coded errors (each defined once here; the codes are also constants in oceancode/api/plugins). */
import { defineError } from "../../kernel/api.js";

/** ~/.oceancode/plugins/installed.json or known_marketplaces.json cannot be parsed: nothing is overwritten. */
export const PluginStoreInvalid = defineError("plugins", "OC_ERR_PLUGIN_STORE_INVALID", "{message}");
/** ~/.oceancode/plugins/.lock stayed held by another process. */
export const PluginStoreBusy = defineError("plugins", "OC_ERR_PLUGIN_STORE_BUSY", "{message}");
/** A plugin command's input was refused (a bad name, no such plugin, not a marketplace, a source outside its marketplace). */
export const PluginInvalid = defineError("plugins", "OC_ERR_PLUGIN_INVALID", "{message}");
export const PluginSchemaMissing = defineError("plugins", "OC_ERR_PLUGIN_SCHEMA_MISSING", "extensions/plugins/plugin.schema.json is missing from this install", { hint: "reinstall oceancode" });

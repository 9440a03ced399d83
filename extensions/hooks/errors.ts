/** The hooks extension's coded errors (each defined once here). */
import { defineError } from "../../kernel/api.js";

/** A settings file `oceancode hooks add/remove` would edit cannot be read or has the wrong shape; nothing was changed. */
export const SettingsFileError = defineError("hooks", "OC_ERR_HOOKS_SETTINGS_FILE", "{message}");

/** The scripted provider's coded errors (each defined once here). */
import { defineError } from "../../kernel/api.js";

/** The scripted model file cannot be read or has the wrong shape. */
export const ScriptError = defineError("scripted", "OC_ERR_SCRIPTED_FILE", "{message}");

/** The storage-commands extension's coded errors (each defined once here). */
import { defineError } from "../../kernel/api.js";

export const EngineMissing = defineError("storage-commands", "OC_ERR_SESSION_COMMAND_NO_ENGINE", "the engine extension is not enabled", { hint: "oceancode inspect shows why it is off" });

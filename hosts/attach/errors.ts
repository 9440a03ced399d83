/** The attach host's coded errors (each defined once here). */
import { defineError } from "../../kernel/api.js";

export const NotAttached = defineError("attach", "OC_ERR_ATTACH_NOT_ATTACHED", "session {id} is not attached");

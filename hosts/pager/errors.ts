/** The pager host's coded errors (each defined once here). */
import { defineError } from "../../kernel/api.js";

export const PagerServiceMissing = defineError("pager", "OC_ERR_PAGER_SERVICE_MISSING", "the {name} extension is not loaded", { hint: "oceancode inspect shows why it is off" });
export const PagerServeMissing = defineError("pager", "OC_ERR_PAGER_NO_SERVE", "the serve extension is not enabled");

/** The jev extension's coded errors (each defined once here). */
import { defineError } from "../../kernel/api.js";

export const JevNotArray = defineError("jev", "OC_ERR_JEV_NOT_ARRAY", "not a JSON array");
export const JevToolUnknown = defineError("jev", "OC_ERR_JEV_TOOL_UNKNOWN", "the tool is not known");

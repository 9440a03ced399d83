/** The permissions extension's coded errors (each defined once here). */
import { defineError } from "../../kernel/api.js";

/** The project config a rule is saved to (or removed from) is not a JSON object: nothing was written. */
export const RuleFileInvalid = defineError("permissions", "OC_ERR_PERMISSIONS_RULE_FILE", '{file}: not a JSON object; the rule "{rule}" was not {done} ({fix})');

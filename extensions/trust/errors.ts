/** The trust extension's coded errors (each defined once here; others take them through oceancode/api/trust). */
import { defineError } from "../../kernel/api.js";

/** trust.json cannot be parsed: `update` changes nothing until the user fixes or removes it. */
export const TrustFileInvalid = defineError("trust", "OC_ERR_TRUST_FILE_INVALID", "{file} is not a valid trust file ({detail}): fix it or delete it; nothing was changed");

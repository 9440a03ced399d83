/** The auth extension's coded errors (each defined once here). */
import { defineError } from "../../kernel/api.js";

/** auth.json cannot be read or parsed; the message names the fix. */
export const AuthFileError = defineError("auth", "OC_ERR_AUTH_FILE", "{message}");

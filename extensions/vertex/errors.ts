/** The vertex extension's coded errors (each defined once here). */
import { defineError } from "../../kernel/api.js";

/** Google's auth library answered without a token (turned into the provider's auth error with the fix). */
export const VertexNoToken = defineError("vertex", "OC_ERR_VERTEX_NO_TOKEN", "no access token");

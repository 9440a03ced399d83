/** The acp extension's coded errors (each defined once here). */
import { defineError } from "../../kernel/api.js";

export const AcpNoEngine = defineError("acp", "OC_ERR_ACP_NO_ENGINE", "the engine extension is not enabled: oceancode acp has no sessions to serve", { hint: "oceancode inspect shows why it is off" });

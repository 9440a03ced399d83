/** The mcp extension's coded errors (each defined once here). */
import { defineError } from "../../kernel/api.js";

/** `oceancode mcp add/remove` refused an edit of a config file (nothing was changed). */
export const McpEditRefused = defineError("mcp", "OC_ERR_MCP_EDIT", "{message}");
/** `oceancode mcp login` could not finish the OAuth authorization. */
export const McpLoginFailed = defineError("mcp", "OC_ERR_MCP_LOGIN", "{message}", { hint: "run oceancode mcp login <name> again; -v shows the server's answers" });
export const McpNoAuthorization = defineError("mcp", "OC_ERR_MCP_NO_AUTHORIZATION", "no authorization is in progress in this session; run oceancode mcp login");
export const McpNoVerifier = defineError("mcp", "OC_ERR_MCP_NO_VERIFIER", "no PKCE verifier: the authorization was not started here", { hint: "run oceancode mcp login in this session" });
export const McpServerGone = defineError("mcp", "OC_ERR_MCP_SERVER_GONE", "{what}");
export const McpPromptEmpty = defineError("mcp", "OC_ERR_MCP_PROMPT_EMPTY", "it returned no text");
export const McpTrustMissing = defineError("mcp", "OC_ERR_MCP_TRUST_MISSING", "the trust extension is not loaded", { hint: "enable the trust extension (oceancode inspect shows why it is off)" });

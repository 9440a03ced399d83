/** serve-fleet's coded errors (each defined once here); a newer fleet schema is storage's SchemaTooNew. */
import { defineError } from "../../kernel/api.js";

export const FleetNotStarted = defineError("serve-fleet", "OC_ERR_FLEET_NOT_STARTED", "the fleet is not started", { hint: "set serve.fleet and start oceancode serve (docs/serve-fleet.md)" });
export const FleetStopped = defineError("serve-fleet", "OC_ERR_FLEET_STOPPED", "the fleet is stopped");
/** A fleet query failed; the message is the database's, with the URL's password redacted. */
export const FleetQueryFailed = defineError("serve-fleet", "OC_ERR_FLEET_QUERY", "{message}");
/** The instance holding the session refused the forwarded prompt (its own message). */
export const FleetPromptRefused = defineError("serve-fleet", "OC_ERR_FLEET_PROMPT_REFUSED", "{message}");
export const FleetPromptUntaken = defineError("serve-fleet", "OC_ERR_FLEET_PROMPT_UNTAKEN", "no live instance took the prompt for session {sessionId}", { hint: "the instance holding it may have stopped: try again once it is back, or open the session here" });

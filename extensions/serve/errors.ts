/**
 * The serve extension's coded errors (each defined once here). A handler's error answer is still an
 * HttpError (an HTTP status and a wire code such as `session_not_found`, not an OC_ERR_ code).
 */
import { defineError } from "../../kernel/api.js";

export const ServeUsage = defineError("serve", "OC_ERR_SERVE_USAGE", "{message}", { exitCode: 2 });
export const ServeNoEngine = defineError("serve", "OC_ERR_SERVE_NO_ENGINE", "no enabled extension provides the session engine; see oceancode inspect");
/** A contributed route refused at registration (bad shape, or its path or operationId already taken). */
export const RouteRefused = defineError("serve", "OC_ERR_ROUTE_REFUSED", "route {method} {url} ({owner}){problem}", { hint: "fix the route in the extension that contributes it" });
/** The pending-prompts file is not what serve wrote (it is moved aside). */
export const PendingUnreadable = defineError("serve", "OC_ERR_SERVE_PENDING", "no prompts array");
/** EventHub.startAfter called too late or with a bad base (a programming error in a fleet extension). */
export const EventsRenumber = defineError("serve", "OC_ERR_SERVE_EVENTS", "EventHub.startAfter: {problem}");

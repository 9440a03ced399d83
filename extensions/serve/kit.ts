/**
 * The kit `oceancode/kit/serve`: the implementation serve shares with other extensions and third parties
 * (its types, hook tables and constants are the contract `oceancode/api/serve`, extensions/serve/api.ts).
 */
export { HttpError, isRouteReply, parseListen } from "./kit/shared.js";

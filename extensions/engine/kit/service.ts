/** Implementation published by the kit `oceancode/kit/engine` (moved out of extensions/engine/contract/service.ts, which keeps the types). */
import { type DiscardEvent } from "../contract/service.js";

/** Words for a discard's cause, for hosts (`[retrying: stream dropped]`). */
export function discardCauseText(cause: DiscardEvent["cause"]): string {
  switch (cause) {
    case "network":
      return "stream dropped";
    case "overloaded":
      return "overloaded";
    case "rate_limited":
      return "rate limited";
    case "server":
      return "server error";
    case "prompt_too_long":
      return "prompt too long";
    default:
      return cause === "other" ? "error" : cause.replace(/_/g, " ");
  }
}

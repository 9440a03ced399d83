/** Implementation published by the kit `oceancode/kit/ledger` (moved out of extensions/ledger/api.ts, which keeps the types). */
import { type TurnIndexEntry } from "../api.js";

/** How a turn ended, in a word or two (the index's "Ended" column; exports use it too). */
export function turnEndedText(e: Pick<TurnIndexEntry, "reason" | "interrupted"> & { stoppedBy?: string }): string {
  if (e.interrupted === "crash") return "crashed";
  if (e.interrupted === "user") return "interrupted";
  switch (e.reason) {
    case undefined:
      return "running";
    case "end_turn":
      return "done";
    case "aborted":
      return "interrupted";
    case "step_cap":
      return e.stoppedBy === "budget" ? "step cap (budget)" : e.stoppedBy === "time" ? "step cap (clock)" : e.stoppedBy === "doom_loop" ? "step cap (doom loop)" : "step cap";
    case "max_tokens":
      return "output limit";
    default:
      return e.reason;
  }
}

/**
 * How each turn ended, for the exports: the ledger's index when there is one (read only, never written:
 * another process may be writing the session), else what the rows say — the engine's "interrupted" note
 * marks an interrupted turn. A crash is known only from the ledger (it marks the turn when the session is
 * reopened), so a crashed turn of a session not yet reopened reads as its last recorded state.
 */
import fs from "node:fs";
import path from "node:path";
import type { Row } from "../engine/api.js";
import { type TurnIndexEntry } from "../ledger/api.js";
import { turnEndedText } from "../ledger/kit.js";

export interface TurnEnding {
  /** "done", "interrupted", "crashed", "error", "step cap", "running", … ("" when unknown) */
  text: string;
  /** set when the turn did not finish */
  incomplete?: "interrupted" | "crashed";
}

export function turnEndings(rows: readonly Row[], ledgerDir: string | undefined): Map<number, TurnEnding> {
  const out = new Map<number, TurnEnding>();
  if (ledgerDir) {
    let turns: TurnIndexEntry[] = [];
    try {
      turns = (JSON.parse(fs.readFileSync(path.join(ledgerDir, "index.json"), "utf8")) as { turns?: TurnIndexEntry[] }).turns ?? [];
    } catch {
      // no index yet (or unreadable): the rows alone
    }
    for (const t of turns) {
      const incomplete = t.interrupted === "crash" ? "crashed" : t.interrupted === "user" ? "interrupted" : undefined;
      out.set(t.turn, { text: turnEndedText(t), ...(incomplete ? { incomplete } : {}) });
    }
  }
  for (const r of rows) {
    if (r.role === "note" && r.kind === "interrupted" && out.get(r.turn)?.incomplete === undefined) out.set(r.turn, { text: "interrupted", incomplete: "interrupted" });
  }
  return out;
}

/** The marker an export puts where a crashed turn stopped (the ledger's transcript carries its own). */
export function crashedText(turn: number, afterSeq: number): string {
  return `[turn ${turn} crashed: the process ended here (killed or crashed) before the turn finished; nothing after seq ${afterSeq} was stored]`;
}

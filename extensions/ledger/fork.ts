/**
 * A fork's rows along the journal: the path from the root to the entry (`r<seq>`, else the active leaf),
 * read from journal.jsonl without opening the source for writing (it may be open in another process).
 * Without a journal (the ledger was off for it) the rows pass through unchanged.
 */
import path from "node:path";
import type { Row } from "../engine/api.js";
import { Journal } from "./journal.js";
import type { Ledger } from "./ledger.js";

export function keepJournalPath(ledger: Ledger, sessionId: string, rows: Row[], atSeq?: number): Row[] {
  const journal = Journal.load(path.join(ledger.dirOf(sessionId), "journal.jsonl"));
  if (!journal.entries.length) return rows;
  const to = atSeq !== undefined ? `r${atSeq}` : journal.leaf;
  if (to !== undefined && !journal.get(to)) return rows; // the journal lags the database: keep what the cut gave
  const onPath = new Set(journal.path(to).map((e) => e.seq));
  return rows.filter((r) => onPath.has(r.seq));
}

/** The read queries over oceancode.db (the store runs them after settling its writer); rows map as in session-rows.ts. */
import type Database from "better-sqlite3";
import type { Row, StoredSession } from "../engine/api.js";
import type { SessionEventRecord, SessionSummary } from "./api.js";
import { eventOf, infoOf, parseTotals, summaryOf, type EventDbRow, type SessionDbRow } from "./session-rows.js";

export function list(db: Database.Database, opts: { cwd?: string; limit?: number }): SessionSummary[] {
  const limit = Math.max(1, Math.min(opts.limit ?? 1000, 100000));
  const rows = (
    opts.cwd !== undefined
      ? db.prepare(`SELECT s.*, p.pinned_at FROM sessions s LEFT JOIN pins p ON p.session_id = s.id WHERE s.cwd = ? ORDER BY s.updated_at DESC, s.rowid DESC LIMIT ?`).all(opts.cwd, limit)
      : db.prepare(`SELECT s.*, p.pinned_at FROM sessions s LEFT JOIN pins p ON p.session_id = s.id ORDER BY s.updated_at DESC, s.rowid DESC LIMIT ?`).all(limit)
  ) as SessionDbRow[];
  return rows.map(summaryOf);
}

export function load(db: Database.Database, id: string): StoredSession | undefined {
  const s = db.prepare(`SELECT * FROM sessions WHERE id = ?`).get(id) as SessionDbRow | undefined;
  if (!s) return undefined;
  const rows = (db.prepare(`SELECT json FROM rows WHERE session_id = ? ORDER BY seq`).all(id) as Array<{ json: string }>).map((r) => JSON.parse(r.json) as Row);
  return { info: infoOf(s), rows, totals: parseTotals(s.totals) };
}

export function eventRows(db: Database.Database, sessionId: string, kind: string | undefined): SessionEventRecord[] {
  const rows = (
    kind === undefined
      ? db.prepare(`SELECT * FROM events WHERE session_id = ? ORDER BY seq`).all(sessionId)
      : db.prepare(`SELECT * FROM events WHERE session_id = ? AND kind = ? ORDER BY seq`).all(sessionId, kind)
  ) as EventDbRow[];
  return rows.map(eventOf);
}

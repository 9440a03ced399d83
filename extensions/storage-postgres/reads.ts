/** The read queries of the PostgreSQL store (run after the writer settled); rows map as oceancode.db's (storage's session-rows). */
import type pg from "pg";
import type { Row, StoredSession } from "../engine/api.js";
import { type EventDbRow, type SessionDbRow, type SessionEventRecord, type SessionSummary } from "../storage/api.js";
import { eventOf, infoOf, parseTotals, summaryOf } from "../storage/kit.js";

type Q = Pick<pg.ClientBase, "query">;

export async function list(c: Q, opts: { cwd?: string; limit?: number }): Promise<SessionSummary[]> {
  const limit = Math.max(1, Math.min(opts.limit ?? 1000, 100000));
  const head = `SELECT s.*, p.pinned_at FROM sessions s LEFT JOIN pins p ON p.session_id = s.id`;
  const r =
    opts.cwd !== undefined
      ? await c.query(`${head} WHERE s.cwd = $1 ORDER BY s.updated_at DESC, s.n DESC LIMIT $2`, [opts.cwd, limit])
      : await c.query(`${head} ORDER BY s.updated_at DESC, s.n DESC LIMIT $1`, [limit]);
  // BIGINT times come back as text
  return (r.rows as Array<SessionDbRow<string>>).map(summaryOf);
}

export async function load(c: Q, id: string): Promise<StoredSession | undefined> {
  const s = (await c.query(`SELECT * FROM sessions WHERE id = $1`, [id])).rows[0] as SessionDbRow<string> | undefined;
  if (!s) return undefined;
  const rows = ((await c.query(`SELECT json FROM rows WHERE session_id = $1 ORDER BY seq`, [id])).rows as Array<{ json: string }>).map((r) => JSON.parse(r.json) as Row);
  return { info: infoOf(s), rows, totals: parseTotals(s.totals) };
}

export async function eventRows(c: Q, sessionId: string, kind: string | undefined): Promise<SessionEventRecord[]> {
  const r =
    kind === undefined
      ? await c.query(`SELECT * FROM events WHERE session_id = $1 ORDER BY seq`, [sessionId])
      : await c.query(`SELECT * FROM events WHERE session_id = $1 AND kind = $2 ORDER BY seq`, [sessionId, kind]);
  return (r.rows as Array<EventDbRow<string>>).map(eventOf);
}

export async function latest(c: Q, cwd: string): Promise<string | undefined> {
  const r = await c.query(`SELECT id FROM sessions WHERE cwd = $1 AND parent_id IS NULL ORDER BY updated_at DESC, n DESC LIMIT 1`, [cwd]);
  return (r.rows[0] as { id: string } | undefined)?.id;
}

export async function stale(c: Q, days: number): Promise<string[]> {
  const cutoff = Date.now() - days * 86_400_000;
  const r = await c.query(`SELECT id FROM sessions WHERE updated_at < $1 AND id NOT IN (SELECT session_id FROM pins) ORDER BY updated_at`, [cutoff]);
  return (r.rows as Array<{ id: string }>).map((x) => x.id);
}

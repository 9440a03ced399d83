/**
 * The retention engine's backend over PostgreSQL (the engine is the bundled store's, published in
 * `oceancode/api/storage`): sessions, pins, rows and events read on the store's pool, and the session's
 * advisory lock (lock.ts) tried on a connection of its own. A free lock means no process anywhere on the
 * database has the session open, so in a fleet a sweeper never removes a session another instance holds;
 * and as the engine judges each session again under its lock from committed state, several instances
 * sweeping at once remove each session once (the second finds it gone).
 */
import type { RetentionBackend, RetentionLock } from "../storage/api.js";
import { acquirePgSessionLock } from "./lock.js";
import { SessionBusy } from "../engine/kit.js";
import { isPgOpenError, type PgStore } from "./store.js";

export function pgRetention(s: PgStore): RetentionBackend {
  return {
    settle: () => s.settle(),
    idleBefore: (cutoff) =>
      s.atOnce(async (c) => {
        const r = await c.query(`SELECT id FROM sessions WHERE updated_at < $1 ORDER BY updated_at, id`, [cutoff]);
        return (r.rows as Array<{ id: string }>).map((x) => x.id);
      }),
    session: (id) =>
      s.atOnce(async (c) => {
        const row = (await c.query(`SELECT cwd, updated_at FROM sessions WHERE id = $1`, [id])).rows[0] as { cwd: string; updated_at: string } | undefined;
        return row ? { cwd: row.cwd, lastActive: Number(row.updated_at) } : undefined;
      }),
    pinned: (id) => s.atOnce(async (c) => (await c.query(`SELECT 1 FROM pins WHERE session_id = $1`, [id])).rowCount === 1),
    payloadBytes: (id) =>
      s.atOnce(async (c) => {
        const r = await c.query(
          `SELECT (SELECT COALESCE(SUM(octet_length(json)), 0) FROM rows WHERE session_id = $1) + (SELECT COALESCE(SUM(octet_length(json)), 0) FROM events WHERE session_id = $1) AS b`,
          [id],
        );
        return Number((r.rows[0] as { b: string }).b);
      }),
    async tryLock(id): Promise<RetentionLock> {
      try {
        return await acquirePgSessionLock(id, { connect: (app) => s.client(app) });
      } catch (e) {
        if (!SessionBusy.is(e)) throw e;
        const h = e.data?.holder;
        return { busy: true, ...(typeof h === "string" ? { holder: h } : {}) };
      }
    },
    deleteSession: (id) => s.deleteSession(id),
    // no URL, an unreachable server, refused credentials: the store says so itself (its writes fail loudly)
    reportsItself: (e) => isPgOpenError(e),
  };
}

/**
 * The retention engine's backend over oceancode.db (retention.ts): the sessions, pins, rows and events
 * tables read with the store's connection, and the session's file lock (lock.ts) taken without waiting.
 */
import { acquireSessionLock, busyHolder } from "./lock.js";
import { SessionBusy } from "../engine/kit.js";
import { isStorageOpenError } from "./errors.js";
import type { RetentionBackend, RetentionLock } from "./retention.js";
import type { SqliteStore } from "./store.js";

/** The store, or anything with its connection and path (doctor: a read-only connection that never deletes). */
export type RetentionStore = Pick<SqliteStore, "db" | "dbPath" | "settle" | "deleteSession">;

export function sqliteRetention(store: RetentionStore): RetentionBackend {
  return {
    settle: () => store.settle(),
    async idleBefore(cutoff) {
      const rows = store.db().prepare(`SELECT id FROM sessions WHERE updated_at < ? ORDER BY updated_at`).all(cutoff) as Array<{ id: string }>;
      return rows.map((r) => r.id);
    },
    async session(id) {
      const row = store.db().prepare(`SELECT cwd, updated_at FROM sessions WHERE id = ?`).get(id) as { cwd: string; updated_at: number } | undefined;
      return row ? { cwd: row.cwd, lastActive: row.updated_at } : undefined;
    },
    async pinned(id) {
      return store.db().prepare(`SELECT 1 FROM pins WHERE session_id = ?`).get(id) !== undefined;
    },
    async payloadBytes(id) {
      const r = store
        .db()
        .prepare(`SELECT (SELECT COALESCE(SUM(LENGTH(json)), 0) FROM rows WHERE session_id = ?) + (SELECT COALESCE(SUM(LENGTH(json)), 0) FROM events WHERE session_id = ?) AS b`)
        .get(id, id) as { b: number };
      return r.b;
    },
    async tryLock(id): Promise<RetentionLock> {
      try {
        return await acquireSessionLock(store.dbPath, id);
      } catch (e) {
        if (!SessionBusy.is(e)) throw e;
        const h = busyHolder(e);
        return { busy: true, ...(h ? { holder: `process ${h.pid} on ${h.host}` } : {}) };
      }
    },
    deleteSession: (id) => store.deleteSession(id),
    reportsItself: (e) => isStorageOpenError(e),
  };
}

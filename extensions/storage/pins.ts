/**
 * Pins: sessions the retention sweep keeps, whatever their age (table `pins`, schema v3), served to
 * `oceancode session pin|unpin` (storage-commands) as the contract's `pins`. A pin guards every copy of
 * the session: its rows in oceancode.db and what other stores (the ledger) keep of it.
 */
import type { RetentionParticipant, SessionPins } from "./api.js";
import type { SqliteStore } from "./store.js";

export function isPinned(store: SqliteStore, id: string): boolean {
  return store.db().prepare(`SELECT 1 FROM pins WHERE session_id = ?`).get(id) !== undefined;
}

/** true when the pin is new. Written at once (a command, not a step: nothing is queued behind it). */
export function pin(store: SqliteStore, id: string, now = Date.now()): boolean {
  return store.db().prepare(`INSERT OR IGNORE INTO pins (session_id, pinned_at) VALUES (?, ?)`).run(id, now).changes > 0;
}

/** true when there was a pin to remove. */
export function unpin(store: SqliteStore, id: string): boolean {
  return store.db().prepare(`DELETE FROM pins WHERE session_id = ?`).run(id).changes > 0;
}

/** The contract's `pins` over oceancode.db; `participants` brings in the other stores (a session only the ledger still holds can be pinned). */
export function sqlitePins(store: SqliteStore, participants: () => Promise<readonly RetentionParticipant[]>): SessionPins {
  return {
    async known(id) {
      await store.settle().catch(() => undefined);
      return store.db().prepare(`SELECT 1 FROM sessions WHERE id = ?`).get(id) !== undefined || (await participants()).some((p) => p.has(id));
    },
    async pin(id) {
      await store.settle().catch(() => undefined);
      return pin(store, id);
    },
    async unpin(id) {
      await store.settle().catch(() => undefined);
      return unpin(store, id);
    },
  };
}

/**
 * Taps on the engine's hooks. Every write tap only enqueues (synchronous, no disk), so a step never
 * waits on the database; the readers (loadSession, latestSession) settle the writer first.
 */
import type { EngineService } from "../engine/api.js";
import type { SqliteStore } from "./store.js";
import { acquireSessionLock } from "./lock.js";
import { SessionBusy } from "../engine/kit.js";
import { isLocked } from "./lock-holders.js";

export function tapEngine(engine: EngineService, store: SqliteStore, name: string): void {
  const h = engine.hooks;
  // first of all: the session's row is queued before any other tap records against it (a hook's
  // SessionStart outcome is an event of this session, refused by the database ahead of its session)
  h.sessionStart.tap({ name, stage: "store" }, ({ session, source }) => store.sessionStarted(session, source));
  h.checkpoint.tap({ name, stage: "STAGE_AUDIT" }, (rec) => store.sessionProgress(rec.session));
  h.afterStep.tap({ name, stage: "STAGE_AUDIT" }, (rec) => store.sessionProgress(rec.ctx.session));
  h.afterTurn.tap({ name, stage: "STAGE_AUDIT" }, (rec) => store.sessionProgress(rec.session, true));
  // a fork's rows arrive all at once (renumbered): the session, its rows and totals in one group
  h.sessionForked.tap({ name, stage: "STAGE_AUDIT" }, ({ session }) => store.sessionProgress(session, true));
  h.sessionEnd.tap({ name, stage: "STAGE_AUDIT" }, async ({ session }) => {
    store.sessionProgress(session, true);
    store.forget(session.info.id);
    await store.settle().catch(() => undefined);
  });
  // sessions this process holds the lock of: only those are reconciled with the ledger on open (a reader never writes)
  const claimed = new Set<string>();
  h.loadSession.tap({ name }, async ({ id }) => {
    try {
      return claimed.has(id) ? await store.openClaimed(id) : await store.loadSession(id);
    } catch (e) {
      // locked by another process: say so (never "no session")
      if (isLocked(e)) return { refused: (e as Error).message };
      throw e;
    }
  });
  h.latestSession.tap({ name }, ({ cwd }) => store.latestSessionId(cwd));
  // one process writes a session at a time: the lock dies with its process, so a kill -9 never leaves it stuck
  h.claimSession.tap({ name }, async ({ id, wait }) => {
    try {
      const lock = await acquireSessionLock(store.dbPath, id, { wait });
      claimed.add(id);
      return {
        release: () => {
          claimed.delete(id);
          return lock.release();
        },
      };
    } catch (e) {
      if (SessionBusy.is(e)) return { refused: e.message };
      throw e;
    }
  });
}

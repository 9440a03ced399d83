/**
 * One process per session on a shared database: `pg_try_advisory_lock(<namespace>, hashtext(<session id>))`
 * on a connection of its own, held while the session is open. PostgreSQL releases a session-level advisory
 * lock when its connection ends, so a process that dies (kill -9 included) never leaves a session stuck.
 * The lock's connection names its holder (`application_name`: pid, host, start time), so a refused claim
 * says who has the session, as the SQLite store's socket lock does.
 */
import os from "node:os";
import type pg from "pg";
import { SESSION_LOCK_NAMESPACE } from "./api.js";
import { SessionBusy } from "../engine/kit.js";

/** the advisory lock's first key: oceancode sessions (the second is hashtext(id)); published in api.ts */
export const LOCK_NAMESPACE = SESSION_LOCK_NAMESPACE;

export interface PgLockHandle {
  release(): Promise<void>;
}

export interface PgLockOptions {
  connect(applicationName: string): Promise<pg.Client>;
  wait?: boolean;
  pollMs?: number;
  /** told when the lock's connection was lost and retaken (or could not be: another process took the session meanwhile) */
  log?: { warn(m: string): void; error(m: string): void };
}

/** retaking a lost lock: first wait and the longest (doubling) */
const RETAKE_FIRST_MS = 100;
const RETAKE_MAX_MS = 5_000;

/** The engine's OC_ERR_SESSION_BUSY naming the holder (its application_name as `data.holder`). */
export function pgSessionBusy(sessionId: string, holder: string | undefined) {
  return SessionBusy({ sessionId, holder: holder ?? "another process" }, { data: { holder } });
}

/** "oceancode pid 123 on host since 2026-..." as stored in application_name (at most 63 bytes). */
function holderName(): string {
  return `oc ${process.pid}@${os.hostname()}`.slice(0, 40) + ` ${new Date().toISOString().slice(0, 19)}Z`;
}

function describeHolder(app: string | undefined): string | undefined {
  const m = app && /^oc (\d+)@(.*) (\S+)$/.exec(app);
  return m ? `process ${m[1]} on ${m[2]} (since ${m[3]})` : undefined;
}

async function whoHolds(c: pg.Client, id: string): Promise<string | undefined> {
  const r = await c.query(
    `SELECT a.application_name AS app FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
     WHERE l.locktype = 'advisory' AND l.granted AND l.classid = $1::int::oid AND l.objid = hashtext($2)::oid AND l.objsubid = 2 LIMIT 1`,
    [LOCK_NAMESPACE, id],
  );
  return describeHolder((r.rows[0] as { app?: string } | undefined)?.app);
}

export async function acquirePgSessionLock(id: string, opts: PgLockOptions): Promise<PgLockHandle> {
  const c = await opts.connect(holderName());
  try {
    for (;;) {
      const r = await c.query(`SELECT pg_try_advisory_lock($1, hashtext($2)) AS ok`, [LOCK_NAMESPACE, id]);
      if ((r.rows[0] as { ok: boolean }).ok) break;
      if (!opts.wait) throw pgSessionBusy(id, await whoHolds(c, id).catch(() => undefined));
      await new Promise((res) => setTimeout(res, opts.pollMs ?? 150));
    }
  } catch (e) {
    await c.end().catch(() => undefined);
    throw e;
  }
  let released = false;
  let conn = c;
  const streamOf = (x: pg.Client) => (x as unknown as { connection?: { stream?: { unref?(): void; ref?(): void } } }).connection?.stream;
  /**
   * The connection ended while the lock was held (the database restarted): PostgreSQL dropped the lock with it.
   * Retake it on a new connection, with backoff, until the database is back; the session stays open here
   * meanwhile (its writes wait in the write queue). If another process took it first, say so: this process
   * no longer has the session to itself.
   */
  const watch = (x: pg.Client): void => {
    streamOf(x)?.unref?.();
    x.on("end", () => {
      if (released || conn !== x) return;
      opts.log?.warn(`session ${id}: the session lock's connection was lost; taking the lock again`);
      void retake();
    });
  };
  const retake = async (): Promise<void> => {
    let wait = RETAKE_FIRST_MS;
    while (!released) {
      await new Promise((r) => setTimeout(r, wait).unref());
      if (released) return;
      let n: pg.Client | undefined;
      try {
        n = await opts.connect(holderName());
        const r = await n.query(`SELECT pg_try_advisory_lock($1, hashtext($2)) AS ok`, [LOCK_NAMESPACE, id]);
        if (!(r.rows[0] as { ok: boolean }).ok) {
          opts.log?.error(`session ${id}: its lock was taken by ${(await whoHolds(n, id).catch(() => undefined)) ?? "another process"} while the database was away; this process no longer holds it alone`);
          await n.end().catch(() => undefined);
          return;
        }
        if (released) {
          await n.end().catch(() => undefined);
          return;
        }
        conn = n;
        watch(n);
        opts.log?.warn(`session ${id}: the session lock is held again`);
        return;
      } catch {
        await n?.end().catch(() => undefined);
        wait = Math.min(wait * 2, RETAKE_MAX_MS);
      }
    }
  };
  // held and idle from now on: it must never keep the process alive on its own (the SQLite lock's socket is
  // unref'd too); the process's end closes it, which releases the lock
  watch(c);
  return {
    async release() {
      if (released) return;
      released = true;
      const x = conn;
      streamOf(x)?.ref?.(); // a release in progress is awaited work: the process waits for it
      // ending the connection releases the lock; unlock first so a pooled server-side proxy cannot keep it
      await x.query(`SELECT pg_advisory_unlock($1, hashtext($2))`, [LOCK_NAMESPACE, id]).catch(() => undefined);
      await x.end().catch(() => undefined);
    },
  };
}

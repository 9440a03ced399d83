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

/** the advisory lock's first key: oceancode sessions (the second is hashtext(id)); published in api.ts */
export const LOCK_NAMESPACE = SESSION_LOCK_NAMESPACE;

export interface PgLockHandle {
  release(): Promise<void>;
}

export interface PgLockOptions {
  connect(applicationName: string): Promise<pg.Client>;
  wait?: boolean;
  pollMs?: number;
}

export class PgSessionBusyError extends Error {
  readonly code = "OC_ERR_SESSION_BUSY";
  constructor(
    readonly sessionId: string,
    readonly holder: string | undefined,
  ) {
    super(`session ${sessionId} is open in ${holder ?? "another process"}; close it there, or pass --wait to wait for it`);
    this.name = "PgSessionBusyError";
  }
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
      if (!opts.wait) throw new PgSessionBusyError(id, await whoHolds(c, id).catch(() => undefined));
      await new Promise((res) => setTimeout(res, opts.pollMs ?? 150));
    }
  } catch (e) {
    await c.end().catch(() => undefined);
    throw e;
  }
  // held and idle from now on: it must never keep the process alive on its own (the SQLite lock's socket is
  // unref'd too); the process's end closes it, which releases the lock
  const stream = (c as unknown as { connection?: { stream?: { unref?(): void; ref?(): void } } }).connection?.stream;
  stream?.unref?.();
  let released = false;
  return {
    async release() {
      if (released) return;
      released = true;
      stream?.ref?.(); // a release in progress is awaited work: the process waits for it
      // ending the connection releases the lock; unlock first so a pooled server-side proxy cannot keep it
      await c.query(`SELECT pg_advisory_unlock($1, hashtext($2))`, [LOCK_NAMESPACE, id]).catch(() => undefined);
      await c.end().catch(() => undefined);
    },
  };
}

/**
 * What `oceancode doctor` asks of PostgreSQL beyond its checks, on a connection of its own that never
 * migrates or writes: the orphaned sessions (the bundled store's judging, oceancode/api/storage, over this
 * database's last rows and its advisory session locks: a free lock means no process on any machine has the
 * session open) and the `storage:` figures (pg_total_relation_size of our tables; the WAL is the server's,
 * shared with every database on it, so it is not ours to count; free disk is the server's, unknown here).
 * `database.vacuum`: a plain VACUUM of the session tables after a sweep (vacuumPg).
 */
import type pg from "pg";
import { type LastRow, type OrphanedSession, type RetentionParticipant, type StorageFigures } from "../storage/api.js";
import { findOrphans, planRetention } from "../storage/kit.js";
import { readVersion } from "./migrations.js";
import { pgRetention } from "./retention.js";
import type { PgStore } from "./store.js";

const TABLES = ["sessions", "rows", "events", "pins"];

async function withClient<T>(s: PgStore, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = await s.client("oceancode doctor");
  try {
    return await fn(c);
  } finally {
    await c.end().catch(() => undefined);
  }
}

export async function pgOrphans(s: PgStore): Promise<OrphanedSession[]> {
  const last = await withClient(s, async (c) => {
    if ((await readVersion(c)) === 0) return [];
    const r = await c.query(
      `SELECT s.id, s.cwd, s.updated_at, s.title, r.seq, r.turn, r.role, r.json
         FROM sessions s JOIN rows r ON r.session_id = s.id
        WHERE s.parent_id IS NULL AND r.seq = (SELECT max(seq) FROM rows WHERE session_id = s.id)`,
    );
    return (r.rows as Array<{ id: string; cwd: string; updated_at: string; title: string | null; seq: number; turn: number; role: string; json: string }>).map(
      (x): LastRow => ({ id: x.id, cwd: x.cwd, updatedAt: Number(x.updated_at), seq: x.seq, turn: x.turn, role: x.role, json: x.json, ...(x.title ? { title: x.title } : {}) }),
    );
  });
  return findOrphans(last, (id) => pgRetention(s).tryLock(id));
}

export async function tableBytes(c: pg.ClientBase): Promise<number> {
  const r = await c.query(`SELECT COALESCE(SUM(pg_total_relation_size(to_regclass(t))), 0) AS b FROM unnest($1::text[]) AS t`, [TABLES]);
  return Number((r.rows[0] as { b: string }).b);
}

export async function pgFigures(s: PgStore, dbDays: number, participants: readonly RetentionParticipant[], vacuumOn: boolean, ledger: Pick<StorageFigures, "ledgerBytes" | "ledgerOldest" | "ledgerSessions">): Promise<StorageFigures> {
  const { bytes, sessions } = await withClient(s, async (c) => {
    if ((await readVersion(c)) === 0) return { bytes: 0, sessions: 0 };
    const n = Number(((await c.query(`SELECT count(*) AS n FROM sessions`)).rows[0] as { n: string }).n);
    return { bytes: await tableBytes(c), sessions: n };
  });
  const plan = sessions ? await planRetention(pgRetention(s), { dbDays, participants }) : { expiring: [] };
  return {
    name: "postgresql",
    location: s.dbPath,
    bytes,
    sessions,
    ...ledger,
    vacuum: { on: vacuumOn, detail: "a plain VACUUM of the session tables after a sweep that removed sessions" },
    retentionDue: { sessions: plan.expiring.length, bytes: plan.expiring.reduce((n, x) => n + x.bytes, 0) },
    freeDir: "the server's data directory (not visible from here)",
  };
}

/** A plain VACUUM (never FULL: that locks the tables out) of our tables: space goes back to PostgreSQL for reuse; the files shrink only where their ends are free. */
export async function vacuumPg(s: PgStore): Promise<string> {
  return withClient(s, async (c) => {
    const before = await tableBytes(c);
    await c.query(`VACUUM ${TABLES.join(", ")}`);
    const after = await tableBytes(c);
    return `vacuum: ${s.dbPath}: VACUUM of the session tables: ${before} -> ${after} bytes (freed ${Math.max(0, before - after)}; the rest is reused by new rows)`;
  });
}

/**
 * Versioned schema migrations for the PostgreSQL store. The version lives in `schema_version` (one row);
 * each migration runs in its own transaction together with the version bump, under a transaction-level
 * advisory lock, so two processes opening a fresh database at once migrate it once, and an interrupted
 * migration leaves the previous version intact. A database written by a newer oceancode is refused.
 */
import type pg from "pg";
import { SchemaTooNew } from "../storage/kit.js";

export interface PgMigration {
  version: number;
  summary: string;
  sql: string;
}

/** Same tables and meanings as oceancode.db (docs/storage.md); times are ms since the epoch (bigint). */
export const MIGRATIONS: readonly PgMigration[] = [
  {
    version: 1,
    summary: "sessions, rows and events tables",
    sql: `
      CREATE TABLE IF NOT EXISTS sessions (
        id TEXT PRIMARY KEY,
        n BIGSERIAL NOT NULL,
        parent_id TEXT,
        cwd TEXT NOT NULL,
        model TEXT NOT NULL,
        title TEXT,
        created_at BIGINT NOT NULL,
        updated_at BIGINT NOT NULL,
        overrides TEXT NOT NULL DEFAULT '{}',
        totals TEXT NOT NULL DEFAULT '{}'
      );
      CREATE TABLE IF NOT EXISTS rows (
        session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
        seq INTEGER NOT NULL,
        turn INTEGER NOT NULL,
        step INTEGER NOT NULL,
        role TEXT NOT NULL,
        json TEXT NOT NULL,
        PRIMARY KEY (session_id, seq)
      );
      CREATE TABLE IF NOT EXISTS events (
        session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
        seq INTEGER NOT NULL,
        at BIGINT NOT NULL,
        kind TEXT NOT NULL,
        json TEXT NOT NULL,
        PRIMARY KEY (session_id, seq)
      );`,
  },
  {
    version: 2,
    summary: "indexes for listing a project's sessions and looking up events by kind",
    sql: `
      CREATE INDEX IF NOT EXISTS sessions_cwd_updated ON sessions (cwd, updated_at DESC);
      CREATE INDEX IF NOT EXISTS sessions_updated ON sessions (updated_at);
      CREATE INDEX IF NOT EXISTS events_kind ON events (session_id, kind, seq);`,
  },
  {
    version: 3,
    summary: "pins: sessions the retention sweep keeps (copied from oceancode.db by storage copy)",
    sql: `CREATE TABLE IF NOT EXISTS pins (session_id TEXT PRIMARY KEY, pinned_at BIGINT NOT NULL);`,
  },
];

export const LATEST_VERSION = MIGRATIONS[MIGRATIONS.length - 1]!.version;

/** any fixed key: serializes migrators of one database */
const MIGRATE_LOCK = 0x6f63_6d67; // "ocmg"

/** storage's OC_ERR_SCHEMA_TOO_NEW for a database a newer oceancode migrated. */
function schemaTooNew(where: string, found: number) {
  return SchemaTooNew(
    { where, what: "database schema", found, supported: LATEST_VERSION, remedy: "upgrade oceancode, or point storage.url / OC_DATABASE_URL at another database" },
    { data: { found, supported: LATEST_VERSION } },
  );
}

export interface PgMigrationReport {
  from: number;
  to: number;
  applied: Array<{ version: number; summary: string }>;
}

type Queryable = Pick<pg.ClientBase, "query">;

/** The version, without creating anything (0: no oceancode schema yet). */
export async function readVersion(c: Queryable): Promise<number> {
  const t = await c.query(`SELECT to_regclass('schema_version') IS NOT NULL AS present`);
  if (!(t.rows[0] as { present: boolean }).present) return 0;
  const r = await c.query(`SELECT max(version) AS v FROM schema_version`);
  return Number((r.rows[0] as { v: number | null }).v ?? 0);
}

/** Apply every pending migration in order, on one client. Throws SchemaTooNew (OC_ERR_SCHEMA_TOO_NEW) for a newer database. */
export async function migrate(c: pg.ClientBase, where: string): Promise<PgMigrationReport> {
  const from = await readVersion(c);
  if (from > LATEST_VERSION) throw schemaTooNew(where, from);
  const applied: PgMigrationReport["applied"] = [];
  if (from === LATEST_VERSION) return { from, to: from, applied };
  for (const m of MIGRATIONS) {
    if (m.version <= from) continue;
    await c.query("BEGIN");
    try {
      await c.query(`SELECT pg_advisory_xact_lock(${MIGRATE_LOCK})`);
      await c.query(`CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY, applied_at BIGINT NOT NULL)`);
      // another process may have applied it while we waited for the lock
      const now = await readVersion(c);
      if (now > LATEST_VERSION) throw schemaTooNew(where, now);
      if (now < m.version) {
        await c.query(m.sql);
        await c.query(`INSERT INTO schema_version (version, applied_at) VALUES ($1, $2)`, [m.version, Date.now()]);
        applied.push({ version: m.version, summary: m.summary });
      }
      await c.query("COMMIT");
    } catch (e) {
      await c.query("ROLLBACK").catch(() => undefined);
      throw e;
    }
  }
  return { from, to: await readVersion(c), applied };
}

/**
 * The fleet tables' schema, versioned like storage-postgres's (migrations.ts there): its own version table
 * `fleet_schema` (one row per applied version), each migration in one transaction with its version row,
 * under a transaction-level advisory lock, so instances starting at once on a fresh database apply each
 * migration once, and a failed one leaves the previous version intact. The fleet has its own version line
 * (not a row in the store's schema_version): the store and the fleet are separate extensions and either
 * may be upgraded without the other. A database whose fleet schema is newer than this code is refused.
 */
import type pg from "pg";
import { SchemaTooNew } from "../storage/kit.js";

export interface FleetMigration {
  version: number;
  summary: string;
  sql: string;
}

export const FLEET_MIGRATIONS: readonly FleetMigration[] = [
  {
    version: 1,
    // IF NOT EXISTS: a database used by the unversioned fleet (before fleet_schema) already has these
    summary: "fleet_events, fleet_prompts and fleet_turns",
    sql: `
      CREATE TABLE IF NOT EXISTS fleet_events (id bigserial PRIMARY KEY, session text NOT NULL, payload jsonb NOT NULL, created_at timestamptz NOT NULL DEFAULT now());
      CREATE TABLE IF NOT EXISTS fleet_prompts (id bigserial PRIMARY KEY, session text NOT NULL, text text NOT NULL, origin text NOT NULL,
        taken_by text, turn_id text, error text, created_at timestamptz NOT NULL DEFAULT now());
      CREATE TABLE IF NOT EXISTS fleet_turns (id bigserial PRIMARY KEY, session text NOT NULL, turn_id text NOT NULL, instance text NOT NULL, text text NOT NULL,
        state text NOT NULL DEFAULT 'running', taken_by text, started_at timestamptz NOT NULL DEFAULT now());
      CREATE INDEX IF NOT EXISTS fleet_turns_running ON fleet_turns (state) WHERE state = 'running';`,
  },
  {
    version: 2,
    summary: "indexes for pruning old fleet rows by age (no table scan)",
    sql: `
      CREATE INDEX IF NOT EXISTS fleet_events_created ON fleet_events (created_at);
      CREATE INDEX IF NOT EXISTS fleet_prompts_created ON fleet_prompts (created_at);
      CREATE INDEX IF NOT EXISTS fleet_turns_finished ON fleet_turns (started_at) WHERE state IN ('done', 'taken');`,
  },
  {
    version: 3,
    summary: "queued turns (recorded at acceptance) and the run (process start) that owns a turn",
    sql: `
      ALTER TABLE fleet_turns ADD COLUMN IF NOT EXISTS run text;
      DROP INDEX IF EXISTS fleet_turns_running;
      CREATE INDEX IF NOT EXISTS fleet_turns_live ON fleet_turns (session, id) WHERE state IN ('queued', 'running');`,
  },
  {
    version: 4,
    // 2^22 - 1 starts of 2^31 ids each stay under Number.MAX_SAFE_INTEGER; then numbering starts over
    summary: "fleet_starts: a number per instance start, the base of its SSE event ids",
    sql: `CREATE SEQUENCE IF NOT EXISTS fleet_starts MINVALUE 1 MAXVALUE 4194303 CYCLE;`,
  },
];

export const FLEET_LATEST = FLEET_MIGRATIONS[FLEET_MIGRATIONS.length - 1]!.version;

/** any fixed key (not the store's): serializes the fleet migrators of one database */
const FLEET_MIGRATE_LOCK = 1868788588;

/** storage's OC_ERR_SCHEMA_TOO_NEW for fleet tables a newer oceancode migrated (the fleet is not started). */
export function fleetSchemaTooNew(found: number, supported: number) {
  return SchemaTooNew(
    { where: "serve-fleet", what: "the database's fleet schema", found, supported, remedy: "the fleet is not started: upgrade this instance to the version the others run, or point it at another database" },
    { data: { found, supported } },
  );
}

type Queryable = Pick<pg.ClientBase, "query">;

export async function readFleetVersion(c: Queryable): Promise<number> {
  const t = await c.query(`SELECT to_regclass('fleet_schema') IS NOT NULL AS present`);
  if (!(t.rows[0] as { present: boolean }).present) return 0;
  const r = await c.query(`SELECT max(version) AS v FROM fleet_schema`);
  return Number((r.rows[0] as { v: number | null }).v ?? 0);
}

/** Apply the pending fleet migrations in order; the versions applied by this call. Throws SchemaTooNew (OC_ERR_SCHEMA_TOO_NEW). */
export async function migrateFleet(c: Queryable, migrations: readonly FleetMigration[] = FLEET_MIGRATIONS): Promise<number[]> {
  const latest = migrations[migrations.length - 1]!.version;
  const from = await readFleetVersion(c);
  if (from > latest) throw fleetSchemaTooNew(from, latest);
  const applied: number[] = [];
  if (from === latest) return applied;
  for (const m of migrations) {
    if (m.version <= from) continue;
    await c.query("BEGIN");
    try {
      await c.query(`SELECT pg_advisory_xact_lock(${FLEET_MIGRATE_LOCK})`);
      await c.query(`CREATE TABLE IF NOT EXISTS fleet_schema (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`);
      // another instance may have applied it while this one waited for the lock
      const now = await readFleetVersion(c);
      if (now > latest) throw fleetSchemaTooNew(now, latest);
      if (now < m.version) {
        await c.query(m.sql);
        await c.query(`INSERT INTO fleet_schema (version) VALUES ($1)`, [m.version]);
        applied.push(m.version);
      }
      await c.query("COMMIT");
    } catch (e) {
      await c.query("ROLLBACK").catch(() => undefined);
      throw e;
    }
  }
  return applied;
}

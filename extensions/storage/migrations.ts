/**
 * Versioned schema migrations for oceancode.db. The version lives in PRAGMA user_version; each
 * migration is a numbered function applied in its own transaction together with the version bump,
 * so a crash mid-migration leaves the previous version intact.
 */
import type Database from "better-sqlite3";
import { SchemaTooNew } from "./errors.js";

export interface Migration {
  version: number;
  /** one line for `oceancode migrate` */
  summary: string;
  up(db: Database.Database): void;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    summary: "sessions, rows and events tables",
    up(db) {
      db.exec(`
        CREATE TABLE IF NOT EXISTS sessions (
          id TEXT PRIMARY KEY,
          parent_id TEXT,
          cwd TEXT NOT NULL,
          model TEXT NOT NULL,
          title TEXT,
          created_at INTEGER NOT NULL,
          updated_at INTEGER NOT NULL,
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
        ) WITHOUT ROWID;
        CREATE TABLE IF NOT EXISTS events (
          session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
          seq INTEGER NOT NULL,
          at INTEGER NOT NULL,
          kind TEXT NOT NULL,
          json TEXT NOT NULL,
          PRIMARY KEY (session_id, seq)
        ) WITHOUT ROWID;
      `);
    },
  },
  {
    version: 2,
    summary: "indexes for listing a project's sessions and looking up events by kind",
    up(db) {
      db.exec(`
        CREATE INDEX IF NOT EXISTS sessions_cwd_updated ON sessions (cwd, updated_at DESC);
        CREATE INDEX IF NOT EXISTS sessions_updated ON sessions (updated_at);
        CREATE INDEX IF NOT EXISTS events_kind ON events (session_id, kind, seq);
      `);
    },
  },
  {
    version: 3,
    summary: "pins: sessions the retention sweep keeps (oceancode session pin)",
    up(db) {
      // no foreign key: a pin may name a session only a ledger still holds, and outlives nothing it guards
      db.exec(`CREATE TABLE IF NOT EXISTS pins (session_id TEXT PRIMARY KEY, pinned_at INTEGER NOT NULL) WITHOUT ROWID;`);
    },
  },
];

export const LATEST_VERSION = MIGRATIONS[MIGRATIONS.length - 1]!.version;

export interface MigrationReport {
  from: number;
  to: number;
  applied: Array<{ version: number; summary: string }>;
}

/** A database written by a newer oceancode: never touched. */
export function schemaTooNew(file: string, found: number) {
  return SchemaTooNew(
    { where: file, what: "database schema", found, supported: LATEST_VERSION, remedy: "upgrade oceancode, or point --db / OC_DB at another file" },
    { data: { found, supported: LATEST_VERSION } },
  );
}

export function schemaVersion(db: Database.Database): number {
  return db.pragma("user_version", { simple: true }) as number;
}

/** Apply every pending migration in order. Throws SchemaTooNew (OC_ERR_SCHEMA_TOO_NEW) for a newer database. */
export function migrate(db: Database.Database, file: string): MigrationReport {
  const from = schemaVersion(db);
  if (from > LATEST_VERSION) throw schemaTooNew(file, from);
  const applied: MigrationReport["applied"] = [];
  for (const m of MIGRATIONS) {
    if (m.version <= from) continue;
    db.transaction(() => {
      m.up(db);
      db.pragma(`user_version = ${m.version}`);
    }).immediate();
    applied.push({ version: m.version, summary: m.summary });
  }
  return { from, to: schemaVersion(db), applied };
}

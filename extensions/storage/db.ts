/** Open oceancode.db: path resolution, pragmas (WAL, foreign keys), and automatic migration. */
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { migrate, schemaVersion, SchemaTooNewError, LATEST_VERSION, type MigrationReport } from "./migrations.js";

/** `OC_DB` (the CLI sets it from --db) wins over `<dataDir>/oceancode.db`. */
export function resolveDbPath(env: NodeJS.ProcessEnv, dataDir: string): string {
  const fromEnv = env.OC_DB;
  return fromEnv && fromEnv.length > 0 ? path.resolve(fromEnv) : path.join(dataDir, "oceancode.db");
}

/** A database that cannot be opened or used at all (not transient: retrying will not help). */
export class StorageOpenError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "StorageOpenError";
  }
}

export interface OpenedDb {
  db: Database.Database;
  file: string;
  migration: MigrationReport;
}

export function openDb(file: string): OpenedDb {
  try {
    fs.mkdirSync(path.dirname(file), { recursive: true });
  } catch (e) {
    throw new StorageOpenError(`${file}: cannot create the database folder (${(e as Error).message}); pass --db <path> to use another place`);
  }
  let db: Database.Database;
  try {
    db = new Database(file);
  } catch (e) {
    throw new StorageOpenError(`${file}: cannot open the database (${(e as Error).message}); check its permissions or pass --db <path>`);
  }
  try {
    db.pragma("busy_timeout = 5000");
    // refuse a newer database before anything (even the journal mode) touches it
    const found = schemaVersion(db);
    if (found > LATEST_VERSION) throw new SchemaTooNewError(file, found);
    db.pragma("journal_mode = WAL");
    // NORMAL under WAL: a commit survives a process crash (kill -9); only power loss may drop the newest commits.
    db.pragma("synchronous = NORMAL");
    db.pragma("foreign_keys = ON");
    const migration = migrate(db, file);
    return { db, file, migration };
  } catch (e) {
    db.close();
    if (e instanceof SchemaTooNewError) throw new StorageOpenError(e.message, { cause: e });
    const msg = (e as Error).message;
    const hint = /not a database|malformed/i.test(msg) ? "the file is not an oceancode database; move it aside or pass --db <path>" : "check the file, or pass --db <path>";
    throw new StorageOpenError(`${file}: cannot use the database (${msg}); ${hint}`, { cause: e });
  }
}

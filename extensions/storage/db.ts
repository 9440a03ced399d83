/** Open oceancode.db: path resolution, pragmas (WAL, foreign keys), and automatic migration. */
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { isLocked, lockedLine } from "./lock-holders.js";
import { migrate, schemaVersion, schemaTooNew, LATEST_VERSION, type MigrationReport } from "./migrations.js";
import { SchemaTooNew, StorageCannotOpen, StorageDamaged, StorageFolder, StorageFull, StorageLocked, StorageUnusable } from "./errors.js";

/** The code a damaged database is recognised by (errors are matched by code, never by class identity). */
export const STORAGE_DAMAGED = StorageDamaged.code;

/** SQLite's own verdict that the file is damaged or not a database (not transient: a retry cannot help). */
export function isDamage(e: unknown): boolean {
  const code = (e as { code?: unknown } | null)?.code;
  if (typeof code === "string" && (code.startsWith("SQLITE_CORRUPT") || code === "SQLITE_NOTADB")) return true;
  return /database disk image is malformed|file is not a database/i.test(e instanceof Error ? e.message : String(e));
}

/** The command that rebuilds `file` from the session ledger (the --db form unless it is the default file). */
export function repairCommandFor(file: string, isDefault: boolean): string {
  return isDefault ? "oceancode storage repair" : `oceancode --db ${file} storage repair`;
}

/** A database SQLite reports as damaged (or not a database): the message names the file and the fix. */
export function storageDamaged(file: string, detail: string, repair: string, options?: { cause?: unknown }) {
  return StorageDamaged({ file, detail, repair }, options);
}

/**
 * A full disk under the database (SQLITE_FULL, or an I/O error where statfs finds no room): the message, else
 * undefined. With `measured`, SQLITE_FULL counts only when statfs finds less than 1 MiB free too.
 */
export function fullDisk(e: unknown, file: string, opts: { measured?: boolean } = {}): string | undefined {
  const code = String((e as { code?: unknown } | null)?.code ?? "");
  const msg = e instanceof Error ? e.message : String(e);
  if (!code.startsWith("SQLITE_FULL") && !code.startsWith("SQLITE_IOERR") && !/disk is full|disk I\/O error/i.test(msg)) return undefined;
  let free: number | undefined;
  try {
    const st = fs.statfsSync(path.dirname(file));
    free = st.bavail * st.bsize;
  } catch {
    free = undefined;
  }
  // `measured`: only when statfs agrees (SQLITE_FULL is also a database at its max_page_count)
  if ((opts.measured || (!code.startsWith("SQLITE_FULL") && !/disk is full/i.test(msg))) && (free === undefined || free >= 1024 * 1024)) return undefined;
  return `${file}: cannot use the database: the disk holding it is full (${free ?? 0} bytes free); free some space, then run again`;
}

export interface OpenedDb {
  db: Database.Database;
  file: string;
  migration: MigrationReport;
}

/**
 * mkdir -p, one level at a time from the nearest folder that exists: Node's recursive mkdirSync loops
 * forever under some special file systems (`--db /proc/nope/x.db` hung `sessions` with no output).
 */
function makeFolders(dir: string): void {
  const missing: string[] = [];
  let d = path.resolve(dir);
  while (!fs.existsSync(d)) {
    missing.push(d);
    const up = path.dirname(d);
    if (up === d) break;
    d = up;
  }
  for (const m of missing.reverse()) fs.mkdirSync(m);
}

/** `repair` is the command named when the file turns out damaged (default: the --db form). */
export function openDb(file: string, repair = repairCommandFor(file, false)): OpenedDb {
  try {
    makeFolders(path.dirname(file));
  } catch (e) {
    throw StorageFolder({ file, reason: (e as Error).message });
  }
  let db: Database.Database;
  try {
    db = new Database(file);
  } catch (e) {
    throw StorageCannotOpen({ file, reason: (e as Error).message });
  }
  try {
    db.pragma("busy_timeout = 5000");
    // refuse a newer database before anything (even the journal mode) touches it
    const found = schemaVersion(db);
    if (found > LATEST_VERSION) throw schemaTooNew(file, found);
    // a new database gets incremental auto-vacuum (database.vacuum gives freed pages back cheaply); it must
    // be set before the first table exists; an older file is converted at its first vacuum (vacuum.ts)
    if (found === 0 && (db.prepare("SELECT COUNT(*) AS n FROM sqlite_master").get() as { n: number }).n === 0) db.pragma("auto_vacuum = INCREMENTAL");
    db.pragma("journal_mode = WAL");
    // NORMAL under WAL: a commit survives a process crash (kill -9); only power loss may drop the newest commits.
    db.pragma("synchronous = NORMAL");
    db.pragma("foreign_keys = ON");
    const migration = migrate(db, file);
    return { db, file, migration };
  } catch (e) {
    db.close();
    if (SchemaTooNew.is(e)) throw e;
    const msg = (e as Error).message;
    if (isDamage(e)) throw storageDamaged(file, msg, repair, { cause: e });
    // another connection holds the lock (SQLITE_BUSY past busy_timeout): say who, never "check the file"
    if (isLocked(e)) throw StorageLocked({ line: lockedLine(file) }, { cause: e });
    const full = fullDisk(e, file);
    if (full) throw StorageFull({ line: full }, { cause: e });
    throw StorageUnusable({ file, reason: msg }, { cause: e });
  }
}

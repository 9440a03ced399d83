/**
 * `database.vacuum: true`: give the pages the retention sweep freed back to the file system. New
 * databases are created with auto_vacuum = INCREMENTAL (db.ts), so an incremental vacuum hands the free
 * pages back without rewriting the file. A database made before that is converted once, at its first
 * vacuum, by a full VACUUM, and only when nothing else holds it (a short busy wait; busy: skipped, tried at
 * the next sweep). In WAL mode the file shrinks at the checkpoint that follows.
 */
import fs from "node:fs";
import type Database from "better-sqlite3";
import { isLocked } from "./lock-holders.js";

export const AUTO_VACUUM_INCREMENTAL = 2;

export type VacuumResult =
  | { kind: "done"; before: number; after: number; freed: number; converted: boolean }
  | { kind: "skipped"; why: string };

function size(file: string): number {
  try {
    return fs.statSync(file).size;
  } catch {
    return 0;
  }
}

/** Free pages inside the file, in bytes (what a vacuum could give back). */
export function freePageBytes(db: Database.Database): number {
  return (db.pragma("freelist_count", { simple: true }) as number) * (db.pragma("page_size", { simple: true }) as number);
}

/** Run on the store's own connection, with no transaction open (after the writer settled). */
export function vacuumSqlite(db: Database.Database, file: string): VacuumResult {
  const before = size(file) + size(`${file}-wal`);
  const mode = db.pragma("auto_vacuum", { simple: true }) as number;
  let converted = false;
  if (mode !== AUTO_VACUUM_INCREMENTAL) {
    const wait = db.pragma("busy_timeout", { simple: true }) as number;
    db.pragma("busy_timeout = 200");
    try {
      db.pragma("auto_vacuum = INCREMENTAL"); // takes effect with the VACUUM that rewrites the file
      db.exec("VACUUM");
      converted = true;
    } catch (e) {
      if (isLocked(e)) return { kind: "skipped", why: "another process holds the database; the conversion to incremental vacuum is tried again at the next sweep" };
      throw e;
    } finally {
      db.pragma(`busy_timeout = ${wait}`);
    }
  } else if (freePageBytes(db) > 0) {
    db.exec("PRAGMA incremental_vacuum");
  }
  // WAL: the database file is truncated when the log is checkpointed into it
  db.pragma("wal_checkpoint(TRUNCATE)");
  const after = size(file) + size(`${file}-wal`);
  return { kind: "done", before, after, freed: Math.max(0, before - after), converted };
}

export function vacuumLine(file: string, r: VacuumResult): string {
  if (r.kind === "skipped") return `vacuum: ${file}: skipped: ${r.why}`;
  const how = r.converted ? " (converted to incremental auto-vacuum by one full VACUUM)" : "";
  return `vacuum: ${file}: freed ${r.freed} bytes (${r.before} -> ${r.after} bytes)${how}`;
}

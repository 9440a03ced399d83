/** Checking a database file: SQLite's PRAGMA quick_check on a connection that never writes. */
import fs from "node:fs";
import Database from "better-sqlite3";
import type { DatabaseCheck } from "./api.js";
import { isDamage } from "./db.js";
import { isLocked, lockedLine } from "./lock-holders.js";

function size(file: string): number {
  try {
    return fs.statSync(file).size;
  } catch {
    return 0;
  }
}

/**
 * Read-only first; a WAL database whose -shm cannot be created that way is opened normally with
 * query_only on (opening may replay the WAL, which is what SQLite does on any open).
 */
export function connect(file: string): Database.Database {
  try {
    return new Database(file, { readonly: true, fileMustExist: true });
  } catch (e) {
    if (isDamage(e)) throw e;
    const db = new Database(file, { fileMustExist: true });
    db.pragma("query_only = ON");
    return db;
  }
}

/** quick_check's findings: at most `max` lines, "ok" when it found nothing. */
export function checkDatabaseFile(file: string, max = 5): DatabaseCheck {
  const base = { file, bytes: size(file), walBytes: size(`${file}-wal`) };
  if (!fs.existsSync(file)) return { ...base, status: "absent", detail: "absent (created by the first session)" };
  let db: Database.Database;
  try {
    db = connect(file);
  } catch (e) {
    if (isLocked(e)) return { ...base, status: "unreadable", locked: true, detail: lockedLine(file) };
    return { ...base, status: isDamage(e) ? "damaged" : "unreadable", detail: `cannot be opened: ${(e as Error).message}` };
  }
  try {
    // one finding per line, without SQLite's "*** in database main ***" banner
    const found = (db.pragma(`quick_check(${max})`) as Array<{ quick_check: string }>)
      .flatMap((r) => r.quick_check.split("\n"))
      .map((l) => l.trim())
      .filter((l) => l && !/^\*\*\* in database /.test(l));
    if (found.length !== 1 || found[0] !== "ok") return { ...base, status: "damaged", detail: `quick_check: ${found.join("; ")}` };
    const schema = db.pragma("user_version", { simple: true }) as number;
    let sessions: number | undefined;
    try {
      sessions = (db.prepare("SELECT COUNT(*) AS n FROM sessions").get() as { n: number }).n;
    } catch {
      sessions = undefined; // no sessions table yet (an empty file, or not ours)
    }
    return { ...base, status: "ok", detail: "quick_check ok", schema, ...(sessions !== undefined ? { sessions } : {}) };
  } catch (e) {
    if (isLocked(e)) return { ...base, status: "unreadable", locked: true, detail: lockedLine(file) };
    return { ...base, status: isDamage(e) ? "damaged" : "unreadable", detail: `quick_check failed: ${(e as Error).message}` };
  } finally {
    db.close();
  }
}

/**
 * What `oceancode doctor` asks of oceancode.db beyond quick_check, on a read-only connection (doctor never
 * writes, migrates or creates the file): the orphaned sessions (orphans.ts) and the `storage:` figures
 * (sizes, sessions, ledger, retention due, free disk).
 */
import fs from "node:fs";
import path from "node:path";
import type Database from "better-sqlite3";
import type { RetentionParticipant, StorageFigures } from "./api.js";
import { participantFigures } from "./figures.js";
import { connect } from "./health.js";
import { acquireSessionLock, busyHolder } from "./lock.js";
import { SessionBusy } from "../engine/kit.js";
import { findOrphans, type LastRow, type OrphanedSession } from "./orphans.js";
import { planRetention, type RetentionLock } from "./retention.js";
import { sqliteRetention } from "./sqlite-retention.js";
import { freePageBytes } from "./vacuum.js";
import { DoctorNeverDeletes } from "./errors.js";

function size(file: string): number {
  try {
    return fs.statSync(file).size;
  } catch {
    return 0;
  }
}

function withReadOnly<T>(file: string, fn: (db: Database.Database) => T): T | undefined {
  if (!fs.existsSync(file)) return undefined;
  const db = connect(file);
  try {
    return fn(db);
  } finally {
    db.close();
  }
}

export async function tryLockSqlite(file: string, id: string): Promise<RetentionLock> {
  try {
    return await acquireSessionLock(file, id);
  } catch (e) {
    if (!SessionBusy.is(e)) throw e;
    const h = busyHolder(e);
        return { busy: true, ...(h ? { holder: `process ${h.pid} on ${h.host}` } : {}) };
  }
}

/** Each root session's last stored row. */
export function lastRows(db: Database.Database): LastRow[] {
  const rows = db
    .prepare(
      `SELECT s.id, s.cwd, s.updated_at AS updatedAt, s.title, r.seq, r.turn, r.role, r.json
         FROM sessions s JOIN rows r ON r.session_id = s.id
        WHERE s.parent_id IS NULL AND r.seq = (SELECT MAX(seq) FROM rows WHERE session_id = s.id)`,
    )
    .all() as Array<LastRow & { title: string | null }>;
  return rows.map(({ title, ...r }) => ({ ...r, ...(title ? { title } : {}) }));
}

export async function sqliteOrphans(file: string): Promise<OrphanedSession[]> {
  const last = withReadOnly(file, lastRows) ?? [];
  return findOrphans(last, (id) => tryLockSqlite(file, id));
}

export function freeSpace(dir: string): { freeBytes?: number; freeDir: string } {
  let d = dir;
  while (!fs.existsSync(d) && path.dirname(d) !== d) d = path.dirname(d);
  try {
    const s = fs.statfsSync(d);
    return { freeBytes: s.bavail * s.bsize, freeDir: d };
  } catch {
    return { freeDir: d };
  }
}

const MODES = ["none", "full", "incremental"];

export async function sqliteFigures(file: string, dataDir: string, dbDays: number, participants: readonly RetentionParticipant[], vacuumOn = false): Promise<StorageFigures> {
  const base = { name: path.basename(file), location: file, bytes: size(file), walBytes: size(`${file}-wal`), ...freeSpace(dataDir), ...participantFigures(participants) };
  if (!fs.existsSync(file)) return { ...base, sessions: 0, retentionDue: { sessions: 0, bytes: 0 } };
  const db = connect(file);
  try {
    const sessions = (db.prepare("SELECT COUNT(*) AS n FROM sessions").get() as { n: number }).n;
    const backend = sqliteRetention({
      db: () => db,
      dbPath: file,
      settle: async () => undefined,
      deleteSession: async () => {
        throw DoctorNeverDeletes();
      },
    });
    const plan = await planRetention(backend, { dbDays, participants });
    const mode = MODES[db.pragma("auto_vacuum", { simple: true }) as number] ?? "unknown";
    const vacuum = { on: vacuumOn, detail: `${freePageBytes(db)} bytes free inside the file (auto_vacuum ${mode})` };
    return { ...base, sessions, vacuum, retentionDue: { sessions: plan.expiring.length, bytes: plan.expiring.reduce((n, s) => n + s.bytes, 0) } };
  } finally {
    db.close();
  }
}

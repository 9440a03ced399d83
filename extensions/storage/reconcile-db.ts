/**
 * Reconciling oceancode.db with the recovery sources outside a session: `doctor --storage` lists the
 * sessions a source holds more of than the database (cheap: the source's last seq against the
 * database's, on a read-only connection), and `storage repair` on a healthy file catches each of them
 * up in place (reconcile.ts), one transaction per session, holding the session's lock so no run writes
 * it meanwhile. A session open in another process is left alone (its ledger may run a step ahead until
 * it settles); one the database let go by retention (idle past database.retention_days) is not a loss.
 */
import fs from "node:fs";
import path from "node:path";
import type { Row, StoredSession } from "../engine/api.js";
import type { RecoverySource } from "./api.js";
import { acquireSessionLock } from "./lock.js";
import { SessionBusy } from "../engine/kit.js";
import { openDb } from "./db.js";
import { connect } from "./health.js";
import { load } from "./reads.js";
import { titleFrom } from "./session-rows.js";
import { catchUpOps, reconcileSession } from "./reconcile.js";

export interface Mismatch {
  id: string;
  source: string;
  /** rows the database holds of it, and its last seq (0: none) */
  dbRows: number;
  dbLast: number;
  /** false: the database has no such session */
  inDb: boolean;
  sourceLast: number;
  /** another process has the session open (its pid when it says) */
  openIn?: string;
}

const DAY = 86_400_000;

/** the newest change a source made to a session's folder (rows.jsonl, else the folder) */
function touched(source: RecoverySource, id: string): number {
  for (const f of [path.join(source.location, id, "rows.jsonl"), path.join(source.location, id)]) {
    try {
      return fs.statSync(f).mtimeMs;
    } catch {
      // try the next
    }
  }
  return 0;
}

async function openElsewhere(file: string, id: string): Promise<string | undefined> {
  try {
    const lock = await acquireSessionLock(file, id);
    await lock.release();
    return undefined;
  } catch (e) {
    if (SessionBusy.is(e)) {
      const h = e.data?.holder;
      return typeof h === "object" && h.pid ? `process ${h.pid}` : "another process";
    }
    throw e;
  }
}

/** Sessions a source holds rows of past the database's (read-only; the file must exist and read). */
export async function findMismatches(file: string, sources: readonly RecoverySource[], retentionDays: number): Promise<Mismatch[]> {
  const out: Mismatch[] = [];
  const db = connect(file);
  try {
    let hasTables = true;
    try {
      db.prepare("SELECT 1 FROM rows LIMIT 1").get();
    } catch {
      hasTables = false; // a file no session was written to yet (or whose schema was lost with its -wal)
    }
    const q = hasTables ? db.prepare("SELECT (SELECT COUNT(*) FROM sessions WHERE id = @id) AS s, COUNT(*) AS n, COALESCE(MAX(seq), 0) AS m FROM rows WHERE session_id = @id") : undefined;
    const seen = new Set<string>();
    for (const source of sources) {
      if (!source.ids || !source.lastSeq) continue;
      for (const id of await source.ids()) {
        if (seen.has(id)) continue;
        const sourceLast = await source.lastSeq(id);
        if (!sourceLast) continue;
        const got = (q?.get({ id }) as { s: number; n: number; m: number } | undefined) ?? { s: 0, n: 0, m: 0 };
        if (sourceLast <= got.m) continue;
        if (!got.s && retentionDays > 0 && touched(source, id) < Date.now() - retentionDays * DAY) continue; // aged out of the database
        seen.add(id);
        const openIn = await openElsewhere(file, id);
        out.push({ id, source: source.name, dbRows: got.n, dbLast: got.m, inDb: got.s > 0, sourceLast, ...(openIn ? { openIn } : {}) });
      }
    }
  } finally {
    db.close();
  }
  return out;
}

export interface CatchUp {
  id: string;
  source: string;
  /** rows written back, and the seq range */
  rows: number;
  from: number;
  to: number;
  turns: number;
}

export interface CatchUpReport {
  caughtUp: CatchUp[];
  /** sessions that could not be caught up, one line each (why, what to run) */
  refused: string[];
  /** sessions left alone because another process has them open */
  busy: string[];
}

/** Catch every mismatched session up in place (the file checks healthy). */
export async function catchUpAll(file: string, sources: readonly RecoverySource[], retentionDays: number): Promise<CatchUpReport> {
  const report: CatchUpReport = { caughtUp: [], refused: [], busy: [] };
  const found = await findMismatches(file, sources, retentionDays);
  if (!found.length) return report;
  const { db } = openDb(file);
  try {
    const upsert = db.prepare(
      `INSERT INTO sessions (id, parent_id, cwd, model, title, created_at, updated_at, overrides, totals)
       VALUES (@id, @parentId, @cwd, @model, @title, @createdAt, @updatedAt, @overrides, COALESCE(@totals, '{}'))
       ON CONFLICT(id) DO UPDATE SET model = excluded.model, title = COALESCE(sessions.title, excluded.title), overrides = excluded.overrides,
         totals = COALESCE(@totals, sessions.totals), updated_at = MAX(sessions.updated_at, excluded.updated_at)`,
    );
    const row = db.prepare(`INSERT OR REPLACE INTO rows (session_id, seq, turn, step, role, json) VALUES (?, ?, ?, ?, ?, ?)`);
    for (const m of found) {
      if (m.openIn) {
        report.busy.push(`session ${m.id}: open in ${m.openIn}; left alone (run repair again once it has finished)`);
        continue;
      }
      let lock;
      try {
        lock = await acquireSessionLock(file, m.id);
      } catch (e) {
        if (!(SessionBusy.is(e))) throw e;
        report.busy.push(`session ${m.id}: ${e.message}`);
        continue;
      }
      try {
        const stored: StoredSession | undefined = load(db, m.id);
        const r = await reconcileSession(sources, m.id, stored);
        if (r.kind === "conflict") {
          report.refused.push(`session ${m.id}: its ${r.source} (seq ${r.sourceLast}) and the database (seq ${r.dbLast}) cannot be joined: ${r.why}; \`storage repair --force\` rebuilds the database from the ${r.source}`);
          continue;
        }
        if (r.kind !== "ahead") continue;
        const first = r.rows.find((x) => x.role === "user" && x.text.trim()) as Extract<Row, { role: "user" }> | undefined;
        const ops = catchUpOps(r, first ? titleFrom(first.text) : undefined);
        db.transaction(() => {
          for (const op of ops) {
            if (op.t === "session") upsert.run(op);
            else row.run(op.sessionId, op.seq, op.turn, op.step, op.role, op.json);
          }
        }).immediate();
        report.caughtUp.push({ id: m.id, source: r.source, rows: r.rows.length, from: r.rows[0]!.seq, to: r.rows[r.rows.length - 1]!.seq, turns: new Set(r.rows.map((x) => x.turn)).size });
      } finally {
        await lock.release();
      }
    }
  } finally {
    db.close();
  }
  return report;
}

/**
 * The ledger and the database, reconciled: a session whose recovery source (the ledger's rows.jsonl)
 * runs past the database's rows — the database lost its newest commits (its -wal file gone after a
 * kill -9, a lock that kept the writes out, a restored backup) — is caught up from the source: the rows
 * the database lacks are written back, in order, after the ones it has. The source is the longer record;
 * the database never cuts it. When the two cannot be joined (the source lacks a row between, or holds a
 * different row where they meet), nothing is written and the caller refuses, naming `storage repair`.
 * Store-agnostic (no driver): the SQLite store uses it on open, in `doctor --storage` and `storage repair`;
 * storage-postgres on open.
 */
import type { Row, SessionInfo, SessionTotals, StoredSession } from "../engine/api.js";
import type { RecoverySource } from "./api.js";
import { sessionOp, type RowWriteOp, type SessionWriteOp } from "./session-ops.js";
import { titleFrom } from "./session-rows.js";
import { type Reconcile, type CatchUpTarget } from "./api.js";
export { type CatchUpTarget, type Reconcile } from "./api.js";

/** The same row (a row's time, turn, step and role identify it; seqs are reused only after a resume). */
function sameRow(a: Row, b: Row): boolean {
  return a.seq === b.seq && a.at === b.at && a.turn === b.turn && a.step === b.step && a.role === b.role;
}

/**
 * Compare one session's rows in the database (`db`, undefined when it has no such session) with each
 * source that can tell its last seq cheaply; only a source that is ahead is read in full.
 */
export async function reconcileSession(sources: readonly RecoverySource[], id: string, db: StoredSession | undefined, parentId?: string): Promise<Reconcile> {
  const dbLast = db?.rows[db.rows.length - 1]?.seq ?? 0;
  let even: Reconcile = { kind: "even", dbLast };
  for (const source of sources) {
    if (!source.lastSeq || !source.session) continue;
    const sourceLast = await source.lastSeq(id, parentId ?? db?.info.parentId);
    if (sourceLast === undefined) continue;
    if (sourceLast <= dbLast && db) {
      even = { kind: "even", dbLast, sourceLast };
      continue;
    }
    if (sourceLast === 0) continue; // a folder without rows, and no session in the database
    const item = await source.session(id, parentId ?? db?.info.parentId);
    const conflict = (why: string): Reconcile => ({ kind: "conflict", source: source.name, dbLast, sourceLast, why });
    if (!item) continue;
    if (!item.ok) return conflict(item.why);
    const s = item.session;
    const bySeq = new Map(s.rows.map((r) => [r.seq, r]));
    const last = db?.rows[db.rows.length - 1];
    if (last) {
      const mine = bySeq.get(last.seq);
      if (!mine) return conflict(`the ${source.name} has no row seq ${last.seq}, the database's last`);
      if (!sameRow(mine, last)) return conflict(`its row seq ${last.seq} is not the database's (they hold different histories)`);
    }
    const rows = s.rows.filter((r) => r.seq > dbLast);
    for (let i = 0; i < rows.length; i++) {
      if (rows[i]!.seq !== dbLast + 1 + i) return conflict(`the ${source.name} lacks row seq ${dbLast + 1 + i}`);
    }
    if (!rows.length) continue;
    const info: SessionInfo = { ...s.info, id, ...(db?.info.parentId ? { parentId: db.info.parentId } : {}) };
    return { kind: "ahead", source: source.name, dbLast, sourceLast: rows[rows.length - 1]!.seq, rows, info, totals: s.totals, updatedAt: s.updatedAt };
  }
  return even;
}

/** The writes that catch the database up: the session's row (info, totals) first, then the missing rows. */
export function catchUpOps(r: Extract<Reconcile, { kind: "ahead" }>, title?: string): Array<SessionWriteOp | RowWriteOp> {
  const ops: Array<SessionWriteOp | RowWriteOp> = [{ ...sessionOp(r.info, r.totals, title), updatedAt: Math.max(r.updatedAt, r.rows[r.rows.length - 1]!.at) }];
  for (const row of r.rows) ops.push({ t: "row", sessionId: r.info.id, seq: row.seq, turn: row.turn, step: row.step, role: row.role, json: JSON.stringify(row) });
  return ops;
}

/**
 * Catch the database up to a source that is ahead (`r`): the missing rows are queued as one group ahead of
 * anything the resumed session writes, and the session comes back whole (the stored rows, then the source's).
 */
export async function catchUp(id: string, stored: StoredSession, r: Extract<Reconcile, { kind: "ahead" }>, t: CatchUpTarget): Promise<StoredSession> {
  const first = r.rows.find((x) => x.role === "user" && x.text.trim()) as { text: string } | undefined;
  t.enqueueGroup(catchUpOps(r, first ? titleFrom(first.text) : undefined));
  await t.settle().catch(() => undefined); // a writer that fails retries; the rows stay queued ahead of the session's own
  t.warn(caughtUpLine(id, r));
  const info: SessionInfo = { ...stored.info, model: r.info.model, overrides: r.info.overrides, ...(r.info.title ? { title: r.info.title } : {}) };
  return { info, rows: [...stored.rows, ...r.rows], totals: r.totals };
}

/** What a catch-up did, for the user (once per session). */
export function caughtUpLine(id: string, r: Extract<Reconcile, { kind: "ahead" }>): string {
  return (
    `session ${id}: the database held ${r.dbLast} row(s), its ${r.source} ${r.sourceLast}: the ${r.rows.length} row(s) only the ${r.source} had ` +
    `were written back to the database (it had lost its newest writes, e.g. with its -wal file, or a lock or a full disk kept them out)`
  );
}

/**
 * Why an open is refused, naming the command that fixes it (`repair`), or, for a store with no rebuild
 * in place (`fix`), what to do instead.
 */
export function refusalLine(id: string, r: Extract<Reconcile, { kind: "conflict" }>, repair: string | { fix: string }): string {
  const fix = typeof repair === "string" ? `run \`${repair} --force\` to rebuild the database from the ${r.source} (the current file is kept beside it)` : repair.fix;
  return `session ${id}: its ${r.source} holds rows up to seq ${r.sourceLast}, the database up to seq ${r.dbLast}, and they cannot be joined (${r.why}); nothing was changed, the ${r.source} is kept whole: ${fix}`;
}

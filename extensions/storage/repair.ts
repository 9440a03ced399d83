/**
 * `oceancode storage repair`: rebuild oceancode.db from the recovery sources (the ledger) into a new
 * file beside it, then move the damaged file aside (kept, with its -wal and -shm) and the new one into
 * place. Until that last rename nothing at the database's path changes, so an interrupted repair can be
 * run again. What the sources lack is taken from the damaged file where it still reads: its events
 * (hook outcomes, which no source keeps), rows after the last one a source holds, and sessions no
 * source holds.
 */
import fs from "node:fs";
import type Database from "better-sqlite3";
import type { Row } from "../engine/api.js";
import type { DatabaseCheck, RecoveredSession, RecoverySource } from "./api.js";
import { openDb } from "./db.js";
import { checkDatabaseFile } from "./health.js";
import { titleFrom } from "./session-rows.js";
import { Salvage, type EventDbRow } from "./salvage.js";

export interface RepairedSession {
  id: string;
  /** "ledger", or "damaged file" for a session only the damaged file held */
  from: string;
  turns: number;
  rows: number;
  events: number;
  /** what was not given back exactly */
  gaps: string[];
}

export interface RepairReport {
  file: string;
  before: DatabaseCheck;
  /** where the damaged file (and its -wal, -shm) went */
  movedAside: string[];
  sources: Array<{ name: string; location: string }>;
  sessions: RepairedSession[];
  /** what could not be recovered, one line each */
  lost: string[];
  ms: number;
}

export type RepairOutcome = { repaired: true; report: RepairReport } | { repaired: false; before: DatabaseCheck };

const SIDE_FILES = ["", "-wal", "-shm", "-journal"];

function stamp(d: Date): string {
  return d.toISOString().replace(/[-:]/g, "").replace(/\.\d+Z$/, "Z");
}

function statements(db: Database.Database) {
  return {
    session: db.prepare(
      `INSERT INTO sessions (id, parent_id, cwd, model, title, created_at, updated_at, overrides, totals) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    row: db.prepare(`INSERT OR REPLACE INTO rows (session_id, seq, turn, step, role, json) VALUES (?, ?, ?, ?, ?, ?)`),
    event: db.prepare(`INSERT OR REPLACE INTO events (session_id, seq, at, kind, json) VALUES (?, ?, ?, ?, ?)`),
  };
}

/** The title the store gives a session: its own, else the first line of the first user message. */
function titleOf(s: RecoveredSession): string | null {
  if (s.info.title) return s.info.title;
  const first = s.rows.find((r) => r.role === "user" && r.text.trim()) as { text: string } | undefined;
  return first ? titleFrom(first.text) : null;
}

function insert(st: ReturnType<typeof statements>, s: RecoveredSession, events: readonly EventDbRow[]): void {
  const i = s.info;
  st.session.run(i.id, i.parentId ?? null, i.cwd, i.model, titleOf(s), i.createdAt, s.updatedAt, JSON.stringify(i.overrides ?? {}), JSON.stringify(s.totals));
  for (const r of s.rows) st.row.run(i.id, r.seq, r.turn, r.step, r.role, JSON.stringify(r));
  for (const e of events) st.event.run(i.id, e.seq, e.at, e.kind, e.json);
}

const turnsOf = (rows: readonly Row[]): number => new Set(rows.map((r) => r.turn)).size;

function rename(from: string, to: string): boolean {
  try {
    fs.renameSync(from, to);
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return false;
    throw e;
  }
}

export interface RepairOptions {
  file: string;
  sources: readonly RecoverySource[];
  /** rebuild even a database that checks ok */
  force?: boolean;
  now?: Date;
}

export async function repairDatabase(o: RepairOptions): Promise<RepairOutcome> {
  const t0 = performance.now();
  const before = checkDatabaseFile(o.file);
  // a healthy file is not rebuilt unasked (the ledger does not keep events); one that cannot be checked neither
  if ((before.status === "ok" || before.status === "unreadable") && !o.force) return { repaired: false, before };
  if (before.locked) return { repaired: false, before }; // another process holds it: never moved aside under it
  const tmp = `${o.file}.repair-${process.pid}`;
  for (const suf of SIDE_FILES) fs.rmSync(`${tmp}${suf}`, { force: true });
  const salvage = before.status === "absent" ? undefined : new Salvage(o.file);
  const report: RepairReport = { file: o.file, before, movedAside: [], sources: o.sources.map((s) => ({ name: s.name, location: s.location })), sessions: [], lost: [], ms: 0 };
  const { db } = openDb(tmp);
  try {
    const st = statements(db);
    const known = salvage?.sessions();
    const counts = salvage?.rowCounts() ?? new Map<string, { n: number; max: number }>();
    const done = new Set<string>();
    const failed = new Map<string, string>();
    for (const source of o.sources) {
      for await (const item of source.sessions()) {
        if (!item.ok) {
          if (!failed.has(item.id)) failed.set(item.id, `${source.name}: ${item.why}`);
          continue;
        }
        const s = item.session;
        if (done.has(s.info.id)) continue;
        const gaps = [...s.gaps];
        const last = s.rows[s.rows.length - 1]?.seq ?? 0;
        const had = counts.get(s.info.id);
        if (salvage && had && had.max > last) {
          const more = salvage.rowsAfter(s.info.id, last);
          if (more.length) {
            s.rows = [...s.rows, ...more];
            gaps.push(`${more.length} row(s) after seq ${last} taken from the damaged file (not in the ${source.name})`);
          }
          const still = had.max - (s.rows[s.rows.length - 1]?.seq ?? 0);
          if (still > 0) gaps.push(`the damaged file listed ${still} more row(s) (up to seq ${had.max}) that could not be read`);
        }
        const ev = salvage?.events(s.info.id) ?? { events: [] };
        if (ev.error && salvage?.error === undefined) gaps.push(`events: only ${ev.events.length} could be read from the damaged file (${ev.error})`);
        db.transaction(() => insert(st, s, ev.events))();
        done.add(s.info.id);
        report.sessions.push({ id: s.info.id, from: source.name, turns: turnsOf(s.rows), rows: s.rows.length, events: ev.events.length, gaps });
      }
    }
    // sessions only the damaged file held (no ledger directory): whole, or not at all
    for (const row of known?.list ?? []) {
      if (done.has(row.id)) continue;
      const got = salvage!.session(row.id);
      if (!got.stored) {
        report.lost.push(`session ${row.id} (${row.cwd}): ${failed.get(row.id) ?? "not in any recovery source"}; in the damaged file it does not read (${got.error})`);
        failed.delete(row.id);
        continue;
      }
      const s: RecoveredSession = { info: got.stored.info, totals: got.stored.totals, rows: got.stored.rows, updatedAt: got.updatedAt ?? got.stored.info.createdAt, gaps: [] };
      const ev = salvage!.events(row.id);
      db.transaction(() => insert(st, s, ev.events))();
      done.add(row.id);
      report.sessions.push({ id: row.id, from: "damaged file", turns: turnsOf(s.rows), rows: s.rows.length, events: ev.events.length, gaps: [] });
    }
    for (const [id, why] of failed) if (!done.has(id)) report.lost.push(`session ${id}: ${why}`);
    if (salvage?.error) report.lost.push(`the damaged file could not be read at all (${salvage.error}): its events, and any session without a ledger, are lost`);
    else if (known?.error) report.lost.push(`the damaged file's session list breaks off (${known.error}): a session without a ledger past that point is lost`);
  } finally {
    salvage?.close();
    db.close(); // checkpoints: the new file is whole without its -wal
  }
  // the swap: damaged file aside (kept), new file in
  if (before.status !== "absent") {
    let aside = `${o.file}.damaged-${stamp(o.now ?? new Date())}`;
    for (let n = 2; fs.existsSync(aside); n++) aside = `${o.file}.damaged-${stamp(o.now ?? new Date())}-${n}`; // never over an earlier one
    for (const suf of SIDE_FILES) if (rename(`${o.file}${suf}`, `${aside}${suf}`)) report.movedAside.push(`${aside}${suf}`);
  }
  for (const suf of SIDE_FILES) rename(`${tmp}${suf}`, `${o.file}${suf}`);
  report.ms = performance.now() - t0;
  return { repaired: true, report };
}

/**
 * Reading what is still readable in a damaged database, for `storage repair`: the sessions it listed,
 * its events (which the ledger does not keep), rows the ledger lacks, and whole sessions that have no
 * ledger. Every read stops at the first error and keeps what it got; a row must parse as JSON to count.
 */
import Database from "better-sqlite3";
import type { Row, StoredSession } from "../engine/api.js";
import { load } from "./reads.js";
import type { SessionDbRow } from "./session-rows.js";

export interface EventDbRow {
  session_id: string;
  seq: number;
  at: number;
  kind: string;
  json: string;
}

const msg = (e: unknown): string => (e instanceof Error ? e.message : String(e));

function isRow(v: unknown): v is Row {
  const r = v as Partial<Row> | null;
  return !!r && typeof r === "object" && typeof r.seq === "number" && typeof r.turn === "number" && typeof r.role === "string";
}

export class Salvage {
  private readonly db: Database.Database | undefined;
  /** why the file could not be read at all */
  readonly error: string | undefined;

  constructor(file: string) {
    let db: Database.Database | undefined;
    let error: string | undefined;
    try {
      db = new Database(file, { readonly: true, fileMustExist: true });
      db.pragma("user_version"); // reads the header: a damaged one fails here
    } catch (e) {
      db?.close();
      db = undefined;
      error = msg(e);
    }
    this.db = db;
    this.error = error;
  }

  /** Rows of a query until the first error. */
  private all<T>(sql: string, ...args: unknown[]): { rows: T[]; error?: string } {
    const rows: T[] = [];
    if (!this.db) return { rows, error: this.error };
    try {
      for (const r of this.db.prepare(sql).iterate(...args)) rows.push(r as T);
      return { rows };
    } catch (e) {
      return { rows, error: msg(e) };
    }
  }

  sessions(): { list: SessionDbRow[]; error?: string } {
    const r = this.all<SessionDbRow>("SELECT * FROM sessions");
    return { list: r.rows, ...(r.error ? { error: r.error } : {}) };
  }

  /** How many rows each session had (as far as the rows table reads). */
  rowCounts(): Map<string, { n: number; max: number }> {
    const out = new Map<string, { n: number; max: number }>();
    for (const r of this.all<{ session_id: string; seq: number }>("SELECT session_id, seq FROM rows").rows) {
      const c = out.get(r.session_id) ?? { n: 0, max: 0 };
      c.n++;
      c.max = Math.max(c.max, r.seq);
      out.set(r.session_id, c);
    }
    return out;
  }

  /** Rows after `seq`, only if they read, parse and follow on without a gap. */
  rowsAfter(id: string, seq: number): Row[] {
    const r = this.all<{ json: string }>("SELECT json FROM rows WHERE session_id = ? AND seq > ? ORDER BY seq", id, seq);
    const out: Row[] = [];
    for (const { json } of r.rows) {
      let row: unknown;
      try {
        row = JSON.parse(json);
      } catch {
        break;
      }
      if (!isRow(row) || row.seq !== seq + out.length + 1) break;
      out.push(row);
    }
    return out;
  }

  /** A whole session, when its row and every one of its rows read and parse, seq 1..N. */
  session(id: string): { stored?: StoredSession; updatedAt?: number; error?: string } {
    if (!this.db) return { error: this.error };
    try {
      const stored = load(this.db, id);
      if (!stored) return { error: "not in the session table" };
      if (stored.rows.some((r, i) => !isRow(r) || r.seq !== i + 1)) return { error: "its rows have gaps" };
      const s = this.db.prepare("SELECT updated_at FROM sessions WHERE id = ?").get(id) as { updated_at: number };
      return { stored, updatedAt: s.updated_at };
    } catch (e) {
      return { error: msg(e) };
    }
  }

  events(id: string): { events: EventDbRow[]; error?: string } {
    const r = this.all<EventDbRow>("SELECT * FROM events WHERE session_id = ? ORDER BY seq", id);
    const events = r.rows.filter((e) => {
      try {
        JSON.parse(e.json);
        return true;
      } catch {
        return false;
      }
    });
    return { events, ...(r.error ? { error: r.error } : {}) };
  }

  close(): void {
    this.db?.close();
  }
}

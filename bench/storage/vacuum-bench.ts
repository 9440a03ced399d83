/**
 * database.vacuum and doctor's reads, measured: a database of N sessions x M rows (~rowBytes each) made
 * through openDb (incremental auto-vacuum, as a new oceancode.db is), half the sessions deleted, then
 *   - the incremental vacuum after that "sweep" (ms, bytes freed),
 *   - the one-time conversion of the same database made without auto-vacuum (a full VACUUM, ms),
 *   - doctor's orphan scan (last row of every session + lock probe) and its storage: figures (ms).
 *   node dist/bench/storage/vacuum-bench.js [sessions=200] [rows=200] [rowBytes=1024]
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { openDb } from "../../extensions/storage/db.js";
import { sqliteFigures, sqliteOrphans } from "../../extensions/storage/doctor-sqlite.js";
import { vacuumSqlite } from "../../extensions/storage/vacuum.js";

const sessions = Number(process.argv[2] ?? 200);
const rows = Number(process.argv[3] ?? 200);
const rowBytes = Number(process.argv[4] ?? 1024);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "oc-vacuum-bench-"));

function fill(db: Database.Database): void {
  const s = db.prepare("INSERT INTO sessions (id, cwd, model, created_at, updated_at) VALUES (?, ?, 'scripted/echo', ?, ?)");
  const r = db.prepare("INSERT INTO rows (session_id, seq, turn, step, role, json) VALUES (?, ?, 1, ?, ?, ?)");
  const body = "x".repeat(rowBytes);
  db.transaction(() => {
    for (let i = 0; i < sessions; i++) {
      const id = `ses_b${i}`;
      s.run(id, dir, Date.now(), Date.now());
      for (let q = 1; q <= rows; q++) r.run(id, q, q, q === rows ? "assistant" : "tool", JSON.stringify({ text: body, toolCalls: [] }));
    }
  })();
}

function sweepHalf(db: Database.Database): void {
  db.prepare("DELETE FROM sessions WHERE CAST(substr(id, 6) AS INTEGER) % 2 = 0").run();
}

const ms = (t0: number) => (performance.now() - t0).toFixed(1);

// incremental: what a new oceancode.db is
const inc = path.join(dir, "incremental.db");
const a = openDb(inc).db;
fill(a);
a.pragma("wal_checkpoint(TRUNCATE)");
const size0 = fs.statSync(inc).size;
sweepHalf(a);
let t = performance.now();
const r1 = vacuumSqlite(a, inc);
console.log(`incremental vacuum: ${ms(t)} ms, ${r1.kind === "done" ? `freed ${r1.freed} bytes (${size0} -> ${r1.after})` : r1.why}`);
a.close();

// an older file: no auto-vacuum, converted once by a full VACUUM
const old = path.join(dir, "old.db");
const b = openDb(old).db;
b.pragma("auto_vacuum = NONE"); // as a file made before incremental auto-vacuum was set
b.exec("VACUUM");
fill(b);
b.pragma("wal_checkpoint(TRUNCATE)");
sweepHalf(b);
t = performance.now();
const r2 = vacuumSqlite(b, old);
console.log(`conversion (full VACUUM): ${ms(t)} ms, ${r2.kind === "done" ? `freed ${r2.freed} bytes, converted=${r2.converted}` : r2.why}`);
b.close();

t = performance.now();
const orphans = await sqliteOrphans(inc);
console.log(`doctor orphan scan over ${sessions / 2} sessions: ${ms(t)} ms (${orphans.length} orphan(s))`);
t = performance.now();
const f = await sqliteFigures(inc, dir, 30, []);
console.log(`doctor storage figures: ${ms(t)} ms (sessions=${f.sessions}, ${f.bytes} bytes)`);
fs.rmSync(dir, { recursive: true, force: true });

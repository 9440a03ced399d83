/**
 * `storage repair` benchmark: N sessions of M steps written by the real writers (database and ledger,
 * rows.jsonl included), the database's header then overwritten, and the repair timed. Also prints the
 * ledger's per-step cost early and late (rows.jsonl appends only a step's new rows: flat) and checks
 * that every row came back byte for byte.
 *   node dist/bench/storage/repair-bench.js [sessions=20] [steps=500] [toolBytes=2048]
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import type { AssistantRow, Row, Session, ToolRow, UserRow } from "../../extensions/engine/api.js";
import { Ledger } from "../../extensions/ledger/ledger.js";
import { LedgerRecovery } from "../../extensions/ledger/recover.js";
import { SqliteStore } from "../../extensions/storage/store.js";
import { repairDatabase } from "../../extensions/storage/repair.js";

const sessions = Number(process.argv[2] ?? 20);
const steps = Number(process.argv[3] ?? 500);
const toolBytes = Number(process.argv[4] ?? 2048);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "oc-repair-bench-"));
const file = path.join(dir, "oceancode.db");
const quiet = { debug() {}, info() {}, warn() {}, error: (m: string) => process.stderr.write(`${m}\n`) };
const store = new SqliteStore({ file, onError: quiet.error });
const ledger = new Ledger(path.join(dir, "session-ledger"), true, quiet);
const output = "y".repeat(toolBytes - 1) + "\n";
const early: number[] = [];
const late: number[] = [];

const t0 = performance.now();
for (let n = 0; n < sessions; n++) {
  const s: Session = {
    info: { id: `ses_bench${String(n).padStart(4, "0")}`, cwd: dir, model: "scripted/echo", createdAt: Date.now(), overrides: {} },
    rows: [],
    totals: { usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 }, costUsd: 0, turns: 0, steps: 0 },
    nextSeq: 1,
    lastActive: Date.now(),
    ext: new Map(),
  };
  const push = (r: Omit<UserRow, "seq"> | Omit<AssistantRow, "seq"> | Omit<ToolRow, "seq">) => s.rows.push({ ...r, seq: s.nextSeq++ } as Row);
  store.sessionStarted(s, "startup");
  ledger.noteInfo(s);
  for (let i = 1; i <= steps; i++) {
    if (i % 25 === 1) {
      s.totals.turns++;
      push({ role: "user", text: `turn ${s.totals.turns} of session ${n}`, turn: s.totals.turns, step: 0, at: Date.now() });
    }
    s.totals.steps = i;
    s.totals.usage.inputTokens += 1000;
    push({ role: "assistant", text: `step ${i}`, toolCalls: [{ id: `c${i}`, name: "bash", input: { command: `cat part-${i}` } }], usage: { inputTokens: 1000, outputTokens: 20, cacheReadTokens: 0, cacheWriteTokens: 0 }, model: "scripted/echo", turn: s.totals.turns, step: i, at: Date.now() });
    push({ role: "tool", results: [{ callId: `c${i}`, name: "bash", content: output, isError: false }], turn: s.totals.turns, step: i, at: Date.now() });
    const a = performance.now();
    ledger.collect(s); // what the ledger's afterStep tap does
    const took = performance.now() - a;
    if (n === 0 && i <= 100) early.push(took);
    if (n === 0 && i > steps - 100) late.push(took);
    store.sessionProgress(s);
    await new Promise((r) => setImmediate(r));
  }
  store.sessionProgress(s, true);
  ledger.noteInfo(s);
  await ledger.settle();
  ledger.close(s.info.id);
}
await store.settle();
store.close();
const writeMs = performance.now() - t0;

const before = new Database(file, { readonly: true });
const rowsBefore = before.prepare("SELECT session_id, seq, json FROM rows ORDER BY session_id, seq").all() as Array<{ session_id: string; seq: number; json: string }>;
before.close();
const fd = fs.openSync(file, "r+");
fs.writeSync(fd, Buffer.alloc(100, 0x5a), 0, 100, 0);
fs.closeSync(fd);

const r = await repairDatabase({ file, sources: [new LedgerRecovery(ledger.root, () => ledger.settle())] });
if (!r.repaired) throw new Error("nothing repaired");
const after = new Database(file, { readonly: true });
const rowsAfter = after.prepare("SELECT session_id, seq, json FROM rows ORDER BY session_id, seq").all() as typeof rowsBefore;
after.close();
const same = rowsAfter.length === rowsBefore.length && rowsAfter.every((x, i) => x.json === rowsBefore[i]!.json && x.seq === rowsBefore[i]!.seq);
const du = (d: string): number => fs.readdirSync(d, { withFileTypes: true }).reduce((n, e) => n + (e.isDirectory() ? du(path.join(d, e.name)) : fs.statSync(path.join(d, e.name)).size), 0);
const sidecars = fs.readdirSync(ledger.root).reduce((n, id) => n + fs.statSync(path.join(ledger.root, id, "rows.jsonl")).size, 0);
const mean = (xs: number[]) => (xs.reduce((a, b) => a + b, 0) / xs.length) * 1000;

console.log(`repair bench: ${sessions} sessions x ${steps} steps (${rowsBefore.length} rows, ${toolBytes} B tool output per step)`);
console.log(`  ledger collect per step (rows.jsonl append included): steps 1-100 ${mean(early).toFixed(1)} us, last 100 ${mean(late).toFixed(1)} us`);
console.log(`  written in ${(writeMs / 1000).toFixed(1)} s; database ${fs.statSync(file).size} B, ledger ${du(ledger.root)} B of which rows.jsonl ${sidecars} B`);
console.log(`  repair: ${Math.round(r.report.ms)} ms for ${r.report.sessions.length} sessions, ${rowsAfter.length} rows; every row byte-identical: ${same}`);
console.log(`  peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`);
fs.rmSync(dir, { recursive: true, force: true });
if (!same) process.exit(1);

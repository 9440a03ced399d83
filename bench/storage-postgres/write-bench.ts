/**
 * Write amplification per step, PostgreSQL against SQLite, for the same write-behind workload:
 *   node dist/bench/storage-postgres/write-bench.js <postgres url> [steps=2000] [tool bytes=2048]
 * Each step appends a user row, an assistant row with a tool call and a tool row of <tool bytes> (random
 * base64: incompressible, so PostgreSQL's TOAST compression does not flatter it), queued as
 * the engine's afterStep tap queues them. PostgreSQL: WAL bytes generated (pg_current_wal_lsn) and the
 * tables' size; SQLite: bytes the process wrote (/proc/self/io wchar: the WAL and the checkpointed file).
 * Amplification = bytes written / JSON payload bytes. The URL is printed redacted.
 */
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import type { Session } from "../../extensions/engine/api.js";
import { SqliteStore } from "../../extensions/storage/store.js";
import { redactUrl } from "../../extensions/storage-postgres/kit.js";
import { PgStore } from "../../extensions/storage-postgres/store.js";

const [url, stepsArg, bytesArg] = process.argv.slice(2);
if (!url) {
  process.stderr.write("usage: write-bench.js <postgres url> [steps] [tool bytes]\n");
  process.exit(2);
}
const steps = Number(stepsArg ?? 2000);
const toolBytes = Number(bytesArg ?? 2048);

function session(id: string): Session {
  return { info: { id, cwd: "/bench", model: "m/x", createdAt: Date.now(), overrides: {} }, rows: [], totals: { usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 }, costUsd: 0, turns: 0, steps: 0 }, nextSeq: 1, lastActive: Date.now(), ext: new Map() };
}

let payload = 0;
function step(s: Session, i: number): void {
  const at = Date.now();
  const turn = i + 1;
  const rows = [
    { role: "user", text: `question ${i}`, seq: s.nextSeq++, turn, step: 0, at },
    { role: "assistant", text: `calling a tool ${i}`, toolCalls: [{ id: `c${i}`, name: "bash", input: { command: "ls" } }], seq: s.nextSeq++, turn, step: 1, at },
    { role: "tool", toolCallId: `c${i}`, name: "bash", output: crypto.randomBytes(toolBytes).toString("base64").slice(0, toolBytes), seq: s.nextSeq++, turn, step: 1, at },
  ];
  for (const r of rows) payload += JSON.stringify(r).length;
  s.rows.push(...(rows as never[]));
  s.totals.turns = turn;
  s.totals.steps++;
}

const wchar = () => Number(/wchar: (\d+)/.exec(fs.readFileSync("/proc/self/io", "utf8"))![1]);

async function run(name: string, store: { sessionStarted(s: Session, src: "startup"): void; sessionProgress(s: Session): void; settle(): Promise<void>; stats(): { lagMs: number; batches: number } }, measure: () => Promise<number>) {
  payload = 0;
  const before = await measure();
  const s = session(`bench-${name}-${process.pid}`);
  store.sessionStarted(s, "startup");
  let enqueueNs = 0n;
  let maxLag = 0;
  const t0 = Date.now();
  for (let i = 0; i < steps; i++) {
    step(s, i);
    const a = process.hrtime.bigint();
    store.sessionProgress(s);
    enqueueNs += process.hrtime.bigint() - a;
    if (i % 10 === 0) await new Promise((r) => setImmediate(r)); // a step yields to the event loop, as a model call does
    maxLag = Math.max(maxLag, store.stats().lagMs);
  }
  await store.settle();
  const ms = Date.now() - t0;
  const written = (await measure()) - before;
  const line = `${name}: ${steps} steps, payload ${(payload / 1e6).toFixed(2)} MB, written ${(written / 1e6).toFixed(2)} MB, amplification ${(written / payload).toFixed(2)}x, ` +
    `${(written / steps / 1024).toFixed(1)} KB/step, enqueue ${(Number(enqueueNs / BigInt(steps)) / 1000).toFixed(1)} us/step, max lag ${maxLag} ms, ${store.stats().batches} batches, ${ms} ms`;
  process.stdout.write(`${line}\n`);
}

const admin = new pg.Client({ connectionString: url });
await admin.connect();
const walBytes = async () => Number(((await admin.query(`SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')::float8 AS b`)).rows[0] as { b: number }).b);
process.stdout.write(`postgres: ${redactUrl(url)}\n`);
const p = new PgStore({ url, onError: (m) => process.stderr.write(`${m}\n`) });
await p.migrateNow();
await run("postgres (WAL bytes)", p, walBytes);
await p.close();
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "oc-wbench-"));
const sq = new SqliteStore({ file: path.join(dir, "oceancode.db"), onError: (m) => process.stderr.write(`${m}\n`) });
sq.db();
await run("sqlite (bytes written)", sq, async () => wchar());
sq.close();
fs.rmSync(dir, { recursive: true, force: true });
await admin.end();

/**
 * Storage write-behind benchmark: what one step costs the engine (the afterStep tap: enqueue only)
 * early and late in a long session, how far the writer lags, and the bytes on disk.
 *   node dist/bench/storage/writer-bench.js [steps=10000] [toolBytes=8192]
 * Goal: per-step cost flat (step 10 ~ step N) and well under 1 ms; lag stays in milliseconds.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { AssistantRow, Row, Session, ToolRow, UserRow } from "../../extensions/engine/api.js";
import { SqliteStore } from "../../extensions/storage/store.js";

const steps = Number(process.argv[2] ?? 10_000);
const toolBytes = Number(process.argv[3] ?? 8192);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "oc-storage-bench-"));
const file = path.join(dir, "oceancode.db");
const store = new SqliteStore({ file, onError: (m) => process.stderr.write(`${m}\n`) });

const s: Session = {
  info: { id: "bench", cwd: dir, model: "scripted/echo", createdAt: Date.now(), overrides: {} },
  rows: [],
  totals: { usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 }, costUsd: 0, turns: 1, steps: 0 },
  nextSeq: 1,
  lastActive: Date.now(),
  ext: new Map(),
};
const push = (row: Omit<UserRow, "seq"> | Omit<AssistantRow, "seq"> | Omit<ToolRow, "seq">) => s.rows.push({ ...row, seq: s.nextSeq++ } as Row);
const output = "x".repeat(toolBytes);
store.sessionStarted(s, "startup");
push({ role: "user", text: "marathon", turn: 1, step: 0, at: Date.now() });

const perStep: number[] = [];
let maxLag = 0;
const t0 = performance.now();
for (let i = 1; i <= steps; i++) {
  s.totals.steps = i;
  push({ role: "assistant", text: `step ${i}`, toolCalls: [{ id: `c${i}`, name: "bash", input: { command: "cat big" } }], turn: 1, step: i, at: Date.now() });
  push({ role: "tool", results: [{ callId: `c${i}`, name: "bash", content: output, isError: false }], turn: 1, step: i, at: Date.now() });
  const a = performance.now();
  store.sessionProgress(s); // what the afterStep tap does
  perStep.push(performance.now() - a);
  maxLag = Math.max(maxLag, store.stats().lagMs);
  await new Promise((r) => setImmediate(r)); // a step's own I/O: the writer runs behind it
}
const settleStart = performance.now();
await store.settle();
const settleMs = performance.now() - settleStart;
const total = performance.now() - t0;
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const early = perStep.slice(0, 100);
const late = perStep.slice(-100);
const st = store.stats();
store.close();
const size = (f: string) => (fs.existsSync(f) ? fs.statSync(f).size : 0);
console.log(`storage bench: ${steps} steps, ${toolBytes} B tool output per step`);
console.log(`  per-step enqueue (steps 1-100):        ${(mean(early) * 1000).toFixed(1)} us`);
console.log(`  per-step enqueue (last 100 steps):     ${(mean(late) * 1000).toFixed(1)} us`);
console.log(`  writer batches: ${st.batches}, ops committed: ${st.committedOps}, max lag ${maxLag} ms, final settle ${settleMs.toFixed(1)} ms`);
console.log(`  wall ${(total / 1000).toFixed(2)} s (${((total / steps) * 1000).toFixed(0)} us/step incl. commits), peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`);
console.log(`  on disk: db ${size(file)} B, wal ${size(`${file}-wal`)} B`);
fs.rmSync(dir, { recursive: true, force: true });

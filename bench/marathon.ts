/**
 * bench/marathon: N steps of a few KB of tool output each through `oceancode run` against the fake
 * Anthropic server at 0 ms latency, with the ledger and the tideline on (defaults: 40% line on a 200k model).
 *
 *   npm run build && node dist/bench/marathon.js [--steps 1000] [--kb 8] [--no-ledger]
 *     [--percent 40] [--tokens 80000] [--block 70%|56000] [--keep-steps 3] [--no-elide]
 *
 * Prints: per-step engine overhead (everything but the provider call and the tool run: context build,
 * request build, hooks, ledger, tideline) over the first and last 100 steps, RSS at start/end and peak,
 * total prompt tokens, peak window, the share of prompt tokens that were a prefix of the previous request
 * (cache reuse), cost units (input x 1 + cache write x 1.25 + cache read x 0.1, Anthropic's relative prices),
 * cuts, summary calls, and bytes on disk. A probe extension (user tier, plain ESM in the
 * temp HOME) takes the timings inside the run's own process, the way any third-party extension could.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { fileURLToPath } from "node:url";
import { startFakeAnthropic } from "../test/fakes/anthropic-server.js";
import { homeEnv } from "../test/fakes/home-env.js";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const CLI = path.join(ROOT, "dist", "hosts", "cli", "main.js");

const PROBE = `import fs from "node:fs";
import v8 from "node:v8";
const out = process.env.OC_BENCH_PROBE;
// OC_BENCH_HEAPSNAPSHOT=200,1000: a V8 heap snapshot beside the probe file at those steps (for DevTools' Memory tab)
const snapshotAt = new Set((process.env.OC_BENCH_HEAPSNAPSHOT ?? "").split(",").filter(Boolean).map(Number));
const checkpoints = new Set((process.env.OC_BENCH_CHECKPOINTS ?? "").split(",").filter(Boolean).map(Number));
// resident KB per kind of mapping, from /proc/self/smaps (Linux only; {} elsewhere): the JS heap is not all of RSS
function smaps() {
  let text;
  try { text = fs.readFileSync("/proc/self/smaps", "utf8"); } catch { return {}; }
  const by = {};
  let key = "";
  for (const l of text.split("\\n")) {
    const head = /^[0-9a-f]+-[0-9a-f]+ \\S+ \\S+ \\S+ \\S+\\s*(.*)$/.exec(l);
    if (head) {
      // anon holds V8's heap pages, wasm linear memory and large malloc blocks alike
      const name = head[1];
      key = !name ? "anon" : name.startsWith("[") ? name : name === process.execPath ? "node binary" : name.split("/").pop();
      continue;
    }
    const r = /^Rss:\\s+(\\d+) kB/.exec(l);
    if (r) by[key] = (by[key] ?? 0) + Number(r[1]);
  }
  return by;
}
export default { activate(ctx) {
  const h = ctx.services.get("engine").hooks;
  let t0 = 0, t1 = 0, t2 = 0, tool = 0, lines = [];
  const flush = () => { if (lines.length) { fs.appendFileSync(out, lines.join("")); lines = []; } };
  h.contextBuild.tap({ name: "bench-probe", stage: -10000 }, (w) => { t0 = performance.now(); tool = 0; t2 = 0; return w; });
  h.modelRequest.tap({ name: "bench-probe", stage: 10000 }, (r) => { t1 = performance.now(); return r; });
  h.authorizeToolCall.tap({ name: "bench-probe", stage: -10000 }, () => { if (!t2) t2 = performance.now(); return undefined; });
  h.executeTool.tap({ name: "bench-probe", stage: 10000 }, (next) => async (a) => { const s = performance.now(); try { return await next(a); } finally { tool += performance.now() - s; } });
  h.afterStep.tap({ name: "bench-probe", stage: 10000 }, (rec) => {
    const t3 = performance.now();
    const overhead = (t1 - t0) + (t2 ? t3 - t2 - tool : 0);
    const m = process.memoryUsage();
    const row = { step: rec.ctx.sessionStep, overhead, rss: m.rss, heap: m.heapUsed, gauge: rec.gaugeTokens };
    if (checkpoints.has(rec.ctx.sessionStep)) Object.assign(row, { mem: { ...m }, smaps: smaps(), spaces: Object.fromEntries(v8.getHeapSpaceStatistics().map((x) => [x.space_name, x.physical_space_size])) });
    if (snapshotAt.has(rec.ctx.sessionStep)) v8.writeHeapSnapshot(out + "." + rec.ctx.sessionStep + ".heapsnapshot");
    lines.push(JSON.stringify(row) + "\\n");
    if (lines.length >= 100) flush();
  });
  h.sessionEnd.tap({ name: "bench-probe" }, flush);
} };
`;

function du(p: string): number {
  if (!fs.existsSync(p)) return 0;
  const st = fs.statSync(p);
  if (!st.isDirectory()) return st.size;
  return fs.readdirSync(p).reduce((n, f) => n + du(path.join(p, f)), 0);
}

const fmt = (n: number) => n.toLocaleString("en-US");
/** Claude Code's cost units on this marathon at 200 steps x 8 KB, as issue 13 records them (measured side by side). */
const CLAUDE_CODE_UNITS_200x8 = 2_620_000;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      steps: { type: "string", default: "1000" },
      kb: { type: "string", default: "8" },
      "no-ledger": { type: "boolean" },
      // the tideline's settings for this run (ledger.tideline in a project config); unset = the defaults
      percent: { type: "string" },
      tokens: { type: "string" },
      block: { type: "string" },
      "keep-steps": { type: "string" },
      "no-elide": { type: "boolean" },
      // memory checkpoints (steps); default 1, 200, 1,000 and 10,000 when the run is that long, and the last
      checkpoints: { type: "string" },
    },
    strict: true,
  });
  const steps = Number(values.steps);
  // memory checkpoints: steps 1, 200, 1,000 and 10,000 when the run is that long, and the last step
  const checkpoints = [...new Set([...(values.checkpoints ?? "1,200,1000,10000").split(",").map(Number), steps])].filter((c) => c >= 1 && c <= steps).sort((a, b) => a - b);
  const kb = Number(values.kb);
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "oc-bench-marathon-"));
  const home = path.join(tmp, "home");
  const project = path.join(tmp, "project");
  fs.mkdirSync(path.join(home, ".oceancode", "extensions", "bench-probe"), { recursive: true });
  fs.mkdirSync(project, { recursive: true });
  // --no-ledger: the same run with the ledger (and so the tideline) off, for comparison
  const tideline: Record<string, unknown> = {};
  if (values.percent !== undefined) tideline.percent = Number(values.percent);
  if (values.tokens !== undefined) tideline.tokens = Number(values.tokens);
  if (values.block !== undefined) tideline.block = /%$/.test(values.block) ? values.block : Number(values.block);
  if (values["no-elide"]) tideline.elide = false;
  else if (values["keep-steps"] !== undefined) tideline.elide = { keep_steps: Number(values["keep-steps"]) };
  const settings = Object.keys(tideline).length ? JSON.stringify(tideline) : "defaults";
  if (values["no-ledger"] || Object.keys(tideline).length) {
    fs.mkdirSync(path.join(project, ".oceancode"), { recursive: true });
    fs.writeFileSync(path.join(project, ".oceancode", "oceancode.json"), JSON.stringify({ ledger: values["no-ledger"] ? { enabled: false } : { tideline } }));
  }
  fs.writeFileSync(path.join(home, ".oceancode", "extensions", "bench-probe", "manifest.json"), JSON.stringify({ id: "bench-probe", version: "1.0.0", kernel: "^0.1.0", main: "index.js", requires: ["engine"], activation: ["onSession"] }));
  fs.writeFileSync(path.join(home, ".oceancode", "extensions", "bench-probe", "index.js"), PROBE);
  // one file per 100 steps' worth of distinct content; each step reads a different slice through bash
  const line = "0123456789abcdefghijklmnopqrstuvwxyz0123456789abcdefghijklmnopqrstuvwxyz\n"; // 73 bytes
  const linesPerStep = Math.ceil((kb * 1024) / (line.length + 8));
  const probeFile = path.join(tmp, "probe.jsonl");

  const fake = await startFakeAnthropic();
  let n = 0;
  let maxWindow = 0;
  let summaryCalls = 0;
  const pointers = new Set<string>();
  fake.respond((req) => {
    n++;
    const messages = JSON.stringify(req.body.messages);
    maxWindow = Math.max(maxWindow, Math.ceil((messages.length + JSON.stringify(req.body.system ?? "").length) / 4));
    const p = /past the tideline: every row up to seq (\d+)/.exec(messages);
    if (p) pointers.add(p[1]!);
    if (!req.body.tools?.length || /summari[sz]e the conversation/i.test(messages)) summaryCalls++;
    fake.requests.length = 0; // keep the bench's own memory flat
    if (n <= steps) return { text: `step ${n}`, toolCalls: [{ id: `toolu_${n}`, name: "bash", input: { command: `for i in $(seq 1 ${linesPerStep}); do echo "s${n}-$i ${line.trim()}"; done` } }] };
    return { text: "marathon done" };
  });

  const env = homeEnv(home, path.join(tmp, "managed.json"), {
    ANTHROPIC_API_KEY: "sk-bench",
    ANTHROPIC_BASE_URL: fake.url,
    OC_BENCH_PROBE: probeFile,
    OC_BENCH_CHECKPOINTS: checkpoints.join(","),
    // NODE_OPTIONS reaches the run (e.g. --max-semi-space-size=1 to try a V8 setting); MALLOC_ARENA_MAX likewise
    ...(process.env.NODE_OPTIONS ? { NODE_OPTIONS: process.env.NODE_OPTIONS } : {}),
    ...(process.env.MALLOC_ARENA_MAX ? { MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX } : {}),
    ...(process.env.OC_BENCH_HEAPSNAPSHOT ? { OC_BENCH_HEAPSNAPSHOT: process.env.OC_BENCH_HEAPSNAPSHOT } : {}),
  });
  let stderrTail = "";
  const started = performance.now();
  const code = await new Promise<number | null>((resolve) => {
    const child = spawn(process.execPath, [CLI, "-v", "run", "--auto", "--model", "anthropic/claude-sonnet-4-5", "run the marathon"], { cwd: project, env, stdio: ["ignore", "ignore", "pipe"] });
    let err = "";
    child.stderr.on("data", (d: Buffer) => (err = (err + d.toString()).slice(-20_000)));
    child.on("close", (c) => {
      stderrTail = err;
      if (c !== 0) process.stderr.write(err);
      resolve(c);
    });
  });
  const wall = (performance.now() - started) / 1000;
  const written = /ledger: ([\d.]+) MB written/.exec(stderrTail)?.[1];
  await fake.close();

  const probe = fs.readFileSync(probeFile, "utf8").trim().split("\n").map((l) => JSON.parse(l) as { step: number; overhead: number; rss: number; heap: number; gauge: number; mem?: NodeJS.MemoryUsage; smaps?: Record<string, number>; spaces?: Record<string, number> });
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
  const p = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) * q)] ?? 0;
  const first = probe.slice(1, 101).map((r) => r.overhead);
  const last = probe.slice(-100).map((r) => r.overhead);
  const rss = probe.map((r) => r.rss);
  const t = fake.totals;
  const prompt = t.input_tokens + t.cache_read_input_tokens + t.cache_creation_input_tokens;
  const ledger = path.join(home, ".local", "share", "oceancode", "session-ledger");
  const db = path.join(home, ".local", "share", "oceancode");
  const MB = 1024 * 1024;
  // an agent that compacts near the limit of a 200k model keeps ~100k+ in every request on average
  const compactingEstimate = steps * 100_000;
  // Anthropic's relative prices: uncached input 1, cache write 1.25, cache read 0.1
  const units = t.input_tokens + t.cache_creation_input_tokens * 1.25 + t.cache_read_input_tokens * 0.1;
  const recorded = steps === 200 && kb === 8 ? ` — Claude Code on 200 x 8 KB (issue 13's recorded figure): 2.62 M, ratio ${(units / CLAUDE_CODE_UNITS_200x8).toFixed(3)}` : "";
  const lines = [
    `marathon${values["no-ledger"] ? " (ledger off)" : ""}: ${fmt(steps)} steps x ${kb} KB tool output, anthropic/claude-sonnet-4-5 (200k) on the fake server at 0 ms; exit ${code}; ${wall.toFixed(1)} s wall`,
    `tideline settings: ${values["no-ledger"] ? "off" : settings}`,
    `engine overhead per step: first 100 mean ${mean(first).toFixed(2)} ms (p95 ${p(first, 0.95).toFixed(2)}), last 100 mean ${mean(last).toFixed(2)} ms (p95 ${p(last, 0.95).toFixed(2)})`,
    `rss: start ${(rss[0]! / MB).toFixed(0)} MB, end ${(rss.at(-1)! / MB).toFixed(0)} MB, peak ${(Math.max(...rss) / MB).toFixed(0)} MB; heap used start ${(probe[0]!.heap / MB).toFixed(0)} MB, end ${(probe.at(-1)!.heap / MB).toFixed(0)} MB`,
    `prompt tokens: total ${fmt(prompt)} (a compacting agent near the limit: ~${fmt(compactingEstimate)}); output ${fmt(t.output_tokens)}`,
    `peak window: ~${fmt(maxWindow)} tokens (request bytes / 4); peak gauge ${fmt(Math.max(...probe.map((r) => r.gauge)))}`,
    `cache reuse: ${(t.cache_read_input_tokens / Math.max(1, prompt)).toFixed(3)} of prompt tokens were a prefix of the previous request`,
    `cost units: ${(units / 1e6).toFixed(3)} M (input ${fmt(t.input_tokens)} x 1 + cache write ${fmt(t.cache_creation_input_tokens)} x 1.25 + cache read ${fmt(t.cache_read_input_tokens)} x 0.1)${recorded}`,
    `cuts: ${pointers.size}; requests ${fmt(n)}; summary calls ${summaryCalls}`,
    `ledger writes: ${written ?? "?"} MB written in all (atomic whole-file replaces, coalesced when steps outrun the writer; appends for the transcript rows)`,
    `on disk: ledger ${(du(ledger) / MB).toFixed(1)} MB, database ${(du(path.join(db, "oceancode.db")) + du(path.join(db, "oceancode.db-wal"))) / MB > 0 ? ((du(path.join(db, "oceancode.db")) + du(path.join(db, "oceancode.db-wal"))) / MB).toFixed(1) : "0.0"} MB`,
  ];
  // memory at each checkpoint: process.memoryUsage() and resident MB per kind of mapping (/proc/self/smaps)
  const marks = probe.filter((r) => r.mem);
  if (marks.length) {
    const mb = (n: number | undefined) => ((n ?? 0) / MB).toFixed(1).padStart(7);
    const kinds = [...new Set(marks.flatMap((r) => Object.keys(r.smaps ?? {})))];
    const top = kinds.filter((k) => marks.some((r) => (r.smaps![k] ?? 0) >= 1024)).sort((a, b) => (marks.at(-1)!.smaps![b] ?? 0) - (marks.at(-1)!.smaps![a] ?? 0));
    const other = (r: (typeof marks)[number]) => Object.entries(r.smaps ?? {}).filter(([k]) => !top.includes(k)).reduce((n, [, v]) => n + v, 0);
    lines.push(`memory (MB) at step:${marks.map((r) => String(r.step).padStart(7)).join("")}`);
    for (const k of ["rss", "heapTotal", "heapUsed", "external", "arrayBuffers"] as const) lines.push(`  ${k.padEnd(18)}${marks.map((r) => mb(r.mem![k])).join("")}`);
    for (const k of Object.keys(marks[0]!.spaces ?? {})) if (marks.some((r) => (r.spaces![k] ?? 0) >= MB)) lines.push(`    ${k.padEnd(16)}${marks.map((r) => mb(r.spaces![k])).join("")}`);
    if (top.length) lines.push(`  resident by mapping (/proc/self/smaps):`);
    for (const k of top) lines.push(`    ${k.slice(0, 40).padEnd(40)}${marks.map((r) => mb((r.smaps![k] ?? 0) * 1024)).join("")}`);
    if (top.length) lines.push(`    ${"(other, under 1 MB each)".padEnd(40)}${marks.map((r) => mb(other(r) * 1024)).join("")}`);
    const at = (s: number) => marks.find((r) => r.step === s)?.mem?.rss;
    const a = at(1000), b = at(10000);
    if (a && b) lines.push(`rss 1,000 -> 10,000: ${(a / MB).toFixed(0)} -> ${(b / MB).toFixed(0)} MB (${(((b - a) / a) * 100).toFixed(1)}%)`);
  }
  process.stdout.write(`${lines.join("\n")}\n`);
  if (process.env.OC_BENCH_HEAPSNAPSHOT) {
    for (const f of fs.readdirSync(tmp).filter((f) => f.endsWith(".heapsnapshot"))) fs.renameSync(path.join(tmp, f), path.join(process.cwd(), f.replace(/^probe\.jsonl\./, "marathon-")));
    process.stdout.write(`heap snapshots: ${process.cwd()}/marathon-<step>.heapsnapshot\n`);
  }
  fs.rmSync(tmp, { recursive: true, force: true });
}

main().catch((e: unknown) => {
  process.stderr.write(`bench/marathon: ${String(e)}\n`);
  process.exitCode = 1;
});

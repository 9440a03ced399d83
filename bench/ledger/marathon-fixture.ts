/**
 * The marathon fixture, shared by bench/ledger/marathon (figures) and bench/soak/soak (a judged long run): one
 * `oceancode run` of N steps, each a bash call printing `kb` KB of distinct lines, against the fake
 * Anthropic server at 0 ms, with a probe extension (user tier, plain ESM in the temp HOME) that writes
 * one JSON line per step from inside the run's process: step wall time, engine overhead (everything but
 * the provider call and the tool run), RSS, heap, the window gauge. The fake refuses a request past the
 * 200k model's window (a real provider would) and counts summary calls (a request offering no tools or
 * asking for a summary).
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { startFakeAnthropic, type AnthropicUsageFields } from "../../test/kit/fakes/anthropic-server.js";
import { homeEnv } from "../../test/kit/fakes/home-env.js";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
export const CLI = path.join(ROOT, "dist", "hosts", "cli", "main.js");

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
  h.contextBuild.tap({ name: "bench-probe", stage: "trace" }, (w) => { t0 = performance.now(); tool = 0; t2 = 0; return w; });
  h.modelRequest.tap({ name: "bench-probe", stage: "sent" }, (r) => { t1 = performance.now(); return r; });
  h.authorizeToolCall.tap({ name: "bench-probe", stage: "mode" }, () => { if (!t2) t2 = performance.now(); return undefined; });
  h.executeTool.tap({ name: "bench-probe", stage: "innermost" }, (next) => async (a) => { const s = performance.now(); try { return await next(a); } finally { tool += performance.now() - s; } });
  h.afterStep.tap({ name: "bench-probe", stage: "STAGE_ASK" }, (rec) => {
    const t3 = performance.now();
    const overhead = (t1 - t0) + (t2 ? t3 - t2 - tool : 0);
    const m = process.memoryUsage();
    const row = { step: rec.ctx.sessionStep, ms: rec.durationMs, overhead, rss: m.rss, heap: m.heapUsed, gauge: rec.gaugeTokens, session: rec.ctx.session.info.id };
    if (checkpoints.has(rec.ctx.sessionStep)) Object.assign(row, { mem: { ...m }, smaps: smaps(), spaces: Object.fromEntries(v8.getHeapSpaceStatistics().map((x) => [x.space_name, x.physical_space_size])) });
    if (snapshotAt.has(rec.ctx.sessionStep)) v8.writeHeapSnapshot(out + "." + rec.ctx.sessionStep + ".heapsnapshot");
    lines.push(JSON.stringify(row) + "\\n");
    if (lines.length >= 100) flush();
  });
  h.sessionEnd.tap({ name: "bench-probe" }, flush);
} };
`;

/** One step as the probe wrote it. */
export interface ProbeRow {
  step: number;
  /** the step's wall time (engine.afterStep durationMs) */
  ms: number;
  overhead: number;
  rss: number;
  heap: number;
  gauge: number;
  session: string;
  mem?: NodeJS.MemoryUsage;
  smaps?: Record<string, number>;
  spaces?: Record<string, number>;
}

export interface MarathonOptions {
  steps: number;
  kb: number;
  /** the project's .oceancode/oceancode.json, if any */
  projectConfig?: Record<string, unknown>;
  /** the user's ~/.oceancode/oceancode.json, if any */
  userConfig?: Record<string, unknown>;
  /** extra environment for the run (OC_*, OTEL_*) */
  env?: Record<string, string>;
  /** extra CLI arguments after `run` (e.g. --metrics-out <file>) */
  args?: string[];
  /** probe checkpoints (steps with a full memory record) */
  checkpoints?: number[];
}

export interface MarathonResult {
  code: number | null;
  wallSeconds: number;
  probe: ProbeRow[];
  stderrTail: string;
  requests: number;
  summaryCalls: number;
  /** requests the fake refused as past the model's window */
  refusals: number;
  maxWindow: number;
  cuts: number;
  totals: AnthropicUsageFields;
  tmp: string;
  home: string;
  project: string;
  /** the data dir (oceancode.db, session-ledger) */
  data: string;
}

const WINDOW = 200_000;

/** Run the marathon; the caller removes `tmp` when done with it. */
export async function runMarathon(o: MarathonOptions): Promise<MarathonResult> {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "oc-bench-marathon-"));
  const home = path.join(tmp, "home");
  const project = path.join(tmp, "project");
  fs.mkdirSync(path.join(home, ".oceancode", "extensions", "bench-probe"), { recursive: true });
  fs.mkdirSync(project, { recursive: true });
  if (o.projectConfig) {
    fs.mkdirSync(path.join(project, ".oceancode"), { recursive: true });
    fs.writeFileSync(path.join(project, ".oceancode", "oceancode.json"), JSON.stringify(o.projectConfig));
  }
  if (o.userConfig) fs.writeFileSync(path.join(home, ".oceancode", "oceancode.json"), JSON.stringify(o.userConfig));
  fs.writeFileSync(path.join(home, ".oceancode", "extensions", "bench-probe", "manifest.json"), JSON.stringify({ id: "bench-probe", version: "1.0.0", kernel: "^0.1.0", main: "index.js", requires: ["engine"], activation: ["onSession"] }));
  fs.writeFileSync(path.join(home, ".oceancode", "extensions", "bench-probe", "index.js"), PROBE);
  // each step reads a different slice of distinct lines through bash
  const line = "0123456789abcdefghijklmnopqrstuvwxyz0123456789abcdefghijklmnopqrstuvwxyz\n"; // 73 bytes
  const linesPerStep = Math.ceil((o.kb * 1024) / (line.length + 8));
  const probeFile = path.join(tmp, "probe.jsonl");

  const fake = await startFakeAnthropic();
  let n = 0;
  let maxWindow = 0;
  let summaryCalls = 0;
  let refusals = 0;
  const pointers = new Set<string>();
  fake.respond((req) => {
    n++;
    const messages = JSON.stringify(req.body.messages);
    const window = Math.ceil((messages.length + JSON.stringify(req.body.system ?? "").length) / 4);
    maxWindow = Math.max(maxWindow, window);
    const p = /past the tideline: every row up to seq (\d+)/.exec(messages);
    if (p) pointers.add(p[1]!);
    if (!req.body.tools?.length || /summari[sz]e the conversation/i.test(messages)) summaryCalls++;
    fake.requests.length = 0; // keep the bench's own memory flat
    if (window > WINDOW) {
      refusals++;
      return { type: "too_long", tokens: window, max: WINDOW };
    }
    if (n <= o.steps) return { text: `step ${n}`, toolCalls: [{ id: `toolu_${n}`, name: "bash", input: { command: `for i in $(seq 1 ${linesPerStep}); do echo "s${n}-$i ${line.trim()}"; done` } }] };
    return { text: "marathon done" };
  });

  const env = homeEnv(home, path.join(tmp, "managed.json"), {
    ANTHROPIC_API_KEY: "sk-bench",
    ANTHROPIC_BASE_URL: fake.url,
    OC_BENCH_PROBE: probeFile,
    OC_BENCH_CHECKPOINTS: (o.checkpoints ?? []).join(","),
    // NODE_OPTIONS reaches the run (e.g. --max-semi-space-size=1 to try a V8 setting); MALLOC_ARENA_MAX likewise
    ...(process.env.NODE_OPTIONS ? { NODE_OPTIONS: process.env.NODE_OPTIONS } : {}),
    ...(process.env.MALLOC_ARENA_MAX ? { MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX } : {}),
    ...(process.env.OC_BENCH_HEAPSNAPSHOT ? { OC_BENCH_HEAPSNAPSHOT: process.env.OC_BENCH_HEAPSNAPSHOT } : {}),
    ...o.env,
  });
  let stderrTail = "";
  const started = performance.now();
  const code = await new Promise<number | null>((resolve) => {
    const child = spawn(process.execPath, [CLI, "-v", "run", "--auto", "--model", "anthropic/claude-sonnet-4-5", ...(o.args ?? []), "run the marathon"], { cwd: project, env, stdio: ["ignore", "ignore", "pipe"] });
    let err = "";
    child.stderr.on("data", (d: Buffer) => (err = (err + d.toString()).slice(-20_000)));
    child.on("close", (c) => {
      stderrTail = err;
      if (c !== 0) process.stderr.write(err);
      resolve(c);
    });
  });
  const wallSeconds = (performance.now() - started) / 1000;
  await fake.close();
  const probe = fs.existsSync(probeFile) ? fs.readFileSync(probeFile, "utf8").trim().split("\n").filter(Boolean).map((l) => JSON.parse(l) as ProbeRow) : [];
  return { code, wallSeconds, probe, stderrTail, requests: n, summaryCalls, refusals, maxWindow, cuts: pointers.size, totals: fake.totals, tmp, home, project, data: path.join(home, ".local", "share", "oceancode") };
}

/** Bytes under a path (a file or a directory tree). */
export function du(p: string): number {
  if (!fs.existsSync(p)) return 0;
  const st = fs.statSync(p);
  if (!st.isDirectory()) return st.size;
  return fs.readdirSync(p).reduce((n, f) => n + du(path.join(p, f)), 0);
}

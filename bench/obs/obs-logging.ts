/**
 * bench/obs/obs-logging: what the structured logger costs.
 *
 *   npm run build && node dist/bench/obs/obs-logging.js [--calls 200000] [--steps 200]
 *
 * 1. Per log call, in process (the obs core as the kernel's sink calls it: redact, pino serialise, ring,
 *    and the file when the level passes), for a debug and an info line with two fields:
 *    off (no file: ring only), file at info, file at debug.
 * 2. Per step, a scripted marathon-like `oceancode run` (N steps of an in-process tool call, ls, so no
 *    sandbox spawn drowns the figure; the fake Anthropic server at 0 ms): the mean and p95 of the time
 *    between steps with the obs extension disabled, no log file, the file at info and the file at debug,
 *    and the lines and bytes each file took (OC_BENCH_ROUNDS interleaved rounds, default 3; medians). A user-tier probe extension takes the step times inside the run's own process.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { fileURLToPath } from "node:url";
import { LogCore } from "../../extensions/obs/logger.js";
import { RotatingFile } from "../../extensions/obs/rotate.js";
import { redactorFor } from "../../extensions/obs/redact.js";
import type { LogLevel } from "../../extensions/obs/api.js";
import { startFakeAnthropic } from "../../test/kit/fakes/anthropic-server.js";
import { homeEnv } from "../../test/kit/fakes/home-env.js";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
const CLI = path.join(ROOT, "dist", "hosts", "cli", "main.js");

const { values } = parseArgs({ options: { calls: { type: "string", default: "200000" }, steps: { type: "string", default: "200" } }, strict: true });
const calls = Number(values.calls);
const steps = Number(values.steps);
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "oc-bench-obs-"));

function perCall(file: LogLevel | "off", level: "debug" | "info"): number {
  const core = new LogCore({ redact: redactorFor(process.env), fileLevel: file === "off" ? "info" : file });
  if (file !== "off") core.file = new RotatingFile({ file: path.join(tmp, `calls-${file}-${level}.log`), rotateBytes: 10 * 1024 * 1024, keep: 2, onFailure: (m) => process.stderr.write(`${m}\n`) });
  const fields = { ext: "engine", tool: "bash", callId: "toolu_0123" };
  for (let i = 0; i < 2000; i++) core.write(level, `warm-up line ${i}`, fields);
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < calls; i++) core.write(level, `tool bash ok in ${i} ms`, fields);
  return Number(process.hrtime.bigint() - t0) / calls / 1000; // µs
}

const PROBE = `import fs from "node:fs";
export default { activate(ctx) {
  const h = ctx.services.get("engine").hooks;
  const out = [];
  let last = 0;
  h.afterStep.tap({ name: "obs-bench-probe", stage: "STAGE_ASK" }, () => { const t = performance.now(); if (last) out.push(t - last); last = t; });
  h.sessionEnd.tap({ name: "obs-bench-probe" }, () => fs.writeFileSync(process.env.OC_BENCH_PROBE, JSON.stringify(out)));
} };
`;

async function marathon(label: string, obs: Record<string, unknown> | undefined, config: Record<string, unknown> = {}): Promise<{ label: string; mean: number; p95: number; bytes: number; lines: number; code: number | null; wall: number }> {
  const dir = fs.mkdtempSync(path.join(tmp, "run-"));
  const home = path.join(dir, "home");
  const project = path.join(dir, "project");
  fs.mkdirSync(path.join(home, ".oceancode", "extensions", "obs-bench-probe"), { recursive: true });
  fs.mkdirSync(project, { recursive: true });
  fs.writeFileSync(path.join(home, ".oceancode", "extensions", "obs-bench-probe", "manifest.json"), JSON.stringify({ id: "obs-bench-probe", version: "1.0.0", kernel: "^0.1.0", main: "index.js", requires: ["engine"], activation: ["onSession"] }));
  fs.writeFileSync(path.join(home, ".oceancode", "extensions", "obs-bench-probe", "index.js"), PROBE);
  const log = path.join(dir, "oc.log");
  fs.mkdirSync(path.join(home, ".config", "oceancode"), { recursive: true });
  fs.writeFileSync(path.join(home, ".config", "oceancode", "oceancode.json"), JSON.stringify({ ...config, ...(obs ? { obs: { ...obs, log_file: log } } : {}) }));
  const fake = await startFakeAnthropic();
  for (let i = 0; i < 40; i++) fs.writeFileSync(path.join(project, `file-${i}.txt`), "x\n");
  let n = 0;
  fake.respond(() => {
    n++;
    fake.requests.length = 0;
    if (n <= steps) return { text: `step ${n}`, toolCalls: [{ id: `toolu_${n}`, name: "ls", input: {} }] };
    return { text: "done" };
  });
  const probe = path.join(dir, "probe.json");
  const env = homeEnv(home, path.join(dir, "managed.json"), { ANTHROPIC_API_KEY: "sk-bench", ANTHROPIC_BASE_URL: fake.url, OC_BENCH_PROBE: probe });
  const started = performance.now();
  const code = await new Promise<number | null>((resolve) => {
    const child = spawn(process.execPath, [CLI, "run", "--auto", "--model", "anthropic/claude-sonnet-4-5", "run the marathon"], { cwd: project, env, stdio: ["ignore", "ignore", "pipe"] });
    let err = "";
    child.stderr.on("data", (d: Buffer) => (err = (err + d.toString()).slice(-4000)));
    child.on("close", (c) => {
      if (c !== 0) process.stderr.write(err);
      resolve(c);
    });
  });
  const wall = (performance.now() - started) / 1000;
  await fake.close();
  const gaps = (JSON.parse(fs.readFileSync(probe, "utf8")) as number[]).slice(5); // past the warm-up
  const sorted = [...gaps].sort((a, b) => a - b);
  const text = fs.existsSync(log) ? fs.readFileSync(log, "utf8") : "";
  return { label, mean: gaps.reduce((a, b) => a + b, 0) / Math.max(1, gaps.length), p95: sorted[Math.floor((sorted.length - 1) * 0.95)] ?? 0, bytes: Buffer.byteLength(text), lines: text.split("\n").filter(Boolean).length, code, wall };
}

async function main(): Promise<void> {
  process.stdout.write(`obs-logging: per log call (${calls.toLocaleString("en-US")} calls each, two fields, redact + pino + ring; µs)\n`);
  for (const file of ["off", "info", "debug"] as const) {
    const d = perCall(file, "debug");
    const i = perCall(file, "info");
    process.stdout.write(`  file ${file.padEnd(5)}  debug line ${d.toFixed(2)} µs${file === "info" ? " (ring only)" : ""}   info line ${i.toFixed(2)} µs${file === "off" ? " (ring only)" : ""}\n`);
  }
  process.stdout.write(`obs-logging: per step, ${steps} steps of an ls call through oceancode run (fake server at 0 ms; time between steps, past the first 5)\n`);
  const runs = [];
  const variants: Array<[string, Record<string, unknown> | undefined, Record<string, unknown>?]> = [
    ["obs disabled", undefined, { extensions: { disabled: ["obs"] } }],
    ["no file", undefined],
    ["file at info", { log_level: "info" }],
    ["file at debug", { log_level: "debug" }],
  ];
  // interleaved rounds, the median per variant: a busy machine's drift lands on every variant alike
  const rounds = Number(process.env.OC_BENCH_ROUNDS ?? "3");
  for (let round = 0; round < rounds; round++) for (const [label, obs, config] of variants) runs.push(await marathon(label, obs, config));
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)] ?? 0;
  for (const [label] of variants) {
    const rs = runs.filter((r) => r.label === label);
    process.stdout.write(`  ${label.padEnd(13)} median of ${rs.length} runs: mean ${median(rs.map((r) => r.mean)).toFixed(2)} ms/step  p95 ${median(rs.map((r) => r.p95)).toFixed(2)} ms  log ${rs[0]!.lines} lines ${(rs[0]!.bytes / 1024).toFixed(1)} KB  exit ${rs.map((r) => r.code).join(",")}\n`);
  }
  fs.rmSync(tmp, { recursive: true, force: true });
}

await main();

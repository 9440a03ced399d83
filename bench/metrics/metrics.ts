/**
 * bench/metrics/metrics: what metrics cost per step. One long scripted session (a no-op tool with ~2 KB of output each
 * step, so the window grows as in real work) through the real kernel and every bundled extension, with
 * metrics off (the default of a run) and on (metrics.enabled as a host setting, as `--metrics-out` sets
 * metrics.out), alternated over --repeats rounds. Prints the median step time over the first and the last
 * 20 steps for each, the difference on - off, the recorder's own cost per step (the calls the engine taps
 * make for one step with one tool call, timed alone in a loop), and one scrape (text()) at the end: its time
 * and size, which stay flat however long the session ran (the series are per label set, never per step).
 *
 *   npm run build && node dist/bench/metrics/metrics.js [--steps 200] [--repeats 3]
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { fileURLToPath } from "node:url";
import { Kernel, stderrLogger } from "../../kernel/kernel.js";
import { resolvePaths } from "../../kernel/paths.js";
import { createMetrics } from "../../extensions/metrics/prom-metrics.js";

const PACKAGE_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..", "..");

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

interface Run {
  first: number;
  last: number;
  all: number;
  scrapeMs?: number;
  scrapeBytes?: number;
  /** oceancode_steps_total in that scrape: proof the taps ran */
  counted?: number;
}

async function session(steps: number, on: boolean): Promise<Run> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "oc-bench-metrics-"));
  const home = path.join(root, "home");
  const project = path.join(root, "project");
  fs.mkdirSync(home, { recursive: true });
  fs.mkdirSync(project, { recursive: true });
  const payload = "x".repeat(2000);
  fs.writeFileSync(path.join(project, "bench.json"), JSON.stringify({ context_window: 200000, steps: [{ repeat: steps, text: "step {{n}}", chunks: 1, tool_calls: [{ name: "noop", input: { n: "{{n}}" } }] }], after: { text: "done" } }));
  const env = { ...process.env, HOME: home, XDG_DATA_HOME: path.join(home, "data"), XDG_CONFIG_HOME: path.join(home, "config"), OC_MAX_STEPS: String(steps + 10), OC_MANAGED_CONFIG: path.join(root, "managed.json") };
  const kernel = await Kernel.discover({
    paths: resolvePaths({ home, project, env }),
    env,
    log: stderrLogger(false),
    bundled: { dir: PACKAGE_ROOT, codeDir: path.join(PACKAGE_ROOT, "dist") },
    hostSettings: on ? [{ key: "metrics.enabled", value: true, flag: "bench" }] : [],
  });
  await kernel.activate("onSession");
  const engine = await kernel.service("engine");
  engine.tools.register({ name: "noop", description: "returns a fixed payload", kind: "other", inputSchema: { type: "object" }, run: async () => ({ content: payload }) });
  const s = await engine.createSession({ cwd: project, model: "scripted/bench.json" });
  const times: number[] = [];
  let last = performance.now();
  await engine.prompt(s, "go", {
    onEvent: (e) => {
      if (e.type !== "step_end") return;
      const now = performance.now();
      times.push(now - last);
      last = now;
    },
  });
  const out: Run = { first: median(times.slice(1, 21)), last: median(times.slice(-21, -1)), all: median(times.slice(1, -1)) };
  if (on) {
    const metrics = await kernel.service("metrics");
    await metrics.text(); // warm
    const t0 = performance.now();
    const text = await metrics.text();
    out.scrapeMs = performance.now() - t0;
    out.scrapeBytes = Buffer.byteLength(text);
    out.counted = Number(/^oceancode_steps_total (\d+)$/m.exec(text)?.[1] ?? NaN);
  }
  await engine.closeSession(s, "exit");
  await kernel.shutdown();
  fs.rmSync(root, { recursive: true, force: true });
  return out;
}

/** The recorder calls of one step with one allowed tool call, alone: µs per step. */
function recorderCost(n: number): number {
  const m = createMetrics({ writer: () => undefined, serve: () => undefined, hookErrors: () => new Map(), mcp: () => undefined, openSessions: () => 0 });
  const r = m.record;
  const step = () => {
    r.permission("allow", "allow", undefined);
    r.toolCall("noop", "ok", 0.0004);
    r.modelCall("scripted", "ok", 0.002, 0.001);
    r.tokens("scripted", 1200, 20, 1100, 0);
    r.cost("scripted", 0);
    r.step(3);
  };
  for (let i = 0; i < 10_000; i++) step();
  const t0 = performance.now();
  for (let i = 0; i < n; i++) step();
  return ((performance.now() - t0) * 1000) / n;
}

const { values } = parseArgs({ options: { steps: { type: "string", default: "200" }, repeats: { type: "string", default: "3" } } });
const steps = Number(values.steps);
const repeats = Number(values.repeats);
const off: Run[] = [];
const on: Run[] = [];
for (let i = 0; i < repeats; i++) {
  off.push(await session(steps, false));
  on.push(await session(steps, true));
}
const col = (rs: Run[], k: "first" | "last" | "all") => median(rs.map((r) => r[k]));
const ms = (x: number) => `${x.toFixed(3)} ms`;
console.log(`metrics bench: ${steps} scripted steps (no-op tool, ~2 KB output each), ${repeats} rounds, medians`);
console.log(`  off: step first 20 ${ms(col(off, "first"))}  last 20 ${ms(col(off, "last"))}  all ${ms(col(off, "all"))}`);
console.log(`  on:  step first 20 ${ms(col(on, "first"))}  last 20 ${ms(col(on, "last"))}  all ${ms(col(on, "all"))}`);
console.log(`  on - off per step: ${ms(col(on, "all") - col(off, "all"))} (all steps; noise on a busy machine is larger than this)`);
console.log(`  recorder alone: ${recorderCost(200_000).toFixed(2)} µs per step (one tool call, one model call, tokens, cost, permission)`);
console.log(`  one scrape after ${steps} steps: ${ms(median(on.map((r) => r.scrapeMs!)))}, ${median(on.map((r) => r.scrapeBytes!))} bytes, oceancode_steps_total ${on[0]!.counted}`);

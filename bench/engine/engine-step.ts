/**
 * Engine overhead per step, at the start and the end of one long session, through the real kernel with
 * every bundled extension (storage, ledger, tideline, ... when present) and the scripted model at 0 ms.
 * Each step calls a no-op tool with ~2 KB of output, so the window grows as in real work.
 *
 *   node dist/bench/engine/engine-step.js [steps=1000] [scripted|anthropic]
 *
 * `anthropic` runs the real provider extension and SDK against the fake Anthropic server (test/kit/fakes) on
 * 127.0.0.1 at 0 ms latency. Prints, over steps 1-10 and the last 10: step time, and engine overhead =
 * step time minus the provider's time (request built -> last event) and the tool's; peak RSS.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Kernel, stderrLogger } from "../../kernel/kernel.js";
import { resolvePaths } from "../../kernel/paths.js";
import { startFakeAnthropic, type FakeAnthropicServer } from "../../test/kit/fakes/anthropic-server.js";

const PACKAGE_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..", "..");

type Mode = "scripted" | "anthropic";
interface Stats {
  median: number;
  p90: number;
}

function stats(xs: number[]): Stats {
  const s = [...xs].sort((a, b) => a - b);
  return { median: s[Math.floor(s.length / 2)]!, p90: s[Math.floor(s.length * 0.9)]! };
}

export interface EngineBench {
  step: { first: Stats; last: Stats };
  overhead: { first: Stats; last: Stats };
  peakRssMb: number;
}

export async function benchEngine(steps: number, mode: Mode = "scripted"): Promise<EngineBench> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "oc-bench-"));
  const home = path.join(root, "home");
  const project = path.join(root, "project");
  fs.mkdirSync(home, { recursive: true });
  fs.mkdirSync(project, { recursive: true });
  const payload = "x".repeat(2000);
  fs.writeFileSync(
    path.join(project, "bench.json"),
    JSON.stringify({ context_window: 200000, steps: [{ repeat: steps, text: "step {{n}}", chunks: 1, tool_calls: [{ name: "noop", input: { n: "{{n}}" } }] }], after: { text: "done" } }),
  );
  let fake: FakeAnthropicServer | undefined;
  if (mode === "anthropic") {
    fake = await startFakeAnthropic({ keep: 2 });
    let served = 0;
    fake.respond(() => (++served <= steps ? { text: `step ${served}`, toolCalls: [{ name: "noop", input: { n: served } }] } : { text: "done" }));
  }
  const env = { ...process.env, ANTHROPIC_BASE_URL: fake?.url, ANTHROPIC_API_KEY: "bench", HOME: home, XDG_DATA_HOME: path.join(home, "data"), XDG_CONFIG_HOME: path.join(home, "config"), OC_MAX_STEPS: String(steps + 10), OC_MANAGED_CONFIG: path.join(root, "managed.json") };
  const kernel = await Kernel.discover({
    paths: resolvePaths({ home, project, env }),
    env,
    log: stderrLogger(false),
    bundled: { dir: PACKAGE_ROOT, codeDir: path.join(PACKAGE_ROOT, "dist") },
  });
  await kernel.activate("onSession");
  const engine = await kernel.service("engine");
  engine.tools.register({ name: "noop", description: "returns a fixed payload", kind: "other", inputSchema: { type: "object" }, run: async () => ({ content: payload }) });
  const session = await engine.createSession({ cwd: project, model: mode === "anthropic" ? "anthropic/claude-sonnet-4-5" : "scripted/bench.json" });
  const times: number[] = [];
  const overheads: number[] = [];
  let last = performance.now();
  let requestBuilt = 0;
  let providerDone = 0;
  let toolStart = 0;
  let toolTime = 0;
  // the last modelRequest tap: the request is final; the provider's time runs from here
  engine.hooks.modelRequest.tap({ name: "bench", stage: "sent" }, (req) => {
    requestBuilt = performance.now();
    return req;
  });
  let peak = process.memoryUsage().rss;
  await engine.prompt(session, "go", {
    onEvent: (e) => {
      const now = performance.now();
      if (e.type === "tool_call_start") {
        providerDone = now;
        toolStart = now;
      } else if (e.type === "tool_call_end") toolTime = now - toolStart;
      else if (e.type === "step_end") {
        times.push(now - last);
        overheads.push(now - last - (providerDone - requestBuilt) - toolTime);
        last = now;
        if (times.length % 50 === 0) peak = Math.max(peak, process.memoryUsage().rss);
      }
    },
  });
  peak = Math.max(peak, process.memoryUsage().rss);
  await kernel.shutdown();
  await fake?.close();
  fs.rmSync(root, { recursive: true, force: true });
  const t = times.slice(0, -1); // the final no-tool step
  const o = overheads.slice(0, -1);
  return {
    step: { first: stats(t.slice(0, 10)), last: stats(t.slice(-10)) },
    overhead: { first: stats(o.slice(0, 10)), last: stats(o.slice(-10)) },
    peakRssMb: peak / 1024 / 1024,
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const steps = Number(process.argv[2] ?? 1000);
  const mode = (process.argv[3] ?? "scripted") as Mode;
  const r = await benchEngine(steps, mode);
  const f = (x: Stats) => `median ${x.median.toFixed(2)} ms  p90 ${x.p90.toFixed(2)} ms`;
  console.log(`engine-step ${mode} steps=${steps}`);
  console.log(`  step time        steps 1-10: ${f(r.step.first)}   last 10: ${f(r.step.last)}`);
  console.log(`  engine overhead  steps 1-10: ${f(r.overhead.first)}   last 10: ${f(r.overhead.last)}`);
  console.log(`  overhead growth: x${(r.overhead.last.median / Math.max(r.overhead.first.median, 0.001)).toFixed(2)} (median last/first)`);
  console.log(`  peak RSS:        ${r.peakRssMb.toFixed(1)} MB`);
}

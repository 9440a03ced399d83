/**
 * Engine overhead per step, at the start and the end of one long session, through the real kernel with
 * every bundled extension (storage, ledger, tideline, ... when present) and the scripted model at 0 ms.
 * Each step calls a no-op tool with ~2 KB of output, so the window grows as in real work.
 *
 *   node dist/bench/engine-step.js [steps=1000]
 *
 * Prints median and p90 ms per step over steps 1-10 and the last 10, peak RSS, and the ratio.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Kernel, stderrLogger } from "../kernel/kernel.js";
import { resolvePaths } from "../kernel/paths.js";
import type { EngineService } from "../extensions/engine/api.js";

const PACKAGE_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");

function stats(xs: number[]): { median: number; p90: number } {
  const s = [...xs].sort((a, b) => a - b);
  return { median: s[Math.floor(s.length / 2)]!, p90: s[Math.floor(s.length * 0.9)]! };
}

export async function benchEngine(steps: number): Promise<{ first: { median: number; p90: number }; last: { median: number; p90: number }; peakRssMb: number }> {
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
  const env = { ...process.env, HOME: home, XDG_DATA_HOME: path.join(home, "data"), XDG_CONFIG_HOME: path.join(home, "config"), OC_MAX_STEPS: String(steps + 10), OC_MANAGED_CONFIG: path.join(root, "managed.json") };
  const kernel = await Kernel.discover({
    paths: resolvePaths({ home, project, env }),
    env,
    log: stderrLogger(false),
    bundled: { dir: PACKAGE_ROOT, codeDir: path.join(PACKAGE_ROOT, "dist") },
  });
  await kernel.activate("onSession");
  const engine = await kernel.service<EngineService>("engine");
  engine.tools.register({ name: "noop", description: "returns a fixed payload", kind: "other", inputSchema: { type: "object" }, run: async () => ({ content: payload }) });
  const session = await engine.createSession({ cwd: project, model: "scripted/bench.json" });
  const times: number[] = [];
  let last = performance.now();
  let peak = process.memoryUsage().rss;
  await engine.prompt(session, "go", {
    onEvent: (e) => {
      if (e.type === "step_end") {
        const now = performance.now();
        times.push(now - last);
        last = now;
        if (times.length % 50 === 0) peak = Math.max(peak, process.memoryUsage().rss);
      }
    },
  });
  peak = Math.max(peak, process.memoryUsage().rss);
  await kernel.shutdown();
  fs.rmSync(root, { recursive: true, force: true });
  const tools = times.slice(0, -1); // the final no-tool step
  return { first: stats(tools.slice(0, 10)), last: stats(tools.slice(-10)), peakRssMb: peak / 1024 / 1024 };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const steps = Number(process.argv[2] ?? 1000);
  const r = await benchEngine(steps);
  console.log(`engine-step scripted steps=${steps}`);
  console.log(`  steps 1-10:   median ${r.first.median.toFixed(2)} ms  p90 ${r.first.p90.toFixed(2)} ms`);
  console.log(`  last 10:      median ${r.last.median.toFixed(2)} ms  p90 ${r.last.p90.toFixed(2)} ms`);
  console.log(`  growth:       x${(r.last.median / r.first.median).toFixed(2)} (median last/first)`);
  console.log(`  peak RSS:     ${r.peakRssMb.toFixed(1)} MB`);
}

/**
 * Workflows: the cost of the QuickJS boundary and of a run.
 *  - per host call: a script awaiting api.budget() N times in one sandbox (in process), µs per call
 *  - run start-up: `oceancode workflow run ./noop.mjs` to exit, against `node -e 0`
 *  - a 20-step pipeline (`workflow run pipeline`, one process, one resumed session) against 20 plain
 *    `oceancode run -c` calls, both on the scripted model (offline, no provider latency)
 *
 *   node dist/bench/workflows/workflows.js [--runs <n>] [--calls <n>]
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { runScript } from "../../extensions/workflows/sandbox.js";

const CLI = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..", "hosts", "cli", "main.js");
const { values } = parseArgs({ options: { runs: { type: "string", default: "5" }, calls: { type: "string", default: "20000" } } });
const RUNS = Number(values.runs);
const CALLS = Number(values.calls);

const root = fs.mkdtempSync(path.join(os.tmpdir(), "oc-bench-wf-"));
const home = path.join(root, "home");
const project = path.join(root, "project");
fs.mkdirSync(home, { recursive: true });
fs.mkdirSync(project, { recursive: true });
spawnSync("git", ["init", "-q", project]);
const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: home, XDG_CONFIG_HOME: path.join(home, ".config"), XDG_DATA_HOME: path.join(home, ".local", "share"), XDG_STATE_HOME: path.join(home, ".local", "state"), NO_COLOR: "1" };

function timed(cmd: string, args: string[]): number {
  const t0 = performance.now();
  const r = spawnSync(cmd, args, { cwd: project, env, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(" ")}: exit ${r.status}\n${r.stderr}`);
  return performance.now() - t0;
}
function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

// 1. the boundary
{
  const src = `export default async function main(api) { for (let i = 0; i < ${CALLS}; i++) await api.budget(); return 1; }`;
  const ops = { budget: async () => ({ limit: null, spent: 0, remaining: null }) };
  const t0 = performance.now();
  await runScript(src, "calls.mjs", { args: null, ops, halted: () => false, onHalt: new Promise(() => undefined) });
  const ms = performance.now() - t0;
  const t1 = performance.now();
  await runScript("export default async function main() { return 1; }", "empty.mjs", { args: null, ops, halted: () => false, onHalt: new Promise(() => undefined) });
  const empty = performance.now() - t1;
  console.log(`host call across the QuickJS boundary: ${(((ms - empty) * 1000) / CALLS).toFixed(1)} µs per call (${CALLS} calls, ${ms.toFixed(0)} ms; an empty sandbox run ${empty.toFixed(1)} ms)`);
}

// 2. start-up
{
  fs.writeFileSync(path.join(project, "noop.mjs"), 'export const meta = { name: "noop" };\nexport default async function main() { return 1; }\n');
  timed(process.execPath, [CLI, "workflow", "run", "./noop.mjs"]);
  const node = median(Array.from({ length: RUNS }, () => timed(process.execPath, ["-e", "0"])));
  const wf = median(Array.from({ length: RUNS }, () => timed(process.execPath, [CLI, "workflow", "run", "./noop.mjs"])));
  console.log(`run start-up (workflow run ./noop.mjs to exit): ${wf.toFixed(0)} ms median of ${RUNS} (node -e 0: ${node.toFixed(0)} ms)`);
}

// 3. a 20-step pipeline against 20 `run -c`
{
  const steps = Array.from({ length: 20 }, (_, i) => ({ prompt: `step ${i + 1}` }));
  const pipe = median(Array.from({ length: Math.max(1, Math.min(RUNS, 3)) }, () => timed(process.execPath, [CLI, "workflow", "run", "pipeline", "-m", "scripted/echo", "--args", JSON.stringify({ steps })])));
  const plain = median(
    Array.from({ length: Math.max(1, Math.min(RUNS, 3)) }, () => {
      let ms = timed(process.execPath, [CLI, "run", "-m", "scripted/echo", "step 1"]);
      for (let i = 2; i <= 20; i++) ms += timed(process.execPath, [CLI, "run", "-c", "-m", "scripted/echo", `step ${i}`]);
      return ms;
    }),
  );
  console.log(`20-step pipeline: ${pipe.toFixed(0)} ms; 20 run -c calls: ${plain.toFixed(0)} ms (${(plain / pipe).toFixed(1)}x)`);
}
fs.rmSync(root, { recursive: true, force: true });

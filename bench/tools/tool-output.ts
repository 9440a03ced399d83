/**
 * Bounded tool output (issue 27, item 9): an `oceancode run` whose scripted model makes one bash call
 * printing 1, 100 and 400 MB (`yes | head -c N`), each in a fresh throwaway HOME. Per size: wall time of the
 * run, the CLI's own peak RSS (ru_maxrss at exit, through a --require preload), the spill file's size and
 * everything oceancode stored (data dir). A run printing nothing is the baseline.
 * Run: node dist/bench/tools/tool-output.js [--sizes 1,100,400] [--runs 1]
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { homeEnv } from "../../test/kit/fakes/home-env.js";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
const CLI = path.join(ROOT, "dist", "hosts", "cli", "main.js");
const { values } = parseArgs({ options: { sizes: { type: "string", default: "1,100,400" }, runs: { type: "string", default: "1" } } });
const SIZES = values.sizes.split(",").map(Number);
const RUNS = Math.max(1, Number(values.runs));
const MB = 1_000_000;

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "oc-bench-output-"));
const preload = path.join(tmp, "peak.cjs");
fs.writeFileSync(preload, 'process.on("exit", () => { if (process.env.OC_PEAK_FILE) require("fs").writeFileSync(process.env.OC_PEAK_FILE, String(process.resourceUsage().maxRSS)); });\n');

function dirBytes(dir: string): number {
  if (!fs.existsSync(dir)) return 0;
  let n = 0;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    n += e.isDirectory() ? dirBytes(p) : fs.statSync(p).size;
  }
  return n;
}

function once(label: string, command: string): { ms: number; peakMiB: number; spill: number; stored: number } {
  const root = fs.mkdtempSync(path.join(tmp, `${label}-`));
  const home = path.join(root, "home");
  const project = path.join(root, "project");
  fs.mkdirSync(home, { recursive: true });
  fs.mkdirSync(project, { recursive: true });
  fs.writeFileSync(path.join(project, "s.json"), JSON.stringify({ steps: [{ tool_calls: [{ name: "bash", input: { command, timeout: 600000 } }] }, { text: "done" }] }));
  const peakFile = path.join(root, "peak.txt");
  const env = { ...homeEnv(home, path.join(root, "managed.json")), NODE_OPTIONS: `--require ${preload}`, OC_PEAK_FILE: peakFile };
  const t0 = performance.now();
  const r = spawnSync(process.execPath, [CLI, "run", "--auto", "--model", "scripted/s.json", "go"], { cwd: project, env, encoding: "utf8", maxBuffer: 1 << 26 });
  const ms = performance.now() - t0;
  if (r.status !== 0) throw new Error(`${label}: run failed (${r.status}): ${r.stderr}`);
  const data = path.join(home, ".local", "share", "oceancode");
  const spillDir = path.join(data, "tool-output");
  const spill = fs.existsSync(spillDir) ? dirBytes(spillDir) : 0;
  const out = { ms, peakMiB: Number(fs.readFileSync(peakFile, "utf8")) / 1024, spill, stored: dirBytes(data) };
  fs.rmSync(root, { recursive: true, force: true });
  return out;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const mib = (b: number) => (b / 1024 / 1024).toFixed(2);

console.log(`node ${process.version} · ${os.cpus()[0]?.model ?? "?"} · load ${os.loadavg()[0]!.toFixed(2)} on ${os.cpus().length} CPUs · ${RUNS} run(s) per case`);
console.log("output      wall ms   peak RSS MiB   spill MiB   stored MiB");
const cases: Array<[string, string]> = [["0 (echo)", "echo hi"], ...SIZES.map((s): [string, string] => [`${s} MB`, `yes | head -c ${s * MB}`])];
for (const [label, command] of cases) {
  const rs = Array.from({ length: RUNS }, () => once(label.replace(/\W+/g, "_"), command));
  const m = (k: "ms" | "peakMiB" | "spill" | "stored") => median(rs.map((x) => x[k]));
  console.log(`${label.padEnd(10)} ${m("ms").toFixed(0).padStart(7)}   ${m("peakMiB").toFixed(0).padStart(12)}   ${mib(m("spill")).padStart(9)}   ${mib(m("stored")).padStart(10)}`);
}
fs.rmSync(tmp, { recursive: true, force: true });

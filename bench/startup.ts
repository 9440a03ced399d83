/**
 * Start-up time: `node -e 0` against `oceancode --version` and `oceancode --help` on this machine.
 * Each command runs RUNS times (after one warm-up), in an empty temp HOME and project so no user
 * config or extension is read. Prints median and p90 per command, then the ratios to bare node.
 *
 *   node dist/bench/startup.js [--runs <n>]
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const CLI = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "hosts", "cli", "main.js");

function quantile(sorted: number[], q: number): number {
  const i = Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1);
  return sorted[Math.max(0, i)]!;
}

function runOnce(args: string[], env: NodeJS.ProcessEnv, cwd: string): number {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, args, { env, cwd, stdio: ["ignore", "ignore", "pipe"] });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.status !== 0) throw new Error(`node ${args.join(" ")} exited ${r.status}: ${r.stderr.toString().trim()}`);
  return ms;
}

/** Round-robin over the cases so a load spike on the machine hits every case alike. */
function timeAll(cases: Array<[string, string[]]>, env: NodeJS.ProcessEnv, cwd: string, runs: number): Map<string, { median: number; p90: number }> {
  for (const [, args] of cases) runOnce(args, env, cwd); // warm the file cache
  const samples = new Map<string, number[]>(cases.map(([n]) => [n, []]));
  for (let i = 0; i < runs; i++) for (const [name, args] of cases) samples.get(name)!.push(runOnce(args, env, cwd));
  const out = new Map<string, { median: number; p90: number }>();
  for (const [name, xs] of samples) {
    xs.sort((a, b) => a - b);
    out.set(name, { median: quantile(xs, 0.5), p90: quantile(xs, 0.9) });
  }
  return out;
}

function main(): void {
  const { values } = parseArgs({ options: { runs: { type: "string", default: "20" } }, strict: true });
  const runs = Number(values.runs);
  if (!Number.isInteger(runs) || runs < 1) {
    process.stderr.write("usage: node dist/bench/startup.js [--runs <n>]\n");
    process.exitCode = 2;
    return;
  }
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "oc-bench-startup-"));
  const home = path.join(root, "home");
  const project = path.join(root, "project");
  fs.mkdirSync(home);
  fs.mkdirSync(project);
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: home, OC_MANAGED_CONFIG: path.join(root, "managed.json") };
  try {
    const cases: Array<[string, string[]]> = [
      ["node -e 0", ["-e", "0"]],
      ["oceancode --version", [CLI, "--version"]],
      ["oceancode --help", [CLI, "--help"]],
    ];
    process.stdout.write(`startup bench: ${runs} runs each (interleaved), node ${process.version}, ${os.cpus()[0]?.model ?? "cpu"}, load ${os.loadavg()[0]!.toFixed(1)}\n`);
    const results = timeAll(cases, env, project, runs);
    for (const [name, r] of results) {
      process.stdout.write(`${name.padEnd(22)} median ${r.median.toFixed(1).padStart(7)} ms   p90 ${r.p90.toFixed(1).padStart(7)} ms\n`);
    }
    const base = results.get("node -e 0")!.median;
    const ratio = (n: string) => results.get(n)!.median / base;
    process.stdout.write(`ratio --version / node: ${ratio("oceancode --version").toFixed(2)}x\n`);
    process.stdout.write(`ratio --help / node:    ${ratio("oceancode --help").toFixed(2)}x (goal < 2x)\n`);
    process.stdout.write(ratio("oceancode --help") < 2 ? "STARTUP_OK\n" : "STARTUP_SLOW\n");
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

main();

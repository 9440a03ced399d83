/**
 * The test suite on a busy machine (issue 28): `vitest run` of this checkout once on an idle machine and
 * once with a CPU hog on every core (one bounded `yes > /dev/null` per CPU, killed when the run ends),
 * each to its end: wall time, tests passed / failed, and the files that failed. Build first (npm run build);
 * run it in a fresh clone so nothing of an earlier run is reused.
 * Run: node dist/bench/suite/suite-load.js [--only idle|hog] [--hogs N]
 */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
const { values } = parseArgs({ options: { only: { type: "string" }, hogs: { type: "string" } } });
const hogCount = Number(values.hogs ?? os.availableParallelism());
// a bound on every wait: the suite itself has one (CI's 15 minutes), the bench has a looser one
const SUITE_BOUND_MS = 40 * 60_000;

interface Outcome {
  label: string;
  wallS: number;
  passed: number;
  failed: number;
  failedFiles: string[];
  load1: number;
}

function suite(label: string): Promise<Outcome> {
  const out = path.join(os.tmpdir(), `oc-suite-${label}-${process.pid}.json`);
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(ROOT, "node_modules", "vitest", "vitest.mjs"), "run", "--reporter=json", `--outputFile=${out}`], {
      cwd: ROOT,
      stdio: ["ignore", "ignore", "ignore"],
    });
    const load1 = { max: 0 };
    const sampler = setInterval(() => (load1.max = Math.max(load1.max, os.loadavg()[0]!)), 5_000);
    const bound = setTimeout(() => child.kill("SIGKILL"), SUITE_BOUND_MS);
    child.on("error", reject);
    child.on("exit", () => {
      clearInterval(sampler);
      clearTimeout(bound);
      const wallS = (Date.now() - started) / 1000;
      try {
        const r = JSON.parse(fs.readFileSync(out, "utf8")) as { numPassedTests: number; numFailedTests: number; testResults: Array<{ name: string; status: string }> };
        fs.rmSync(out, { force: true });
        const failedFiles = r.testResults.filter((f) => f.status !== "passed").map((f) => path.relative(ROOT, f.name));
        resolve({ label, wallS, passed: r.numPassedTests, failed: r.numFailedTests, failedFiles, load1: load1.max });
      } catch (e) {
        reject(new Error(`${label}: vitest left no report (${e instanceof Error ? e.message : String(e)})`));
      }
    });
  });
}

function startHogs(n: number): ChildProcess[] {
  // bounded: `timeout` ends each even if this process dies first
  return Array.from({ length: n }, () => spawn("timeout", [String(SUITE_BOUND_MS / 1000), "sh", "-c", "yes > /dev/null"], { stdio: "ignore", detached: true }));
}

function stopHogs(hogs: ChildProcess[]): void {
  for (const h of hogs) {
    try {
      process.kill(-h.pid!, "SIGKILL");
    } catch {
      // already gone
    }
  }
}

async function main(): Promise<void> {
  const results: Outcome[] = [];
  if (values.only !== "hog") results.push(await suite("idle"));
  if (values.only !== "idle") {
    const hogs = startHogs(hogCount);
    try {
      results.push(await suite(`hog x${hogCount}`));
    } finally {
      stopHogs(hogs);
    }
  }
  console.log(`cpus ${os.availableParallelism()}`);
  console.log("| run | wall | tests passed | failed | peak load (1 min) | files failed |");
  console.log("| --- | --- | --- | --- | --- | --- |");
  for (const r of results) console.log(`| ${r.label} | ${r.wallS.toFixed(0)} s | ${r.passed} | ${r.failed} | ${r.load1.toFixed(1)} | ${r.failedFiles.join(", ") || "none"} |`);
  const idle = results.find((r) => r.label === "idle");
  const hog = results.find((r) => r.label !== "idle");
  if (idle && hog) console.log(`hog / idle wall: ${(hog.wallS / idle.wallS).toFixed(2)}x`);
}

await main();

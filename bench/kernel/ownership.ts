/**
 * The cost of the fail-closed trust check (kernel/ownership.ts): one `projectOwnership` call for the
 * project's .oceancode/ folder and its two config files, as discovery makes it at every start, in a real
 * checkout of --files tracked files (git's one `ls-files`, spawned with kernel/git.ts's pins), and the
 * same in a folder with no .git (no git spawn). Prints p50/p99 in ms.
 * Run: node dist/bench/kernel/ownership.js [--runs 50] [--files 2000]
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { projectOwnership } from "../../kernel/ownership.js";

const { values } = parseArgs({ options: { runs: { type: "string", default: "50" }, files: { type: "string", default: "2000" } } });
const RUNS = Number(values.runs);
const FILES = Number(values.files);
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))]!;

function project(withGit: boolean): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "oc-bench-own-"));
  for (let i = 0; i < FILES; i++) {
    const f = path.join(dir, "src", `d${i % 50}`, `f${i}.ts`);
    fs.mkdirSync(path.dirname(f), { recursive: true });
    fs.writeFileSync(f, `export const x${i} = ${i};\n`);
  }
  fs.mkdirSync(path.join(dir, ".oceancode"));
  fs.writeFileSync(path.join(dir, ".oceancode", "oceancode.json"), "{}\n");
  if (withGit) {
    const git = (...a: string[]) => spawnSync("git", ["-c", "user.email=b@b", "-c", "user.name=b", ...a], { cwd: dir });
    git("init", "-q");
    git("add", "src");
    git("commit", "-qm", "x");
  }
  return dir;
}

for (const withGit of [true, false]) {
  const dir = project(withGit);
  const asked = [path.join(dir, ".oceancode"), path.join(dir, ".oceancode", "oceancode.jsonc"), path.join(dir, ".oceancode", "oceancode.json")];
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    const r = projectOwnership(dir, asked);
    times.push(performance.now() - t0);
    if (withGit && r.get(asked[0]!)?.tier !== "local") throw new Error("bench: expected the local tier");
  }
  console.log(`ownership ${withGit ? `git checkout, ${FILES} tracked files` : "no .git"}: p50 ${pct(times, 0.5).toFixed(2)} ms, p99 ${pct(times, 0.99).toFixed(2)} ms (${RUNS} runs)`);
  fs.rmSync(dir, { recursive: true, force: true });
}

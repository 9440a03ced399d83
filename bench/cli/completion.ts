/**
 * Tab latency (issue 30): how long the calls a completion script makes on tab take, the compiled CLI in a
 * throwaway HOME: `__complete models` (names from the provider manifests, no provider loads), `__complete
 * sessions` (the storage service's ids of this directory, --sessions of them stored first), and
 * `completion bash` (the whole script); plus resolving a typed name in process (ModelNames.resolve).
 * Run: node dist/bench/cli/completion.js [--runs 9] [--sessions 50]
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { homeEnv } from "../../test/kit/fakes/home-env.js";
import { type ModelNameEntry } from "../../extensions/engine/api.js";
import { ModelNames } from "../../extensions/engine/kit.js";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
const CLI = path.join(ROOT, "dist", "hosts", "cli", "main.js");
const { values } = parseArgs({ options: { runs: { type: "string", default: "9" }, sessions: { type: "string", default: "50" } } });
const RUNS = Number(values.runs);

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const root = fs.mkdtempSync(path.join(os.tmpdir(), "oc-bench-completion-"));
const home = path.join(root, "home");
const project = path.join(root, "project");
fs.mkdirSync(home, { recursive: true });
fs.mkdirSync(project, { recursive: true });
const env = { ...homeEnv(home, path.join(root, "managed.json")), OC_MODEL: "scripted/echo" };
const oc = (...args: string[]) => {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd: project, env, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`oceancode ${args.join(" ")}: ${r.stderr}`);
  return { ms: performance.now() - t0, out: r.stdout };
};

try {
  for (let i = 0; i < Number(values.sessions); i++) oc("run", `session ${i}`);
  const time = (...args: string[]) => median(Array.from({ length: RUNS }, () => oc(...args).ms));
  const models = time("__complete", "models");
  const sessions = time("__complete", "sessions");
  const script = time("completion", "bash");
  const read = (id: string) => JSON.parse(fs.readFileSync(path.join(ROOT, "extensions", id, "manifest.json"), "utf8")) as { contributes: { providers: string[]; models: ModelNameEntry[] } };
  const ms = ["anthropic", "openai", "scripted"].map((id) => ({ extension: id, tier: "bundled" as const, m: read(id) }));
  const names = ModelNames.fromContributions(
    ms.map((x) => ({ extension: x.extension, tier: x.tier, value: x.m.contributes.providers })),
    ms.map((x) => ({ extension: x.extension, tier: x.tier, value: x.m.contributes.models })),
  );
  const N = 10_000;
  const t0 = performance.now();
  for (let i = 0; i < N; i++) names.resolve(i % 2 ? "sonnet" : "gpt-5");
  const resolveUs = ((performance.now() - t0) / N) * 1000;
  const t1 = performance.now();
  for (let i = 0; i < 1000; i++) names.nearestIds("sonet");
  const nearestUs = (performance.now() - t1) * 1;
  console.log(`__complete models     ${models.toFixed(0)} ms (median of ${RUNS} spawns)`);
  console.log(`__complete sessions   ${sessions.toFixed(0)} ms (${values.sessions} stored)`);
  console.log(`completion bash       ${script.toFixed(0)} ms`);
  console.log(`resolve a name        ${resolveUs.toFixed(2)} µs in process`);
  console.log(`did-you-mean (models) ${nearestUs.toFixed(1)} µs in process`);
} finally {
  fs.rmSync(root, { recursive: true, force: true });
}

/**
 * Model catalogue figures (issue 34): what reading the catalogue from the manifests costs.
 *  - seed: building the engine's catalogue from every manifest's contributes.models entries and resolving
 *    each id once (in process, median of --runs);
 *  - models: wall time of `oceancode models --json` (spawn to exit: boot, manifests, no provider loaded);
 *  - run: wall time of `oceancode run -m sonnet` resolving an alias through the catalogue, on the fake Anthropic server at 0 ms.
 * Run: node dist/bench/catalogue/catalogue.js [--runs 5]
 */
import { spawnSync, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { Catalogue } from "../../extensions/engine/models.js";
import type { ModelNameEntry } from "../../extensions/engine/api.js";
import { startFakeAnthropic } from "../../test/kit/fakes/anthropic-server.js";
import { homeEnv } from "../../test/kit/fakes/home-env.js";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
const CLI = path.join(ROOT, "dist", "hosts", "cli", "main.js");
const { values } = parseArgs({ options: { runs: { type: "string", default: "5" } } });
const RUNS = Number(values.runs);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const entries: ModelNameEntry[] = [];
for (const d of fs.readdirSync(path.join(ROOT, "extensions"))) {
  const f = path.join(ROOT, "extensions", d, "manifest.json");
  if (fs.existsSync(f)) entries.push(...(((JSON.parse(fs.readFileSync(f, "utf8")) as { contributes?: { models?: ModelNameEntry[] } }).contributes?.models) ?? []));
}

const seed: number[] = [];
for (let i = 0; i < Math.max(RUNS, 20); i++) {
  const t = process.hrtime.bigint();
  const c = new Catalogue(() => undefined, undefined, entries);
  for (const e of entries) c.resolve(e.id);
  seed.push(Number(process.hrtime.bigint() - t) / 1e6);
}

const root = fs.mkdtempSync(path.join(os.tmpdir(), "oc-bench-catalogue-"));
fs.mkdirSync(path.join(root, "home"));
const env = homeEnv(path.join(root, "home"), path.join(root, "managed.json"));
const models: number[] = [];
for (let i = 0; i < RUNS; i++) {
  const t = Date.now();
  const r = spawnSync(process.execPath, [CLI, "models", "--json"], { cwd: root, env, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`oceancode models: ${r.stderr}`);
  models.push(Date.now() - t);
}

const fake = await startFakeAnthropic();
const run: number[] = [];
for (let i = 0; i < RUNS; i++) {
  fake.enqueue({ text: "ok" });
  const t = Date.now();
  const code = await new Promise<number | null>((resolve) => {
    const c = spawn(process.execPath, [CLI, "run", "-m", "sonnet", "hi"], { cwd: root, env: { ...env, ANTHROPIC_API_KEY: "sk-bench", ANTHROPIC_BASE_URL: fake.url }, stdio: "ignore" });
    c.on("exit", resolve);
  });
  if (code !== 0) throw new Error(`oceancode run exited ${code}`);
  run.push(Date.now() - t);
}
await fake.close();
fs.rmSync(root, { recursive: true, force: true });

console.log(`catalogue: ${entries.length} manifest entries`);
console.log(`seed + resolve every id: median ${median(seed).toFixed(3)} ms`);
console.log(`oceancode models --json: median ${median(models)} ms (${RUNS} runs)`);
console.log(`oceancode run -m sonnet (fake at 0 ms): median ${median(run)} ms (${RUNS} runs)`);

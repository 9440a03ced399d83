/**
 * What checkpoints cost a step (issue 17, "Measure"): the snapshot work around each tool call on a tree of
 * N files when a step writes 1 file or 10 (the write tool) or a bash command touches 1 file or 10, through
 * the real kernel, engine, tools, ledger and SQLite storage with the scripted model; then the disk a
 * session's checkpoints take per 1,000 steps.
 *
 *   node dist/bench/checkpoints/checkpoints.js [--trees 1000,10000] [--steps 30] [--disk-steps 1000] [--bash-disk-steps 200] [--only scan]
 *
 * The cost is measured inside the engine's executeTool chain: a bench tap just outside the checkpoints tap
 * and one just inside it, so what is timed is the checkpoints wrap alone (snapshot before, hash and store
 * after, the shell scan), not the tool. Every step is its own user prompt, so every step takes its
 * before-snapshot (the worst case: within one prompt a file is snapshotted once).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Kernel, stderrLogger } from "../../kernel/kernel.js";
import { resolvePaths } from "../../kernel/paths.js";
import type { EngineService } from "../../extensions/engine/api.js";
import type { CheckpointsService } from "../../extensions/checkpoints/api.js";
import { ShadowRepo } from "../../extensions/checkpoints/shadow.js";

const PACKAGE_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..", "..");

function arg(name: string, def: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 && process.argv[i + 1] ? process.argv[i + 1]! : def;
}

interface Stats {
  median: number;
  p90: number;
}
function stats(xs: number[]): Stats {
  const s = [...xs].sort((a, b) => a - b);
  return { median: s[Math.floor(s.length / 2)] ?? 0, p90: s[Math.floor(s.length * 0.9)] ?? 0 };
}

/** Bytes and files under a folder (apparent sizes). */
function du(dir: string): { bytes: number; files: number } {
  let bytes = 0;
  let files = 0;
  const walk = (d: string) => {
    let ents: fs.Dirent[] = [];
    try {
      ents = fs.readdirSync(d, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of ents) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else {
        bytes += fs.statSync(p).size;
        files += 1;
      }
    }
  };
  walk(dir);
  return { bytes, files };
}

type Step = { text?: string; tool_calls?: Array<{ name: string; input: Record<string, unknown> }> };

interface Env {
  root: string;
  project: string;
  dataHome: string;
  kernel: Kernel;
  engine: EngineService;
  checkpoints: CheckpointsService;
  /** checkpoints time per tool call, pushed by the bench taps */
  calls: number[];
}

/** A project of `n` files (100 per folder, ~120 bytes each), the script, and a booted kernel. */
async function setup(n: number, steps: Step[]): Promise<Env> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "oc-bench-ckpt-"));
  const home = path.join(root, "home");
  const project = path.join(root, "project");
  for (let i = 0; i < n; i++) {
    const dir = path.join(project, "src", `d${Math.floor(i / 100)}`);
    if (i % 100 === 0) fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, `f${i % 100}.txt`), `file ${i}\n${"x".repeat(110)}\n`);
  }
  fs.mkdirSync(path.join(project, ".oceancode"), { recursive: true });
  fs.writeFileSync(path.join(project, ".oceancode", "oceancode.json"), JSON.stringify({ permission_mode: "bypassPermissions" }));
  fs.writeFileSync(path.join(project, "bench.json"), JSON.stringify({ context_window: 1_000_000, steps, after: { text: "done" } }));
  fs.mkdirSync(home, { recursive: true });
  const dataHome = path.join(home, "data");
  const env = { ...process.env, HOME: home, XDG_DATA_HOME: dataHome, XDG_CONFIG_HOME: path.join(home, "config"), XDG_STATE_HOME: path.join(home, "state"), OC_MANAGED_CONFIG: path.join(root, "managed.json") };
  const kernel = await Kernel.discover({ paths: resolvePaths({ home, project, env }), env, log: stderrLogger(false), bundled: { dir: PACKAGE_ROOT, codeDir: path.join(PACKAGE_ROOT, "dist") } });
  await kernel.activate("onSession");
  const engine = await kernel.service("engine");
  const checkpoints = await kernel.service("checkpoints");
  const calls: number[] = [];
  // the checkpoints tap is in stage "snapshot"; "default" is just outside it, "client" just inside
  const inner = new WeakMap<object, number>();
  engine.hooks.executeTool.tap({ name: "bench", stage: "default" }, (next) => async (c) => {
    const t0 = performance.now();
    const out = await next(c);
    calls.push(performance.now() - t0 - (inner.get(c) ?? 0));
    return out;
  });
  engine.hooks.executeTool.tap({ name: "bench", stage: "client" }, (next) => async (c) => {
    const t0 = performance.now();
    const out = await next(c);
    inner.set(c, performance.now() - t0);
    return out;
  });
  return { root, project, dataHome: path.join(home, ".local", "share"), kernel, engine, checkpoints, calls };
}

const files = (k: number) => Array.from({ length: k }, (_, i) => `src/d${i}/f${i % 100}.txt`);

/** Steps: one prompt reads the k files; then `steps` prompts, each one step writing (or bash-appending to) all k. */
function script(k: number, steps: number, how: "write" | "bash"): Step[] {
  const out: Step[] = [{ tool_calls: files(k).map((f) => ({ name: "read", input: { file_path: f } })) }, { text: "read" }];
  for (let s = 0; s < steps; s++) {
    if (how === "write") out.push({ tool_calls: files(k).map((f) => ({ name: "write", input: { file_path: f, content: `step ${s} of ${f}\n${"y".repeat(1000)}\n` } })) });
    else out.push({ tool_calls: [{ name: "bash", input: { command: files(k).map((f) => `echo step${s} >> ${f}`).join(" && ") } }] });
    out.push({ text: `step ${s}` });
  }
  return out;
}

async function perStep(n: number, k: number, steps: number, how: "write" | "bash"): Promise<{ step: Stats; first: number }> {
  const e = await setup(n, script(k, steps, how));
  const s = await e.engine.createSession({ cwd: e.project, model: "scripted/bench.json" });
  await e.engine.prompt(s, "read them");
  const perStepMs: number[] = [];
  for (let i = 0; i < steps; i++) {
    e.calls.length = 0;
    await e.engine.prompt(s, `step ${i}`);
    perStepMs.push(e.calls.reduce((a, b) => a + b, 0));
  }
  await e.kernel.shutdown();
  fs.rmSync(e.root, { recursive: true, force: true });
  // the first shell step scans the whole tree into the private index once: reported apart
  return { step: stats(how === "bash" ? perStepMs.slice(1) : perStepMs), first: perStepMs[0]! };
}

/** The full scan alone (git add -A + write-tree on the private index) with nothing changed: what a shell step cost before the watcher, and what the first look of a process still costs. */
async function scanOnly(n: number, runs: number): Promise<{ first: number; step: Stats }> {
  const e = await setup(n, [{ text: "x" }]);
  const repo = new ShadowRepo(path.join(e.root, "shadow"), e.project);
  await repo.init();
  let t0 = performance.now();
  await repo.scan();
  const first = performance.now() - t0;
  const xs: number[] = [];
  for (let i = 0; i < runs; i++) {
    t0 = performance.now();
    await repo.scan();
    xs.push(performance.now() - t0);
  }
  await e.kernel.shutdown();
  fs.rmSync(e.root, { recursive: true, force: true });
  return { first, step: stats(xs) };
}

/** The watcher-fed look alone (what a shell step now runs before and after the command): touch k files, then tree(true). */
async function incremental(n: number, k: number, runs: number): Promise<Stats> {
  const e = await setup(n, [{ text: "x" }]);
  const repo = new ShadowRepo(path.join(e.root, "shadow"), e.project);
  await repo.init();
  await repo.tree();
  const xs: number[] = [];
  for (let i = 0; i < runs; i++) {
    for (let j = 0; j < k; j++) fs.appendFileSync(path.join(e.project, files(k)[j]!), `run ${i}\n`);
    const t0 = performance.now();
    await repo.tree(true);
    xs.push(performance.now() - t0);
  }
  repo.close();
  await e.kernel.shutdown();
  fs.rmSync(e.root, { recursive: true, force: true });
  return stats(xs);
}

async function disk(n: number, steps: number, how: "write" | "bash"): Promise<{ checkpoints: { bytes: number; files: number }; shadow: { bytes: number; files: number }; wallS: number }> {
  const e = await setup(n, script(1, steps, how));
  const s = await e.engine.createSession({ cwd: e.project, model: "scripted/bench.json" });
  await e.engine.prompt(s, "read them");
  const t0 = performance.now();
  for (let i = 0; i < steps; i++) await e.engine.prompt(s, `step ${i}`);
  const wallS = (performance.now() - t0) / 1000;
  const dir = e.checkpoints.dirOf(s.info.id);
  await e.kernel.shutdown();
  const out = { checkpoints: du(dir), shadow: du(path.join(e.dataHome, "oceancode", "checkpoints", "shadow")), wallS };
  fs.rmSync(e.root, { recursive: true, force: true });
  return out;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const trees = arg("trees", "1000,10000").split(",").map(Number);
  const steps = Number(arg("steps", "30"));
  const diskSteps = Number(arg("disk-steps", "1000"));
  const bashDiskSteps = Number(arg("bash-disk-steps", "200"));
  /** "scan": only the shell-scan figures */
  const only = arg("only", "");
  console.log(`checkpoints bench: node ${process.version}, ${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? "?"}), load ${os.loadavg()[0]!.toFixed(2)}`);
  console.log(`per step (the checkpoints wrap alone, ${steps} steps, each its own prompt): median / p90 ms`);
  const f = (x: Stats) => `${x.median.toFixed(2)} / ${x.p90.toFixed(2)}`;
  for (const n of only ? [] : trees) {
    for (const how of ["write", "bash"] as const) {
      for (const k of [1, 10]) {
        const r = await perStep(n, k, steps, how);
        console.log(`  tree ${String(n).padStart(6)} files  ${how.padEnd(5)} touching ${String(k).padStart(2)}: ${f(r.step)}${how === "bash" ? `   (first shell step, the one-time scan: ${r.first.toFixed(1)} ms)` : ""}`);
      }
    }
  }
  console.log("the shell scan alone (git add -A + write-tree, nothing changed; a shell step runs two), median / p90 ms:");
  for (const n of trees) {
    const r = await scanOnly(n, steps);
    console.log(`  tree ${String(n).padStart(6)} files: ${f(r.step)}   (the first, hashing the tree: ${r.first.toFixed(0)} ms)`);
  }
  console.log("the watcher-fed look alone (touch k files, then bring the index up to date and write the tree; a shell step runs one after its command, and one before it only when something changed meanwhile), median / p90 ms:");
  for (const n of trees) {
    for (const k of [1, 10]) console.log(`  tree ${String(n).padStart(6)} files, ${String(k).padStart(2)} touched: ${f(await incremental(n, k, steps))}`);
  }
  const n = trees[trees.length - 1]!;
  for (const how of only ? [] : (["write", "bash"] as const)) {
    const count = how === "bash" ? bashDiskSteps : diskSteps;
    const d = await disk(n, count, how);
    const per = 1000 / count;
    console.log(
      `disk, ${count} steps each changing 1 file by ${how} on ${n} files: checkpoints ${((d.checkpoints.bytes * per) / 1024).toFixed(0)} KB per 1,000 steps (${d.checkpoints.files} files in ${count} steps), private index+objects (once per project, not scaled) ${(d.shadow.bytes / 1024).toFixed(0)} KB (${d.shadow.files} files); wall ${d.wallS.toFixed(1)} s`,
    );
  }
}

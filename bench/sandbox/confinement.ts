/**
 * The cost of confinement (issue 27): ms added per bash call and per step of a long run.
 *
 *   node dist/bench/sandbox/confinement.js [calls=60] [steps=200]
 *
 * 1. Per call: `bash -c true` spawned as the bash tool would, unconfined, in a PID namespace only (what a
 *    person's yes gets) and fully confined (the plan the sandbox builds: secrets hidden, protected paths
 *    read-only, .env masked, private /tmp, namespaces): p50/p99 wall time and the ms added.
 * 2. Per step: a `run --auto` of `steps` scripted bash steps through the compiled CLI, with the default
 *    (unattended = confined) and with sandbox.enabled false; the difference per step.
 * Needs bubblewrap (Linux); prints what it could not measure otherwise.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { spawn, spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { planFor } from "../../extensions/sandbox/config.js";
import { wrapSpawn, pidWrap } from "../../extensions/sandbox/wrap.js";
import { bwrapAvailable } from "../../extensions/sandbox/bwrap.js";
import { secretPaths } from "../../extensions/sandbox/secrets.js";
import { Placeholders, envFiles } from "../../extensions/sandbox/protect.js";
import type { SpawnSpec } from "../../extensions/engine/api.js";
import { homeEnv } from "../../test/kit/fakes/home-env.js";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
const CLI = path.join(ROOT, "dist", "hosts", "cli", "main.js");

function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(s.length * p))]!;
}

function time(spec: SpawnSpec): Promise<number> {
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    const c = spawn(spec.command, spec.args, { cwd: spec.cwd, env: spec.env, stdio: "ignore", detached: true });
    c.on("error", reject);
    c.on("close", (code) => (code === 0 ? resolve(performance.now() - t0) : reject(new Error(`exit ${code}`))));
  });
}

async function perCall(calls: number, root: string): Promise<void> {
  const home = path.join(root, "home");
  const project = path.join(root, "project");
  fs.mkdirSync(path.join(home, ".ssh"), { recursive: true });
  fs.writeFileSync(path.join(home, ".ssh", "id_x"), "k");
  fs.mkdirSync(project, { recursive: true });
  spawnSync("git", ["init", "-q"], { cwd: project });
  fs.writeFileSync(path.join(project, ".env"), "A=1\n");
  const base: SpawnSpec = { command: "bash", args: ["-c", "true"], cwd: project, env: { PATH: process.env.PATH }, purpose: "bash" };
  const bin = bwrapAvailable().bin!;
  const ph = new Placeholders();
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "oc-bench-tmp-"));
  const confined = (): SpawnSpec => {
    // built per call, as the sandbox does (the .env walk and placeholders are part of the cost)
    const plan = planFor({}, project, project, home);
    plan.deny.push(...secretPaths({ home, own: [path.join(home, ".oceancode"), path.join(home, ".local/share/oceancode")] }));
    const { paths, held } = ph.hold(project);
    plan.readOnly.push(...paths);
    plan.masked.push(...envFiles(project));
    plan.tmp = tmp;
    ph.release(held);
    return wrapSpawn(base, plan, { bwrap: bin });
  };
  const variants: Array<[string, () => SpawnSpec]> = [
    ["unconfined", () => base],
    ["pid namespace only", () => pidWrap(base, bin)],
    ["confined", confined],
  ];
  const results: Record<string, number[]> = {};
  for (const [name] of variants) results[name] = [];
  for (let i = 0; i < 5; i++) for (const [, make] of variants) await time(make()); // warm up
  for (let i = 0; i < calls; i++) for (const [name, make] of variants) results[name]!.push(await time(make()));
  const u50 = pct(results.unconfined!, 0.5);
  const u99 = pct(results.unconfined!, 0.99);
  console.log(`per bash call (${calls} calls each, \`bash -c true\`):`);
  for (const [name] of variants) {
    const xs = results[name]!;
    const p50 = pct(xs, 0.5);
    const p99 = pct(xs, 0.99);
    console.log(`  ${name.padEnd(20)} p50 ${p50.toFixed(1)} ms  p99 ${p99.toFixed(1)} ms  added p50 ${(p50 - u50).toFixed(1)} ms  p99 ${(p99 - u99).toFixed(1)} ms`);
  }
  fs.rmSync(tmp, { recursive: true, force: true });
}

async function perStep(steps: number, root: string): Promise<void> {
  const run = (label: string, cfg: Record<string, unknown>): number => {
    const dir = path.join(root, label);
    const home = path.join(dir, "home");
    const project = path.join(dir, "project");
    fs.mkdirSync(path.join(home, ".config", "oceancode"), { recursive: true });
    fs.mkdirSync(project, { recursive: true });
    fs.writeFileSync(path.join(home, ".config", "oceancode", "oceancode.jsonc"), JSON.stringify(cfg));
    const script = { steps: [...Array.from({ length: steps }, (_, i) => ({ tool_calls: [{ name: "bash", input: { command: `echo step-${i}` } }] })), { text: "done" }] };
    fs.writeFileSync(path.join(project, "s.json"), JSON.stringify(script));
    const t0 = performance.now();
    const r = spawnSync(process.execPath, [CLI, "run", "--auto", "--max-steps", String(steps + 5), "--model", "scripted/s.json", "go"], {
      cwd: project,
      env: homeEnv(home, path.join(dir, "managed.json")),
      input: "",
      encoding: "utf8",
      timeout: 600_000,
    });
    const ms = performance.now() - t0;
    if (r.status !== 0) throw new Error(`${label}: exit ${r.status}: ${r.stderr.slice(-500)}`);
    return ms;
  };
  const confined = run("confined", {});
  const open = run("opted-out", { sandbox: { enabled: false, pid_namespace: false } });
  console.log(`per step of a ${steps}-step run --auto (scripted bash steps, compiled CLI):`);
  console.log(`  confined (default)   ${(confined / steps).toFixed(1)} ms/step  (${(confined / 1000).toFixed(1)} s)`);
  console.log(`  sandbox.enabled false ${(open / steps).toFixed(1)} ms/step  (${(open / 1000).toFixed(1)} s)`);
  console.log(`  added per step       ${((confined - open) / steps).toFixed(1)} ms`);
}

async function main(): Promise<void> {
  const calls = Number(process.argv[2] ?? 60);
  const steps = Number(process.argv[3] ?? 200);
  if (!bwrapAvailable().ok) {
    console.log(`confinement bench: ${bwrapAvailable().why}; nothing to measure`);
    return;
  }
  // under HOME, as a real project is (the private /tmp would hide a /tmp project's HOME anyway)
  const root = fs.mkdtempSync(path.join(os.homedir(), ".oc-bench-conf-"));
  try {
    await perCall(calls, root);
    await perStep(steps, root);
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

await main();

/**
 * Start-up time and the round trip of a trivial prompt on this machine: `node -e 0` against
 * `oceancode --version`, `oceancode --help`, and `oceancode run "hi"` to exit, with the real Anthropic
 * provider and SDK against the fake Anthropic server (test/kit/fakes, 0 ms latency) and with the offline
 * scripted model. With OC_BENCH_AGENT set to another agent's binary (Claude Code's `claude`), it runs
 * `<agent> -p "hi"` against the same fake server too, and prints our round trip as a share of its.
 * Each command runs RUNS times (after one warm-up), in an empty temp HOME and project so no user config
 * or extension is read. Prints median and p90 per command, the ratios, and issue 13's targets (OK/SLOW).
 *
 *   node dist/bench/startup.js [--runs <n>]
 *   OC_BENCH_AGENT=/path/to/claude node dist/bench/startup.js
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { startFakeAnthropic } from "../test/kit/fakes/anthropic-server.js";

const CLI = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "hosts", "cli", "main.js");

/** issue 13: a trivial prompt's round trip at most half the other agent's, under 0.25 s on an idle machine; --help under 1.5x node */
const TARGET_AGENT_RATIO = 0.5;
const TARGET_ROUND_TRIP_MS = 250;
const TARGET_HELP_RATIO = 1.5;

interface Case {
  name: string;
  cmd: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  cwd: string;
}

function quantile(sorted: number[], q: number): number {
  const i = Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1);
  return sorted[Math.max(0, i)]!;
}

/**
 * Spawn to exit, timed. Asynchronous (not spawnSync): the fake server answering the round trips lives in
 * this process, so its event loop must keep running while the child waits on it.
 */
function runOnce(c: Case): Promise<number> {
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    const child = spawn(c.cmd, c.args, { env: c.env, cwd: c.cwd, stdio: ["ignore", "ignore", "pipe"] });
    let err = "";
    child.stderr.on("data", (d: Buffer) => (err = (err + d.toString()).slice(-4000)));
    child.on("error", reject);
    child.on("exit", (code, signal) => {
      const ms = Number(process.hrtime.bigint() - t0) / 1e6;
      if (code !== 0) reject(new Error(`${c.name} (${c.cmd} ${c.args.join(" ")}) exited ${code ?? signal}: ${err.trim()}`));
      else resolve(ms);
    });
  });
}

/** Round-robin over the cases so a load spike on the machine hits every case alike. */
async function timeAll(cases: Case[], runs: number): Promise<Map<string, { median: number; p90: number }>> {
  for (const c of cases) await runOnce(c); // warm the file cache (and create the session database once)
  const samples = new Map<string, number[]>(cases.map((c) => [c.name, []]));
  for (let i = 0; i < runs; i++) for (const c of cases) samples.get(c.name)!.push(await runOnce(c));
  const out = new Map<string, { median: number; p90: number }>();
  for (const [name, xs] of samples) {
    xs.sort((a, b) => a - b);
    out.set(name, { median: quantile(xs, 0.5), p90: quantile(xs, 0.9) });
  }
  return out;
}

function dirs(root: string, name: string): { home: string; project: string } {
  const home = path.join(root, name, "home");
  const project = path.join(root, name, "project");
  fs.mkdirSync(home, { recursive: true });
  fs.mkdirSync(project, { recursive: true });
  return { home, project };
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { runs: { type: "string", default: "20" } }, strict: true });
  const runs = Number(values.runs);
  if (!Number.isInteger(runs) || runs < 1) {
    process.stderr.write("usage: node dist/bench/startup.js [--runs <n>]\n");
    process.exitCode = 2;
    return;
  }
  const agent = process.env.OC_BENCH_AGENT || undefined;
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "oc-bench-startup-"));
  const fake = await startFakeAnthropic({ keep: 8 });
  try {
    const oc = dirs(root, "oceancode");
    const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: oc.home, OC_MANAGED_CONFIG: path.join(root, "managed.json") };
    const runEnv: NodeJS.ProcessEnv = { ...env, ANTHROPIC_API_KEY: "sk-bench", ANTHROPIC_BASE_URL: fake.url };
    const node = (name: string, args: string[], e = env): Case => ({ name, cmd: process.execPath, args, env: e, cwd: oc.project });
    const cases: Case[] = [
      node("node -e 0", ["-e", "0"]),
      node("oceancode --version", [CLI, "--version"]),
      node("oceancode --help", [CLI, "--help"]),
      node("run hi (anthropic)", [CLI, "run", "--model", "anthropic/claude-sonnet-4-5", "hi"], runEnv),
      node("run hi (scripted)", [CLI, "run", "--model", "scripted/echo", "hi"], runEnv),
    ];
    if (agent) {
      // the other agent in its own empty HOME and project, offline but for the fake server, non-interactive (-p)
      const a = dirs(root, "agent");
      cases.push({
        name: `${path.basename(agent)} -p hi`,
        cmd: agent,
        args: ["-p", "hi"],
        cwd: a.project,
        env: {
          PATH: process.env.PATH,
          HOME: a.home,
          XDG_CONFIG_HOME: path.join(a.home, ".config"),
          ANTHROPIC_API_KEY: "sk-bench",
          ANTHROPIC_BASE_URL: fake.url,
          CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
          DISABLE_AUTOUPDATER: "1",
          DISABLE_TELEMETRY: "1",
          DISABLE_ERROR_REPORTING: "1",
          CI: "1",
        },
      });
    }
    process.stdout.write(`startup bench: ${runs} runs each (interleaved), node ${process.version}, ${os.cpus()[0]?.model ?? "cpu"} x${os.cpus().length}, load ${os.loadavg()[0]!.toFixed(1)}\n`);
    const results = await timeAll(cases, runs);
    const loadAfter = os.loadavg()[0]!;
    for (const [name, r] of results) {
      process.stdout.write(`${name.padEnd(22)} median ${r.median.toFixed(1).padStart(7)} ms   p90 ${r.p90.toFixed(1).padStart(7)} ms\n`);
    }
    const med = (n: string) => results.get(n)!.median;
    const base = med("node -e 0");
    const ratio = (n: string) => med(n) / base;
    process.stdout.write(`ratio --version / node: ${ratio("oceancode --version").toFixed(2)}x\n`);
    process.stdout.write(`ratio --help / node:    ${ratio("oceancode --help").toFixed(2)}x (goal < 2x)\n`);
    process.stdout.write(ratio("oceancode --help") < 2 ? "STARTUP_OK\n" : "STARTUP_SLOW\n");
    process.stdout.write(`ratio run hi (anthropic) / node: ${ratio("run hi (anthropic)").toFixed(2)}x, run hi (scripted) / node: ${ratio("run hi (scripted)").toFixed(2)}x\n`);
    const agentName = agent ? `${path.basename(agent)} -p hi` : undefined;
    const agentRatio = agentName ? med("run hi (anthropic)") / med(agentName) : undefined;
    if (agentName) process.stdout.write(`ratio run hi (anthropic) / ${agentName}: ${agentRatio!.toFixed(3)}\n`);

    const ok = (pass: boolean) => (pass ? "OK  " : "SLOW");
    const busy = loadAfter > os.cpus().length ? ` (load ${loadAfter.toFixed(1)} on ${os.cpus().length} CPUs: not an idle machine)` : "";
    process.stdout.write("targets (issue 13):\n");
    process.stdout.write(`  ${ok(med("run hi (anthropic)") < TARGET_ROUND_TRIP_MS)} run hi (anthropic) < ${TARGET_ROUND_TRIP_MS} ms on an idle machine: ${med("run hi (anthropic)").toFixed(0)} ms${busy}\n`);
    if (agentRatio !== undefined) process.stdout.write(`  ${ok(agentRatio <= TARGET_AGENT_RATIO)} run hi (anthropic) <= ${TARGET_AGENT_RATIO} of ${agentName}: ${agentRatio.toFixed(3)}\n`);
    else process.stdout.write(`  ---- run hi (anthropic) <= ${TARGET_AGENT_RATIO} of another agent's: not measured (set OC_BENCH_AGENT to its binary)\n`);
    process.stdout.write(`  ${ok(ratio("oceancode --help") < TARGET_HELP_RATIO)} --help < ${TARGET_HELP_RATIO}x node -e 0: ${ratio("oceancode --help").toFixed(3)}x\n`);
    const paths = new Map<string, number>();
    for (const r of fake.requests) paths.set(`${r.method} ${r.path.split("?")[0]}`, (paths.get(`${r.method} ${r.path.split("?")[0]}`) ?? 0) + 1);
    process.stdout.write(`fake server: ${fake.count} requests (last ${fake.requests.length}: ${[...paths].map(([p, n]) => `${p} x${n}`).join(", ")})\n`);
  } finally {
    await fake.close();
    fs.rmSync(root, { recursive: true, force: true });
  }
}

await main();

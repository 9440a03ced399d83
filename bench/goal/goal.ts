/**
 * Goal mode figures: the wall time of `oceancode goal` on the fake Anthropic server at 0 ms, converging in one
 * round (planner + worker + 2 skeptics: 4 model calls) and in two (one refutation: 7 calls), against one plain
 * `oceancode run` (1 call) in the same setup. What a round costs beyond its model calls is the loop's overhead.
 * Run: node dist/bench/goal/goal.js [--runs 5]
 */
import { spawn } from "node:child_process";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { startFakeAnthropic } from "../../test/kit/fakes/anthropic-server.js";
import { anthropicEnv, makeSandbox } from "../../test/kit/cli.js";
import { fenced, roundOf, script } from "../../extensions/goal/test/helpers.js";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
const CLI = path.join(ROOT, "dist", "hosts", "cli", "main.js");

const { values } = parseArgs({ options: { runs: { type: "string", default: "5" } } });
const RUNS = Math.max(2, Number(values.runs));
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const uphold = { text: fenced({ refuted: [], upheld: ["d1", "d2"], evidence: ["read hello.txt"] }) };
const refute = { text: fenced({ refuted: [{ id: "d1", why: "missing", evidence: "ls" }], upheld: ["d2"], evidence: ["ls"] }) };

async function main(): Promise<void> {
  process.stdout.write(`node ${process.version}, ${os.cpus()[0]?.model ?? "cpu"} x${os.cpus().length}, load ${os.loadavg()[0]!.toFixed(2)}\n`);
  const fake = await startFakeAnthropic();
  const sb = makeSandbox("oc-bench-goal-");
  const env = anthropicEnv(sb, fake.url);
  // spawned asynchronously: the fake server answers from this process's event loop
  const time = (args: string[]): Promise<number> =>
    new Promise((resolve, reject) => {
      const t0 = performance.now();
      const child = spawn(process.execPath, [CLI, "--dir", sb.project, ...args], { env, stdio: ["ignore", "ignore", "pipe"] });
      let stderr = "";
      child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
      const timer = setTimeout(() => child.kill("SIGKILL"), 60_000);
      child.on("close", (code) => {
        clearTimeout(timer);
        if (code === 0) resolve(performance.now() - t0);
        else reject(new Error(`${args.join(" ")}: exit ${code}\n${stderr}`));
      });
    });
  try {
    const figures: Record<string, number[]> = { run: [], goal1: [], goal2: [] };
    for (let i = 0; i <= RUNS; i++) {
      fake.respond(() => ({ text: "ok" }));
      const run = await time(["run", "-m", "anthropic/claude-haiku-4-5", "hi"]);
      script(fake, { skeptic: () => uphold });
      const g1 = await time(["goal", "-m", "anthropic/claude-haiku-4-5", "make hello.txt say hi"]);
      script(fake, { skeptic: (req, n) => (roundOf(req) === 1 && n === 1 ? refute : uphold) });
      const g2 = await time(["goal", "-m", "anthropic/claude-haiku-4-5", "make hello.txt say hi"]);
      if (i === 0) continue; // the first of each warms the disk cache
      figures.run!.push(run);
      figures.goal1!.push(g1);
      figures.goal2!.push(g2);
    }
    const [run, g1, g2] = [median(figures.run!), median(figures.goal1!), median(figures.goal2!)];
    process.stdout.write(`run (1 call):              ${run.toFixed(0)} ms median of ${RUNS}\n`);
    process.stdout.write(`goal, 1 round (4 calls):   ${g1.toFixed(0)} ms\n`);
    process.stdout.write(`goal, 2 rounds (7 calls):  ${g2.toFixed(0)} ms (a round of worker + 2 skeptics: ${(g2 - g1).toFixed(0)} ms)\n`);
  } finally {
    await fake.close();
    sb.cleanup();
  }
}

await main();

/**
 * The Claude Code route's round trip against `claude -p` alone: `oceancode run --model claude-code/sonnet
 * "hi"` (oceancode boots, spawns claude, maps its stream, stores the session) beside the same claude
 * binary run directly (`claude -p --output-format stream-json --input-format stream-json --verbose`) on
 * the same fake Anthropic server at 0 ms, alternated, each in a throwaway HOME. Prints median and p90 of
 * each, and what the route adds (the difference of the medians).
 *
 *   node dist/bench/claude-code/claude-code.js [--runs 7]
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { startFakeAnthropic } from "../../test/kit/fakes/anthropic-server.js";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
const CLI = path.join(ROOT, "dist", "hosts", "cli", "main.js");
const CLAUDE = process.env.OC_CLAUDE_BIN || path.join(ROOT, "node_modules", ".bin", "claude");

function timed(cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv, input: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(cmd, args, { cwd, env, stdio: ["pipe", "ignore", "pipe"] });
    let err = "";
    child.stderr.on("data", (d: Buffer) => (err += d.toString()));
    child.on("error", reject);
    child.on("close", (code) => (code === 0 ? resolve(performance.now() - t0) : reject(new Error(`${path.basename(cmd)} exited ${code}: ${err.slice(-400)}`))));
    child.stdin.end(input);
  });
}

function stats(xs: number[]): { median: number; p90: number } {
  const s = [...xs].sort((a, b) => a - b);
  return { median: s[Math.floor(s.length / 2)]!, p90: s[Math.min(s.length - 1, Math.ceil(s.length * 0.9) - 1)]! };
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { runs: { type: "string", default: "7" } } });
  const runs = Math.max(1, Number(values.runs));
  const fake = await startFakeAnthropic();
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "oc-bench-cc-"));
  const home = path.join(root, "home");
  const project = path.join(root, "project");
  fs.mkdirSync(path.join(home, ".claude"), { recursive: true });
  fs.mkdirSync(project, { recursive: true });
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: home,
    XDG_CONFIG_HOME: path.join(home, ".config"),
    XDG_DATA_HOME: path.join(home, ".local", "share"),
    XDG_STATE_HOME: path.join(home, ".local", "state"),
    NO_COLOR: "1",
    ANTHROPIC_API_KEY: "sk-ant-bench",
    ANTHROPIC_BASE_URL: fake.url,
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    DISABLE_AUTOUPDATER: "1",
    DISABLE_TELEMETRY: "1",
    DISABLE_ERROR_REPORTING: "1",
    OC_CLAUDE_BIN: CLAUDE,
  };
  const line = `${JSON.stringify({ type: "user", message: { role: "user", content: [{ type: "text", text: "hi" }] } })}\n`;
  const direct = () => timed(CLAUDE, ["-p", "--output-format", "stream-json", "--input-format", "stream-json", "--verbose", "--model", "sonnet"], project, env, line);
  const route = () => timed(process.execPath, [CLI, "run", "--model", "claude-code/sonnet", "hi"], project, env, "");
  await direct(); // warm-up: the binary's pages, claude's first-run files
  await route();
  const a: number[] = [];
  const b: number[] = [];
  for (let i = 0; i < runs; i++) {
    a.push(await direct());
    b.push(await route());
  }
  const sa = stats(a);
  const sb = stats(b);
  const f = (n: number) => `${Math.round(n)} ms`;
  console.log(`claude -p alone                   median ${f(sa.median)}  p90 ${f(sa.p90)}  (${runs} runs)`);
  console.log(`oceancode run claude-code/sonnet  median ${f(sb.median)}  p90 ${f(sb.p90)}`);
  console.log(`the route adds                    ${f(sb.median - sa.median)} (${((sb.median / sa.median - 1) * 100).toFixed(0)}%)`);
  await fake.close();
  fs.rmSync(root, { recursive: true, force: true });
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : String(e));
  process.exit(1);
});

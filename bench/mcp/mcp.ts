/**
 * MCP client figures (issue 15):
 *  - start to first model request of `oceancode run "hi"` (compiled CLI, real Anthropic SDK, fake server)
 *    with 0, 1, 5 and 20 stdio servers (the fixture server extensions/mcp/test/fixtures/tools-server.mjs), started in parallel;
 *  - the first request's tools array size with 20 MCP tools (flat) and 1,000 (meta-dispatch: search_tool
 *    and use_tool), beside what the 1,000 would weigh flat, and the system block that names them;
 *  - per-call overhead: `add` through our Connection vs the SDK Client called directly, same server.
 * Run: node dist/bench/mcp/mcp.js [--runs 3] [--calls 300]
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { Connection } from "../../extensions/mcp/client/connection.js";
import type { ServerEntry } from "../../extensions/mcp/api.js";
import { startFakeAnthropic, systemOf, type AnthropicRecorded } from "../../test/kit/fakes/anthropic-server.js";
import { homeEnv } from "../../test/kit/fakes/home-env.js";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
const CLI = path.join(ROOT, "dist", "hosts", "cli", "main.js");
const FIXTURE = path.join(ROOT, "extensions", "mcp", "test", "fixtures", "tools-server.mjs");
const FIXED_TOOLS = 8; // the fixture's own tools besides --tools n

const { values } = parseArgs({ options: { runs: { type: "string", default: "3" }, calls: { type: "string", default: "300" } } });
const RUNS = Number(values.runs);
const CALLS = Number(values.calls);

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

function sandbox(servers: number, toolsEach: number): { home: string; project: string; env: NodeJS.ProcessEnv; cleanup: () => void } {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "oc-bench-mcp-"));
  const home = path.join(root, "home");
  const project = path.join(root, "project");
  fs.mkdirSync(home, { recursive: true });
  fs.mkdirSync(project, { recursive: true });
  const mcpServers: Record<string, unknown> = {};
  for (let i = 0; i < servers; i++) mcpServers[`s${i}`] = { command: process.execPath, args: [FIXTURE, "--name", `s${i}`, "--tools", String(Math.max(0, toolsEach - FIXED_TOOLS))] };
  fs.writeFileSync(path.join(home, ".claude.json"), JSON.stringify({ mcpServers }));
  const env = homeEnv(home, path.join(root, "managed.json"));
  return { home, project, env, cleanup: () => fs.rmSync(root, { recursive: true, force: true }) };
}

/** One `run "hi"`: ms from spawn to the first request, and that request. */
async function firstRequest(url: string, fake: Awaited<ReturnType<typeof startFakeAnthropic>>, servers: number, toolsEach: number, extraEnv: NodeJS.ProcessEnv = {}): Promise<{ ms: number; req: AnthropicRecorded; totalMs: number }> {
  const sb = sandbox(servers, toolsEach);
  fake.reset();
  let firstAt = 0;
  fake.respond(() => {
    if (!firstAt) firstAt = performance.now();
    return { text: "ok" };
  });
  const t0 = performance.now();
  await new Promise<void>((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, "run", "--model", "anthropic/claude-sonnet-4-5", "hi"], {
      cwd: sb.project,
      env: { ...sb.env, ANTHROPIC_API_KEY: "sk-bench", ANTHROPIC_BASE_URL: url, ...extraEnv },
      stdio: ["ignore", "ignore", "pipe"],
    });
    let err = "";
    child.stderr.on("data", (d: Buffer) => (err += d.toString()));
    child.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`run exited ${code}: ${err}`))));
  });
  const totalMs = performance.now() - t0;
  const req = fake.requests[0]!;
  sb.cleanup();
  return { ms: firstAt - t0, req, totalMs };
}

function toolsSize(req: AnthropicRecorded): { count: number; mcp: number; chars: number; offered: string } {
  const tools = req.body.tools ?? [];
  const mcp = tools.filter((t) => String(t.name).startsWith("mcp__")).length;
  const meta = tools.some((t) => t.name === "search_tool");
  return { count: tools.length, mcp, chars: JSON.stringify(tools).length, offered: meta ? "meta" : String(mcp) };
}

async function perCall(): Promise<{ ours: number; direct: number }> {
  const entry: ServerEntry = { name: "b", qualifiedName: "b", tier: "user", source: "bench", config: { type: "stdio", command: process.execPath, args: [FIXTURE], env: {} }, trusted: true, enabled: true, hold: "ready" };
  const conn = new Connection(entry, { config: entry.config, connectTimeoutMs: 30_000, callTimeoutMs: 60_000, onToolsChanged: () => undefined, report: () => undefined });
  await conn.start();
  const direct = new Client({ name: "bench", version: "1" });
  await direct.connect(new StdioClientTransport({ command: process.execPath, args: [FIXTURE], stderr: "ignore" }));
  const signal = new AbortController().signal;
  const time = async (f: (i: number) => Promise<unknown>) => {
    for (let i = 0; i < 50; i++) await f(i); // warm-up
    const t0 = performance.now();
    for (let i = 0; i < CALLS; i++) await f(i);
    return ((performance.now() - t0) / CALLS) * 1000; // µs per call
  };
  const rounds: Array<{ ours: number; direct: number }> = [];
  for (let r = 0; r < 3; r++) {
    rounds.push({
      ours: await time((i) => conn.call("add", { a: i, b: 1 }, signal)),
      direct: await time((i) => direct.callTool({ name: "add", arguments: { a: i, b: 1 } })),
    });
  }
  await conn.close();
  await direct.close();
  return { ours: median(rounds.map((r) => r.ours)), direct: median(rounds.map((r) => r.direct)) };
}

async function main(): Promise<void> {
  console.log(`node ${process.version}, ${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? "?"}), load ${os.loadavg()[0]!.toFixed(2)}`);
  const fake = await startFakeAnthropic();
  console.log("\nstart to first request (`run \"hi\"`, stdio fixture servers started in parallel; median of %d)", RUNS);
  console.log("servers  first-request ms  run total ms  MCP tools offered (meta: search_tool/use_tool, past 128) | waiting for all (OC_MCP_WAIT_SECONDS=45): first-request ms  MCP tools");
  for (const n of [0, 1, 5, 20]) {
    await firstRequest(fake.url, fake, n, FIXED_TOOLS).catch(() => undefined); // warm-up
    const runs = [];
    const all = [];
    for (let i = 0; i < RUNS; i++) {
      runs.push(await firstRequest(fake.url, fake, n, FIXED_TOOLS));
      all.push(await firstRequest(fake.url, fake, n, FIXED_TOOLS, { OC_MCP_WAIT_SECONDS: "45" }));
    }
    const cell = (xs: number[], w: number) => median(xs).toFixed(0).padStart(w);
    console.log(`${String(n).padStart(7)}  ${cell(runs.map((r) => r.ms), 16)}  ${cell(runs.map((r) => r.totalMs), 12)}  ${toolsSize(runs[0]!.req).offered.padStart(17)} | ${cell(all.map((r) => r.ms), 58)}  ${toolsSize(all[0]!.req).offered.padStart(9)}`);
  }

  console.log("\nfirst request's tools array (JSON chars, ~tokens = chars/4)");
  const flat20 = toolsSize((await firstRequest(fake.url, fake, 1, 20)).req);
  const metaReq = (await firstRequest(fake.url, fake, 5, 200)).req;
  const meta1000 = toolsSize(metaReq);
  // the names under meta-dispatch, in the system prompt (client/context.ts; bounded at 8,000 chars)
  const sysLines = systemOf(metaReq).split("\n");
  const at = sysLines.findIndex((l) => l.startsWith("MCP tools reached through"));
  let end = at + 1;
  while (at >= 0 && end < sysLines.length && /^(mcp__|… and )/.test(sysLines[end]!)) end++;
  const namesBlock = at >= 0 ? sysLines.slice(at, end).join("\n") : "";
  const base = toolsSize((await firstRequest(fake.url, fake, 0, 0)).req);
  // the 1,000 tools as they would be offered flat: the registry's specs, as the anthropic provider writes them
  const oneServer = new Client({ name: "bench", version: "1" });
  await oneServer.connect(new StdioClientTransport({ command: process.execPath, args: [FIXTURE, "--name", "s0", "--tools", String(200 - FIXED_TOOLS)], stderr: "ignore" }));
  const { tools } = await oneServer.listTools();
  await oneServer.close();
  const flatChars = [0, 1, 2, 3, 4].reduce((sum, s) => sum + JSON.stringify(tools.map((t) => ({ name: `mcp__s${s}__${t.name}`, description: t.description, input_schema: t.inputSchema }))).length + 1, 0);
  console.log(`core tools only:        ${base.count} tools, ${base.chars} chars (~${Math.round(base.chars / 4)} tokens)`);
  console.log(`20 MCP tools (flat):    ${flat20.count} tools (${flat20.mcp} MCP), ${flat20.chars} chars (~${Math.round(flat20.chars / 4)} tokens); MCP share ${flat20.chars - base.chars} chars`);
  console.log(`1,000 MCP tools (meta): ${meta1000.count} tools (${meta1000.mcp} MCP), ${meta1000.chars} chars (~${Math.round(meta1000.chars / 4)} tokens)`);
  console.log(`1,000 MCP tools flat would add ${flatChars} chars (~${Math.round(flatChars / 4)} tokens)`);
  console.log(`1,000 MCP tools (meta): the system block naming them: ${namesBlock.length} chars (~${Math.round(namesBlock.length / 4)} tokens)`);
  await fake.close();

  console.log(`\nper call (\`add\`, stdio fixture, ${CALLS} calls after 50 warm-up, median of 3 rounds)`);
  const pc = await perCall();
  console.log(`our Connection.call: ${pc.ours.toFixed(0)} µs; SDK Client.callTool direct: ${pc.direct.toFixed(0)} µs; overhead ${(pc.ours - pc.direct).toFixed(0)} µs`);
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    console.error(e);
    process.exit(1);
  },
);

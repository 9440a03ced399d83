/**
 * ACP figures (issue 16): time to the first `agent_message_chunk` of a prompt over ACP, the compiled
 * `oceancode acp` driven by the SDK's own client over stdio, the model played by the fake Anthropic
 * server at 0 ms (the real Anthropic SDK talks to it).
 *  - warm: session/prompt sent to the first agent_message_chunk, in one process and session (median of --prompts);
 *  - cold: spawn to the first chunk (initialize, session/new, session/prompt), a fresh process each (median of --runs).
 * Run: node dist/bench/acp/acp.js [--runs 5] [--prompts 20]
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable, Writable } from "node:stream";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { client, methods, ndJsonStream, PROTOCOL_VERSION } from "@agentclientprotocol/sdk";
import { startFakeAnthropic } from "../../test/kit/fakes/anthropic-server.js";
import { homeEnv } from "../../test/kit/fakes/home-env.js";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
const CLI = path.join(ROOT, "dist", "hosts", "cli", "main.js");

const { values } = parseArgs({ options: { runs: { type: "string", default: "5" }, prompts: { type: "string", default: "20" } } });
const RUNS = Number(values.runs);
const PROMPTS = Number(values.prompts);

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const p90 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.9))]!;

/** One `oceancode acp` process: its connection and a way to wait for the next agent_message_chunk. */
function startAgent(url: string, root: string) {
  const home = path.join(root, "home");
  const project = path.join(root, "project");
  fs.mkdirSync(home, { recursive: true });
  fs.mkdirSync(project, { recursive: true });
  const env = { ...homeEnv(home, path.join(root, "managed.json")), ANTHROPIC_API_KEY: "sk-bench", ANTHROPIC_BASE_URL: url };
  const child = spawn(process.execPath, [CLI, "acp"], { cwd: project, env, stdio: ["pipe", "pipe", "inherit"] });
  let waiter: (() => void) | undefined;
  const app = client({ name: "oceancode-bench" }).onNotification(methods.client.session.update, ({ params }) => {
    if (params.update.sessionUpdate === "agent_message_chunk" && waiter) {
      const w = waiter;
      waiter = undefined;
      w();
    }
  });
  const conn = app.connect(ndJsonStream(Writable.toWeb(child.stdin) as WritableStream<Uint8Array>, Readable.toWeb(child.stdout) as ReadableStream<Uint8Array>));
  const firstChunk = () => new Promise<void>((resolve) => (waiter = resolve));
  const exited = new Promise<void>((resolve) => child.on("close", () => resolve()));
  return { child, conn, project, firstChunk, exited };
}

async function main(): Promise<void> {
  const fake = await startFakeAnthropic();
  fake.respond(() => ({ text: "ok, here is the answer" }));
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "oc-bench-acp-"));
  try {
    process.stdout.write(`node ${process.version}, ${os.cpus()[0]?.model ?? "cpu"} x${os.cpus().length}, load ${os.loadavg()[0]!.toFixed(2)}\n`);
    // cold: a fresh process per run (one shared database, as a user's second start)
    const cold: number[] = [];
    const phases = { initialize: [] as number[], new: [] as number[], prompt: [] as number[] };
    for (let i = 0; i <= RUNS; i++) {
      const t0 = performance.now();
      const a = startAgent(fake.url, root);
      await a.conn.agent.request(methods.agent.initialize, { protocolVersion: PROTOCOL_VERSION, clientCapabilities: {} });
      const t1 = performance.now();
      const { sessionId } = await a.conn.agent.request(methods.agent.session.new, { cwd: a.project, mcpServers: [] });
      const t2 = performance.now();
      const chunk = a.firstChunk();
      const done = a.conn.agent.request(methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: "hi" }] });
      await chunk;
      const t3 = performance.now();
      // run 0 warms the disk cache and creates the database
      if (i > 0) {
        cold.push(t3 - t0);
        phases.initialize.push(t1 - t0);
        phases.new.push(t2 - t1);
        phases.prompt.push(t3 - t2);
      }
      await done;
      a.child.stdin.end();
      await a.exited;
    }
    // warm: one process, one session, PROMPTS prompts
    const a = startAgent(fake.url, root);
    await a.conn.agent.request(methods.agent.initialize, { protocolVersion: PROTOCOL_VERSION, clientCapabilities: {} });
    const { sessionId } = await a.conn.agent.request(methods.agent.session.new, { cwd: a.project, mcpServers: [] });
    const warm: number[] = [];
    for (let i = 0; i <= PROMPTS; i++) {
      const chunk = a.firstChunk();
      const t0 = performance.now();
      const done = a.conn.agent.request(methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: `hi ${i}` }] });
      await chunk;
      if (i > 0) warm.push(performance.now() - t0); // the first prompt loads the provider SDK
      await done;
    }
    a.child.stdin.end();
    await a.exited;
    process.stdout.write(`warm: session/prompt -> first agent_message_chunk: median ${median(warm).toFixed(1)} ms, p90 ${p90(warm).toFixed(1)} ms (${warm.length} prompts)\n`);
    process.stdout.write(`cold: spawn -> initialize -> session/new -> first agent_message_chunk: median ${median(cold).toFixed(0)} ms, p90 ${p90(cold).toFixed(0)} ms (${cold.length} runs)\n`);
    process.stdout.write(`cold phases (medians): spawn -> initialize answered ${median(phases.initialize).toFixed(0)} ms, session/new ${median(phases.new).toFixed(0)} ms, first prompt -> first chunk ${median(phases.prompt).toFixed(0)} ms\n`);
  } finally {
    await fake.close();
    fs.rmSync(root, { recursive: true, force: true });
  }
}

await main();

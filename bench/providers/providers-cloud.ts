/**
 * Per-step overhead of the cloud routes at 0 ms latency: one step (a 40-row window, a short answer)
 * through anthropic/ (the fake Anthropic server), bedrock/ (SigV4 signing, the event-stream decoding) and
 * vertex/ (the cached OAuth token, the URL rewrite) against their stand-ins. The servers run in a child
 * process, so besides the wall time per step this process's CPU time per step is the adapters' own cost
 * (the SDK, our mapping, signing and decoding), free of the stand-ins' work.
 *
 *   npm run build && node dist/bench/providers/providers-cloud.js [--steps 200]
 */
import { fork } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createAnthropicProvider } from "../../extensions/anthropic/provider.js";
import { createBedrockProvider } from "../../extensions/bedrock/provider.js";
import { createVertexProvider } from "../../extensions/vertex/provider.js";
import type { ModelRequest, Provider, Row } from "../../extensions/engine/api.js";

const arg = (name: string, dflt: number): number => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : dflt;
};
const STEPS = arg("--steps", 200);
const AWS = { accessKeyId: "AKIABENCH0000000001", secretAccessKey: "bench-secret", region: "us-east-1" };
const GCP = { project: "bench-project", region: "us-east5" };

interface Urls {
  anthropic: string;
  bedrock: string;
  vertex: string;
  key: Record<string, string>;
}

/** The stand-ins, in a child process (this file run with --serve). */
async function serve(): Promise<void> {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const { startFakeAnthropic } = await import(path.join(here, "..", "..", "test", "kit", "fakes", "anthropic-server.js"));
  const { startFakeBedrock } = await import(path.join(here, "..", "..", "test", "kit", "fakes", "bedrock-server.js"));
  const { startFakeVertex } = await import(path.join(here, "..", "..", "test", "kit", "fakes", "vertex-server.js"));
  const a = await startFakeAnthropic({ keep: 4 });
  const b = await startFakeBedrock({ ...AWS, keep: 4 });
  const v = await startFakeVertex({ ...GCP, keep: 4 });
  // answers nobody reads back: keep the inner servers' request lists short too
  for (const s of [b.inner, v.inner]) s.respond(() => ({ text: "ok" }));
  a.respond(() => ({ text: "ok" }));
  setInterval(() => {
    b.invocations.length = 0;
    v.predictions.length = 0;
    b.inner.requests.length = 0;
    v.inner.requests.length = 0;
  }, 1000).unref();
  process.send!({ anthropic: a.url, bedrock: b.url, vertex: v.url, key: v.serviceAccountKey() } satisfies Urls);
}

function request(provider: string, name: string): ModelRequest {
  const rows: Row[] = [];
  for (let i = 0; i < 20; i++) {
    rows.push({ role: "user", text: `question ${i}: ${"context ".repeat(40)}`, seq: 2 * i, turn: i + 1, step: 0, at: 0 });
    rows.push({ role: "assistant", text: `answer ${i}: ${"words ".repeat(40)}`, toolCalls: [], seq: 2 * i + 1, turn: i + 1, step: 1, at: 0 });
  }
  rows.push({ role: "user", text: "and now?", seq: 99, turn: 21, step: 0, at: 0 });
  const model = { id: `${provider}/${name}`, provider, name, contextWindow: 200_000, maxOutputTokens: 8192, price: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }, known: true };
  return { model, system: ["bench"], rows, tools: [{ name: "read", description: "Read a file", inputSchema: { type: "object" } }], maxOutputTokens: 1000, extra: {}, sessionId: "bench", sessionStep: 1 };
}

async function step(p: Provider, req: ModelRequest): Promise<void> {
  for await (const _ of p.stream(req, new AbortController().signal)) void _;
}

async function main(): Promise<void> {
  const child = fork(fileURLToPath(import.meta.url), ["--serve"], { stdio: ["ignore", "inherit", "inherit", "ipc"] });
  const urls = await new Promise<Urls>((resolve) => child.once("message", (m) => resolve(m as Urls)));
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "oc-bench-cloud-"));
  const keyFile = path.join(dir, "sa.json");
  fs.writeFileSync(keyFile, JSON.stringify(urls.key));
  const routes: Array<[string, Provider, ModelRequest]> = [
    ["anthropic", createAnthropicProvider({ apiKey: () => "k", baseURL: () => urls.anthropic, cacheTtl: () => "5m" }), request("anthropic", "claude-sonnet-4-5")],
    [
      "bedrock",
      createBedrockProvider({ places: () => ({ env: { AWS_ACCESS_KEY_ID: AWS.accessKeyId, AWS_SECRET_ACCESS_KEY: AWS.secretAccessKey, AWS_REGION: AWS.region } }), baseURL: () => urls.bedrock, cacheTtl: () => "5m" }),
      request("bedrock", "us.anthropic.claude-sonnet-4-5-20250929-v1:0"),
    ],
    ["vertex", createVertexProvider({ places: () => ({ env: { GOOGLE_APPLICATION_CREDENTIALS: keyFile, CLOUD_ML_REGION: GCP.region } }), baseURL: () => `${urls.vertex}/v1`, cacheTtl: () => "5m" }), request("vertex", "claude-sonnet-4-5@20250929")],
  ];
  const wall = new Map<string, number[]>();
  const cpu = new Map<string, number>();
  for (const [name, p, req] of routes) {
    for (let i = 0; i < 10; i++) await step(p, req); // warm: SDK load, JIT, the first token
    wall.set(name, []);
    cpu.set(name, 0);
  }
  // round-robin, so a load spike lands on every route alike
  for (let i = 0; i < STEPS; i++) {
    for (const [name, p, req] of routes) {
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      await step(p, req);
      wall.get(name)!.push(performance.now() - t0);
      const c = process.cpuUsage(c0);
      cpu.set(name, cpu.get(name)! + (c.user + c.system) / 1000);
    }
  }
  child.kill();
  fs.rmSync(dir, { recursive: true, force: true });
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const base = { wall: median(wall.get("anthropic")!), cpu: cpu.get("anthropic")! / STEPS };
  process.stdout.write(`per step at 0 ms latency, ${STEPS} steps each, a 41-row window (median wall; this process's CPU per step)\n`);
  for (const [name] of routes) {
    const w = median(wall.get(name)!);
    const c = cpu.get(name)! / STEPS;
    const vs = name === "anthropic" ? "" : `  (+${(w - base.wall).toFixed(2)} ms wall, +${(c - base.cpu).toFixed(2)} ms CPU vs anthropic)`;
    process.stdout.write(`  ${name.padEnd(10)} ${w.toFixed(2)} ms wall  ${c.toFixed(2)} ms CPU${vs}\n`);
  }
}

if (process.argv.includes("--serve")) void serve();
else void main();

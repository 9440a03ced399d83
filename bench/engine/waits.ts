/**
 * What the wait bounds cost when nothing stalls. (1) A long Anthropic answer through our provider (its
 * fetch relays every chunk through the idle watch) against the same SDK client without it, on the fake
 * server at 0 ms: wall time per request and per text delta. (2) A hook dispatch whose handler prints
 * 10 bytes, 1 MB or 10 MB (only 1 MiB is kept, 10k characters reach the model): wall time.
 *
 *   node dist/bench/engine/waits.js [--runs 15] [--deltas 20000]
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createAnthropicProvider } from "../../extensions/anthropic/provider.js";
import { MessagesClient } from "../../extensions/anthropic/client.js";
import { dispatch } from "../../extensions/hooks/dispatcher.js";
import type { HookSource } from "../../extensions/hooks/api.js";
import { type ModelRequest } from "../../extensions/engine/api.js";
import { IdleWatch, idleFetch, withIdleWatch } from "../../extensions/engine/kit.js";
import { startFakeAnthropic } from "../../test/kit/fakes/anthropic-server.js";

const arg = (name: string, dflt: number): number => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : dflt;
};
const RUNS = arg("--runs", 15);
const DELTAS = arg("--deltas", 20_000);

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function streams(): Promise<void> {
  const fake = await startFakeAnthropic({ chunkChars: 4 });
  const text = "abcd".repeat(DELTAS);
  fake.respond(() => ({ text }));
  const model = { id: "anthropic/claude-sonnet-4-6", provider: "anthropic", name: "claude-sonnet-4-6", contextWindow: 200_000, maxOutputTokens: 64_000 };
  const req = { model, system: ["bench"], rows: [{ role: "user", text: "go", seq: 1, turn: 1, step: 0, at: 0 }], tools: [], maxOutputTokens: 1000, extra: {}, sessionId: "bench", sessionStep: 1 } as unknown as ModelRequest;
  const ours = createAnthropicProvider({ apiKey: () => "k", baseURL: () => fake.url, cacheTtl: () => "off", idleTimeoutMs: () => 90_000 });
  const plain = new MessagesClient({ apiKey: "k", authToken: null, baseURL: fake.url, maxRetries: 0 });
  const relayed = new MessagesClient({ apiKey: "k", authToken: null, baseURL: fake.url, maxRetries: 0, fetch: idleFetch });
  const viaOurs = async () => {
    let n = 0;
    for await (const ev of ours.stream(req, new AbortController().signal)) if (ev.type === "text_delta") n++;
    return n;
  };
  const sdk = (client: MessagesClient) => async () => {
    let n = 0;
    const watch = new IdleWatch(new AbortController().signal, 90_000, "bench");
    const s = await withIdleWatch(watch, () => client.messages.create({ model: "claude-sonnet-4-6", max_tokens: 1000, stream: true, messages: [{ role: "user", content: "go" }] }, { signal: watch.signal }));
    for await (const ev of s) if (ev.type === "content_block_delta") n++;
    watch.stop();
    return n;
  };
  const viaPlain = sdk(plain);
  const viaRelay = sdk(relayed);
  const t = { ours: [] as number[], plain: [] as number[], relay: [] as number[] };
  await viaOurs();
  await viaPlain();
  await viaRelay();
  for (let i = 0; i < RUNS; i++) {
    // round-robin, so a load spike lands on all alike
    for (const [k, f] of [["ours", viaOurs], ["plain", viaPlain], ["relay", viaRelay]] as const) {
      const t0 = performance.now();
      const n = await f();
      t[k].push(performance.now() - t0);
      if (n < DELTAS) throw new Error(`${k}: ${n} deltas, expected ${DELTAS}`);
    }
  }
  await fake.close();
  const o = median(t.ours);
  const p = median(t.plain);
  const r = median(t.relay);
  console.log(`stream of ${DELTAS} text deltas, median of ${RUNS} (load ${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} CPUs):`);
  console.log(`  bare SDK ${p.toFixed(1)} ms; SDK with idleFetch ${r.toFixed(1)} ms (relay ${(r - p).toFixed(1)} ms, ${(((r - p) / DELTAS) * 1000).toFixed(2)} µs per delta); our provider ${o.toFixed(1)} ms (relay + event mapping)`);
}

async function hooks(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "oc-bench-waits-"));
  const env = { project: dir, env: process.env, baseEnv: async () => ({ PATH: process.env.PATH }), record: () => undefined };
  const src = (command: string): HookSource => ({ path: path.join(dir, "s.json"), tier: "local", ecosystem: "oceancode", status: "loaded", groups: [{ event: "UserPromptSubmit", handlers: [{ type: "command", command }] }], skipped: 0, sharedWithClaudeCode: false });
  for (const [label, bytes] of [["10 B", 10], ["1 MB", 1_000_000], ["10 MB", 10 * 1024 * 1024]] as const) {
    const cmd = `node -e 'process.stdout.write("P".repeat(${bytes}))'`;
    const times: number[] = [];
    let ctx = 0;
    for (let i = 0; i < Math.max(3, Math.floor(RUNS / 3)); i++) {
      const t0 = performance.now();
      const r = await dispatch(env, [src(cmd)], "UserPromptSubmit", { prompt: "x" });
      times.push(performance.now() - t0);
      ctx = r.context.join("").length;
    }
    console.log(`hook printing ${label}: dispatch ${median(times).toFixed(1)} ms (median), ${ctx} characters of context`);
  }
  fs.rmSync(dir, { recursive: true, force: true });
}

await streams();
await hooks();

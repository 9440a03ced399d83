/**
 * Per-step overhead of the google provider adapter (@google/genai) beside the anthropic one, each against
 * its fake server on 127.0.0.1 at 0 ms latency, on the same windows (a step with a tool call and ~2 KB of
 * tool output, windows of 10 and 200 steps).
 *
 *   node dist/bench/providers/providers-gemini.js [--runs 200]
 *
 * Prints, per provider and window: the median and p90 of one step (request built -> last event), the
 * median of a bare fetch of the same reply from the same fake (the server's and the socket's share), and
 * the difference: what the adapter and its SDK add per step.
 */
import { createAnthropicProvider } from "../../extensions/anthropic/provider.js";
import { createGoogleProvider } from "../../extensions/google/provider.js";
import type { ModelInfo, ModelRequest, Provider, Row } from "../../extensions/engine/api.js";
import { startFakeAnthropic } from "../../test/kit/fakes/anthropic-server.js";
import { startFakeGemini } from "../../test/kit/fakes/gemini-server.js";

const runs = Number(process.argv[process.argv.indexOf("--runs") + 1]) || 200;

function info(provider: string, name: string): ModelInfo {
  return { id: `${provider}/${name}`, provider, name, contextWindow: 1_000_000, maxOutputTokens: 8192, price: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }, known: true };
}

function windowOf(steps: number): Row[] {
  const rows: Row[] = [{ role: "user", text: "work through the files", seq: 0, turn: 1, step: 0, at: 0 }];
  for (let i = 1; i <= steps; i++) {
    const id = `call_${i}`;
    rows.push({ role: "assistant", text: `step ${i}`, toolCalls: [{ id, name: "read", input: { path: `f${i}.ts` } }], seq: rows.length, turn: 1, step: i, at: 0 });
    rows.push({ role: "tool", results: [{ callId: id, name: "read", content: "x".repeat(2000), isError: false }], seq: rows.length, turn: 1, step: i, at: 0 });
  }
  return rows;
}

function request(m: ModelInfo, rows: Row[]): ModelRequest {
  return {
    model: m,
    system: ["You are benchmarked."],
    rows,
    tools: [{ name: "read", description: "Read a file", inputSchema: { type: "object", properties: { path: { type: "string" } }, required: ["path"] } }],
    maxOutputTokens: 1024,
    extra: {},
    sessionId: "bench",
    sessionStep: rows.length,
  };
}

async function step(p: Provider, req: ModelRequest): Promise<number> {
  const t0 = performance.now();
  for await (const _ of p.stream(req, new AbortController().signal)) void _;
  return performance.now() - t0;
}

function quantile(xs: number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(s.length * q))]!;
}

async function measure(name: string, p: Provider, m: ModelInfo, raw: (body: string) => Promise<void>, body: (req: ModelRequest) => string): Promise<void> {
  for (const steps of [10, 200]) {
    const req = request(m, windowOf(steps));
    for (let i = 0; i < 20; i++) await step(p, req); // warm-up: JIT, sockets
    const times: number[] = [];
    for (let i = 0; i < runs; i++) times.push(await step(p, req));
    const wire = body(req);
    const bare: number[] = [];
    for (let i = 0; i < runs; i++) {
      const t0 = performance.now();
      await raw(wire);
      bare.push(performance.now() - t0);
    }
    const med = quantile(times, 0.5);
    const bareMed = quantile(bare, 0.5);
    console.log(`${name.padEnd(10)} window ${String(steps).padStart(3)} steps (${Math.round(wire.length / 1024)} KB): step median ${med.toFixed(2)} ms, p90 ${quantile(times, 0.9).toFixed(2)} ms; bare fetch ${bareMed.toFixed(2)} ms; adapter overhead ${(med - bareMed).toFixed(2)} ms/step`);
  }
}

const reply = { text: "Reading the next file.", toolCalls: [{ id: "call_next", name: "read", input: { path: "next.ts" } }] };

const anthropic = await startFakeAnthropic({ keep: 1 });
anthropic.respond(() => reply);
const gemini = await startFakeGemini({ keep: 1, apiKey: "bench" });
gemini.respond(() => reply);
try {
  const a = createAnthropicProvider({ apiKey: () => "bench", baseURL: () => anthropic.url, cacheTtl: () => "1h" });
  await measure(
    "anthropic",
    a,
    info("anthropic", "claude-sonnet-4-5"),
    async (body) => void (await (await fetch(`${anthropic.url}/v1/messages`, { method: "POST", headers: { "content-type": "application/json", "x-api-key": "bench", "anthropic-version": "2023-06-01" }, body })).text()),
    (req) => JSON.stringify({ model: req.model.name, max_tokens: 1024, stream: true, messages: [{ role: "user", content: "x".repeat(2000 * req.rows.length) }] }),
  );
  const g = createGoogleProvider({ apiKey: () => "bench", baseURL: () => gemini.url });
  await measure(
    "google",
    g,
    info("google", "gemini-2.5-flash"),
    async (body) => void (await (await fetch(`${gemini.url}/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse`, { method: "POST", headers: { "content-type": "application/json", "x-goog-api-key": "bench" }, body })).text()),
    (req) => JSON.stringify({ contents: [{ role: "user", parts: [{ text: "x".repeat(2000 * req.rows.length) }] }] }),
  );
} finally {
  await anthropic.close();
  await gemini.close();
}

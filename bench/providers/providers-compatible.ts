/**
 * Per-step cost of the OpenAI-compatible presets beside the openai provider they reuse, in process,
 * through the real openai SDK against the fake OpenAI server on 127.0.0.1 at 0 ms latency: one streamed
 * answer of ~400 characters with one tool call per step, with the server's usage and without it (the
 * estimate path).
 *
 *   node dist/bench/providers/providers-compatible.js [--steps 300]
 *
 * Prints the median and p90 ms per step for each route; the difference to `openai` is the preset's own cost.
 */
import { createOpenAIProvider } from "../../extensions/openai/kit.js";
import { BUILT_IN, customPresets } from "../../extensions/openai-compatible/presets.js";
import { createPresetProvider } from "../../extensions/openai-compatible/route.js";
import type { ModelRequest, Provider } from "../../extensions/engine/api.js";
import { startFakeOpenAI } from "../../test/kit/fakes/openai-server.js";

const arg = (name: string, d: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : d;
};
const steps = arg("steps", 300);

function req(provider: string, step: number): ModelRequest {
  return {
    model: { id: `${provider}/m`, provider, name: "m", contextWindow: 128_000, maxOutputTokens: 8192, price: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }, known: false },
    system: ["You are benchmarked."],
    rows: [{ role: "user", text: `step ${step}: read the file`, seq: 0, turn: 1, step: 0, at: 0 }],
    tools: [{ name: "read", description: "Read a file", inputSchema: { type: "object", properties: { path: { type: "string" } } } }],
    maxOutputTokens: 1024,
    extra: {},
    sessionId: "bench",
    sessionStep: step,
  };
}

async function time(p: Provider, id: string): Promise<{ median: number; p90: number }> {
  const xs: number[] = [];
  for (let i = 0; i < steps; i++) {
    const t0 = performance.now();
    for await (const _e of p.stream(req(id, i), new AbortController().signal)) void _e;
    if (i >= 10) xs.push(performance.now() - t0); // the first ten warm the SDK and the connection
  }
  xs.sort((a, b) => a - b);
  return { median: xs[Math.floor(xs.length / 2)]!, p90: xs[Math.floor(xs.length * 0.9)]! };
}

const fake = await startFakeOpenAI({ chunkChars: 16 });
const text = "The file holds the configuration for the build, which lists the sources and the targets. ".repeat(4);
try {
  for (const omitUsage of [false, true]) {
    fake.respond(() => ({ text, toolCalls: [{ name: "read", input: { path: "a.txt" } }], omitUsage }));
    const env = { OLLAMA_HOST: fake.url, LMSTUDIO_BASE_URL: fake.baseURL, VLLM_BASE_URL: fake.baseURL, OPENROUTER_BASE_URL: fake.baseURL, OPENROUTER_API_KEY: "k" };
    const config = { mine: { base_url: fake.baseURL } };
    const routes: Array<[string, Provider]> = [
      ["openai", createOpenAIProvider({ apiKey: () => "k", baseURL: () => fake.baseURL })],
      ...BUILT_IN.map((p): [string, Provider] => [p.id, createPresetProvider(p, { env, config: () => undefined, notice: () => undefined })]),
      ...customPresets(config, new Set()).map((p): [string, Provider] => [p.id, createPresetProvider(p, { env, config: (id) => config[id as "mine"], notice: () => undefined })]),
    ];
    console.log(`usage ${omitUsage ? "absent (estimated)" : "reported"}, ${steps} steps, ms per step:`);
    for (const [id, p] of routes) {
      const s = await time(p, id);
      console.log(`  ${id.padEnd(11)} median ${s.median.toFixed(2)}  p90 ${s.p90.toFixed(2)}`);
    }
  }
} finally {
  await fake.close();
}

/**
 * The OpenAI-compatible presets (extensions/openai-compatible) through the real openai SDK against the fake
 * OpenAI server, each preset's base URL pointed at it the way a user would (OLLAMA_HOST, <ID>_BASE_URL,
 * provider.<name>.base_url): tool calls, usage present and absent, a lacking feature told once, keys,
 * headers, the unreachable server's error; and the provider conformance suite per preset.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { describeProviderContract, type ProviderScenario } from "../../engine/testing/index.js";
import { scenarioReply } from "../../../test/kit/fakes/scenario-reply.js";
import { BUILT_IN, customPresets, ollamaHost, type Preset, type PresetConfig } from "../presets.js";
import { createPresetProvider } from "../route.js";
import { createOpenAIProvider } from "../../openai/kit.js";
import { startFakeOpenAI, type FakeOpenAIServer, type OpenAIReply } from "../../../test/kit/fakes/openai-server.js";
import { drain, failure, model, request, rows } from "../../../test/kit/providers-helpers.js";

const preset = (id: string): Preset => BUILT_IN.find((p) => p.id === id)!;

/** How a user points each preset at a server: the env variable, or the config section for a custom one. */
function pointed(id: string, url: string, base: string): { env: Record<string, string>; config: Record<string, PresetConfig> } {
  switch (id) {
    case "ollama":
      return { env: { OLLAMA_HOST: url.replace(/^http:\/\//, "") }, config: {} };
    case "lmstudio":
      return { env: { LMSTUDIO_BASE_URL: base }, config: {} };
    case "vllm":
      return { env: { VLLM_BASE_URL: base }, config: {} };
    case "openrouter":
      return { env: { OPENROUTER_BASE_URL: base, OPENROUTER_API_KEY: "sk-or-test" }, config: {} };
    default:
      return { env: { MY_KEY: "sk-mine" }, config: { [id]: { base_url: base, api_key_env: "MY_KEY", headers: { "x-team": "blue" }, models: ["coder-7b"] } } };
  }
}

const IDS = ["ollama", "lmstudio", "vllm", "openrouter", "mylocal"] as const;

function make(id: string, fake: FakeOpenAIServer, notices: string[] = [], extraEnv: Record<string, string> = {}) {
  const { env, config } = pointed(id, fake.url, fake.baseURL);
  const p = id === "mylocal" ? customPresets(config, new Set())[0]! : preset(id);
  return createPresetProvider(p, { env: { ...env, ...extraEnv }, config: (k) => config[k], notice: (_s, t) => notices.push(t) });
}

let fake: FakeOpenAIServer;
beforeAll(async () => {
  fake = await startFakeOpenAI();
});
afterAll(() => fake.close());
beforeEach(() => fake.reset());

describe.each(IDS)("preset %s against the fake server", (id) => {
  const M = model(id, id === "openrouter" ? "anthropic/claude-sonnet-4" : "qwen3:8b");

  it("streams a tool call with the preset's endpoint, reports the server's usage, and tells nothing", async () => {
    const notices: string[] = [];
    fake.enqueue({ text: "Reading.", toolCalls: [{ id: "call_1", name: "read", input: { path: "a.txt" } }], usage: { prompt_tokens: 120, cached_tokens: 20, completion_tokens: 7 } });
    const d = await drain(make(id, fake, notices), request(M, [rows.user("read a.txt")]));
    expect(d.calls).toEqual([{ id: "call_1", name: "read", input: { path: "a.txt" } }]);
    expect(d.stop).toBe("tool_use");
    expect(d.usage).toEqual({ inputTokens: 100, outputTokens: 7, cacheReadTokens: 20, cacheWriteTokens: 0 });
    const r = fake.requests[0]!;
    expect(r.path).toBe("/v1/chat/completions");
    expect(r.body).toMatchObject({ model: M.name, stream: true, stream_options: { include_usage: true }, max_tokens: 1024 });
    expect(r.body.max_completion_tokens).toBeUndefined();
    expect(notices).toEqual([]);
  });

  it("a server that sends no usage: estimated from the text, told once over two steps", async () => {
    const notices: string[] = [];
    const p = make(id, fake, notices);
    fake.enqueue({ text: "no usage from me", omitUsage: true }, { text: "nor now", omitUsage: true });
    const a = await drain(p, request(M, [rows.user("hello")]));
    const b = await drain(p, request(M, [rows.user("hello"), rows.assistant("no usage from me"), rows.user("again")]));
    expect(a.usage!.outputTokens).toBe(Math.ceil("no usage from me".length / 4));
    expect(a.usage!.inputTokens).toBeGreaterThan(0);
    expect(b.usage!.inputTokens).toBeGreaterThan(a.usage!.inputTokens);
    expect(notices).toEqual([`${id}/${M.name}: the server reports no token usage: the meter shows an estimate from the text's length`]);
  });
});

describe("what a preset's server lacks is said once", () => {
  const M = model("ollama", "gemma:2b");
  it("a model the server refuses tools for: retried without tools, then sent none; one notice", async () => {
    const notices: string[] = [];
    const p = make("ollama", fake, notices);
    const refuse = { type: "error", status: 400, message: "registry.ollama.ai/library/gemma:2b does not support tools", errorType: "api_error" } as const;
    fake.enqueue(refuse, { text: "text only" }, { text: "still text" });
    expect((await drain(p, request(M, [rows.user("x")]))).text).toBe("text only");
    expect((await drain(p, request(M, [rows.user("x"), rows.assistant("text only"), rows.user("y")]))).text).toBe("still text");
    expect(fake.requests.map((r) => r.body.tools === undefined)).toEqual([false, true, true]);
    expect(notices).toEqual(["ollama/gemma:2b: the server does not support tool calls for this model: it is sent no tools and can only answer in text"]);
    // another session hears it once too; a vLLM-worded refusal is recognised as well
    const v = make("vllm", fake, notices);
    fake.enqueue({ type: "error", status: 400, message: '"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set' }, { text: "ok" });
    expect((await drain(v, request(model("vllm", "m"), [rows.user("x")], { sessionId: "s2" }))).text).toBe("ok");
    expect(notices).toHaveLength(2);
  });

  it("a server that refuses stream_options: sent without it from then on; its missing usage is estimated and told once", async () => {
    const notices: string[] = [];
    const p = make("vllm", fake, notices);
    fake.enqueue({ type: "error", status: 400, message: "Unrecognized request argument supplied: stream_options" }, { text: "first" }, { text: "second" });
    const a = await drain(p, request(model("vllm", "old"), [rows.user("x")]));
    const b = await drain(p, request(model("vllm", "old"), [rows.user("x"), rows.assistant("first"), rows.user("y")]));
    expect([a.text, b.text]).toEqual(["first", "second"]);
    expect(fake.requests.map((r) => r.body.stream_options === undefined)).toEqual([false, true, true]);
    expect(b.usage!.outputTokens).toBe(Math.ceil("second".length / 4));
    expect(notices).toEqual(["vllm/old: the server reports no token usage: the meter shows an estimate from the text's length"]);
  });

  it("an attached image: named in the prompt, told once per session", async () => {
    const notices: string[] = [];
    const p = make("lmstudio", fake, notices);
    const withImage = { ...rows.user("what is this"), images: [{ mediaType: "image/png", data: "iVBORw0KGgo=" }] } as ReturnType<typeof rows.user>;
    await drain(p, request(model("lmstudio", "m"), [withImage]));
    await drain(p, request(model("lmstudio", "m"), [withImage, rows.assistant("ok"), rows.user("and?")]));
    expect(notices).toEqual(["lmstudio/m: this route sends text only: an attached image is named in the prompt, not sent"]);
    expect(String(fake.requests[0]!.body.messages!.at(-1)!.content)).toContain("[an image/png image was attached");
  });

  it("a 400 that is not about tools stays a bad_request (no retry, no notice)", async () => {
    const notices: string[] = [];
    fake.enqueue({ type: "error", status: 400, message: "model 'nope' not found" });
    const e = await failure(make("ollama", fake, notices), request(model("ollama", "nope"), [rows.user("x")]));
    expect(e.code).toBe("bad_request");
    expect(fake.requests).toHaveLength(1);
    expect(notices).toEqual([]);
  });
});

describe("keys, headers and endpoints", () => {
  const M = model("openrouter", "openai/gpt-4o");
  it("openrouter: sends its key and attribution headers; no key is an auth error before any request, naming the fix", async () => {
    await drain(make("openrouter", fake), request(M, [rows.user("x")]));
    const h = fake.requests[0]!.headers;
    expect(h.authorization).toBe("Bearer sk-or-test");
    expect(h["http-referer"]).toBe("https://www.npmjs.com/package/oceancode");
    expect(h["x-title"]).toBe("oceancode");
    const keyless = createPresetProvider(preset("openrouter"), { env: { OPENROUTER_BASE_URL: fake.baseURL }, config: () => undefined });
    const ready = keyless.ready!()!;
    expect(ready.code).toBe("auth");
    expect(ready.message).toBe("no OpenRouter API key: store one with `oceancode key openrouter <key>` or set OPENROUTER_API_KEY");
    expect((await failure(keyless, request(M, [rows.user("x")]))).code).toBe("auth");
    expect(fake.requests).toHaveLength(1);
  });

  it("vllm: VLLM_API_KEY is sent when set, a placeholder otherwise; a custom preset sends its api_key_env key and headers", async () => {
    await drain(make("vllm", fake, [], { VLLM_API_KEY: "vk-1" }), request(model("vllm", "m"), [rows.user("x")]));
    await drain(make("vllm", fake), request(model("vllm", "m"), [rows.user("x")]));
    await drain(make("mylocal", fake), request(model("mylocal", "coder-7b"), [rows.user("x")]));
    expect(fake.requests.map((r) => r.headers.authorization)).toEqual(["Bearer vk-1", "Bearer oceancode-no-key", "Bearer sk-mine"]);
    expect(fake.requests[2]!.headers["x-team"]).toBe("blue");
    expect(make("mylocal", fake).models!()).toEqual([expect.objectContaining({ id: "mylocal/coder-7b", contextWindow: 128_000, price: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 } })]);
  });

  it("the env variable beats provider.<id>.base_url, which beats the default", async () => {
    const p = preset("lmstudio");
    const via = (env: Record<string, string>, cfg?: PresetConfig) => createPresetProvider(p, { env, config: () => cfg });
    fake.enqueue({ text: "by config" }, { text: "by env" });
    expect((await drain(via({}, { base_url: fake.baseURL }), request(model("lmstudio", "m"), [rows.user("x")]))).text).toBe("by config");
    expect((await drain(via({ LMSTUDIO_BASE_URL: fake.baseURL }, { base_url: "http://127.0.0.1:9/v1" }), request(model("lmstudio", "m"), [rows.user("x")]))).text).toBe("by env");
  });

  it("OLLAMA_HOST is read as Ollama reads it", () => {
    expect(ollamaHost("127.0.0.1")).toBe("http://127.0.0.1:11434/v1");
    expect(ollamaHost("0.0.0.0:8080")).toBe("http://127.0.0.1:8080/v1");
    expect(ollamaHost("https://gpu.example:443/")).toBe("https://gpu.example/v1");
    expect(ollamaHost("http://box:11434/v1")).toBe("http://box:11434/v1");
  });

  it("an unreachable server: the error names the URL tried and what to check", async () => {
    for (const [id, env, hint] of [
      ["ollama", { OLLAMA_HOST: "127.0.0.1:9" }, "is `ollama serve` running? OLLAMA_HOST or provider.ollama.base_url moves it"],
      ["vllm", { VLLM_BASE_URL: "http://127.0.0.1:9/v1" }, "is `vllm serve <model>` running?"],
    ] as const) {
      const e = await failure(createPresetProvider(preset(id), { env, config: () => undefined }), request(model(id, "m"), [rows.user("x")]));
      expect(e.code).toBe("network");
      expect(e.message).toContain("cannot reach http://127.0.0.1:9/v1");
      expect(e.message).toContain(hint);
    }
  });

  it("a rejected key names the preset's fix; a custom preset's names its api_key_env", async () => {
    fake.enqueue({ type: "error", status: 401, message: "bad key" }, { type: "error", status: 401, message: "bad key" });
    const or = await failure(make("openrouter", fake), request(M, [rows.user("x")]));
    expect(or.message).toContain("check the API key: store one with `oceancode key openrouter <key>` or set OPENROUTER_API_KEY");
    const mine = await failure(make("mylocal", fake), request(model("mylocal", "m"), [rows.user("x")]));
    expect(mine.message).toContain("set MY_KEY (provider.mylocal.api_key_env names it)");
  });

  it("custom presets: only provider.<name> objects with a base_url whose name no other provider takes", () => {
    const section = { idle_timeout_s: 30, anthropic: { base_url: "http://x" }, bedrock: { base_url: "http://y" }, ollama: { base_url: "http://z" }, box: { base_url: "http://127.0.0.1:1/v1" }, nourl: { headers: {} }, Bad_Name: { base_url: "http://w" } };
    expect(customPresets(section, new Set(["anthropic", "openai", "bedrock"])).map((p) => p.id)).toEqual(["box"]);
  });
});

describe("openai with OPENAI_BASE_URL set (smaller finding 33)", () => {
  it("no key on a configured official URL does not suggest setting the base URL; unset still does", () => {
    const set = createOpenAIProvider({ apiKey: () => undefined, baseURL: () => "https://api.openai.com/v1/" }).ready!()!;
    expect(set.code).toBe("auth");
    expect(set.message).not.toContain("OPENAI_BASE_URL");
    expect(set.message).toContain("OPENAI_API_KEY");
    const unset = createOpenAIProvider({ apiKey: () => undefined, baseURL: () => undefined }).ready!()!;
    expect(unset.message).toContain("a local server needs provider.openai.base_url or OPENAI_BASE_URL instead");
  });

  it("a bad key at a configured server names the key, not the base URL", async () => {
    fake.enqueue({ type: "error", status: 401, message: "Incorrect API key provided" });
    const e = await failure(createOpenAIProvider({ apiKey: () => "bad", baseURL: () => fake.baseURL }), request(model("openai", "gpt-4.1"), [rows.user("x")]));
    expect(e.code).toBe("auth");
    expect(e.message).not.toContain("instead");
    expect(e.message).toContain("OPENAI_API_KEY");
  });
});


const reply = (s: ProviderScenario): OpenAIReply => scenarioReply(s);

for (const id of IDS) {
  describeProviderContract(`${id} preset (openai-compatible, real SDK, fake server)`, async () => {
    const server = await startFakeOpenAI();
    return {
      provider: make(id, server),
      model: id === "openrouter" ? "meta-llama/llama-3.1-8b-instruct" : "llama3.2",
      arrange(s) {
        server.reset();
        server.enqueue(reply(s));
      },
      errors: ["rate_limited", "overloaded", "server", "prompt_too_long", "auth", "network", "bad_request"],
      close: () => server.close(),
    };
  });
}

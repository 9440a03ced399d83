/** The openai provider through the real openai SDK against the fake OpenAI-compatible server. */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createOpenAIProvider, PLACEHOLDER_KEY } from "../provider.js";
import { startFakeOpenAI, type FakeOpenAIServer } from "../../../test/kit/fakes/openai-server.js";
import { drain, failure, model, request, rows } from "../../../test/kit/providers-helpers.js";

let fake: FakeOpenAIServer;
let key: string | undefined = "sk-openai-test";
const M = model("openai", "gpt-4.1");
const provider = () => createOpenAIProvider({ apiKey: () => key, baseURL: () => fake.baseURL });

beforeAll(async () => {
  fake = await startFakeOpenAI();
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.requests.length = 0;
  key = "sk-openai-test";
});

describe("openai provider (real SDK, fake server)", () => {
  it("streams text and asks for usage in the stream", async () => {
    fake.enqueue({ text: "Hello from an OpenAI-compatible server, in chunks." });
    const d = await drain(provider(), request(M, [rows.user("hi")]));
    expect(d.text).toBe("Hello from an OpenAI-compatible server, in chunks.");
    expect(d.deltas).toBeGreaterThan(2);
    expect(d.stop).toBe("end_turn");
    const r = fake.requests[0]!;
    expect(r.headers.authorization).toBe("Bearer sk-openai-test");
    expect(r.body).toMatchObject({ model: "gpt-4.1", stream: true, stream_options: { include_usage: true }, max_tokens: 1024 });
    expect(r.body.messages).toEqual([
      { role: "system", content: "You are a test." },
      { role: "user", content: "hi" },
    ]);
    expect(r.body.tools).toEqual([{ type: "function", function: { name: "read", description: "Read a file", parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"] } } }]);
  });

  it("assembles streamed tool call arguments per index, several calls in one step", async () => {
    const big = { path: "a/very/long/path/to/some/file.ts", pad: "y".repeat(150) };
    fake.enqueue({ text: "Reading.", toolCalls: [{ id: "call_1", name: "read", input: big }, { id: "call_2", name: "read", input: { path: "b" } }] });
    const d = await drain(provider(), request(M, [rows.user("go")]));
    expect(d.calls).toEqual([
      { id: "call_1", name: "read", input: big },
      { id: "call_2", name: "read", input: { path: "b" } },
    ]);
    expect(d.stop).toBe("tool_use");
  });

  it("maps usage: cached_tokens -> cacheReadTokens, inputTokens is the uncached rest", async () => {
    fake.enqueue({ text: "ok", usage: { prompt_tokens: 1000, cached_tokens: 768, completion_tokens: 9 } });
    const d = await drain(provider(), request(M, [rows.user("x")]));
    expect(d.usage).toEqual({ inputTokens: 232, outputTokens: 9, cacheReadTokens: 768, cacheWriteTokens: 0 });
  });

  it("sends assistant tool_calls and tool messages; a growing window only appends (cache hits)", async () => {
    const call = { id: "call_a", name: "read", input: { path: "a" } };
    const w1 = [rows.user("start"), rows.assistant("", [call]), rows.tool([{ callId: "call_a", name: "read", content: "contents ".repeat(200), isError: true }])];
    const w2 = [...w1, rows.assistant("it failed"), rows.user("try again")];
    const p = provider();
    const u1 = (await drain(p, request(M, w1, { system: ["openai cache test"] }))).usage!;
    const u2 = (await drain(p, request(M, w2, { system: ["openai cache test"] }))).usage!;
    const [m1, m2] = fake.requests.map((r) => r.body.messages!);
    expect(m1![2]).toEqual({ role: "assistant", content: null, tool_calls: [{ id: "call_a", type: "function", function: { name: "read", arguments: '{"path":"a"}' } }] });
    expect(m1![3]).toMatchObject({ role: "tool", tool_call_id: "call_a" });
    expect(String(m1![3]!.content).startsWith("Error: contents")).toBe(true);
    expect(JSON.stringify(m2!.slice(0, m1!.length))).toBe(JSON.stringify(m1));
    expect(u1.cacheReadTokens).toBe(0);
    expect(u2.cacheReadTokens).toBeGreaterThan(400);
  });

  it("429 -> rate_limited with retryAfterMs, then success; 500 -> server; 401 -> auth", async () => {
    fake.enqueue(
      { type: "error", status: 429, message: "Rate limit reached", code: "rate_limit_exceeded", headers: { "retry-after-ms": "1500" } },
      { text: "fine now" },
      { type: "error", status: 500 },
      { type: "error", status: 401, message: "Incorrect API key provided", code: "invalid_api_key" },
    );
    const p = provider();
    const req = request(M, [rows.user("x")]);
    const rl = await failure(p, req);
    expect(rl.code).toBe("rate_limited");
    expect(rl.retryAfterMs).toBe(1500);
    expect((await drain(p, req)).text).toBe("fine now");
    expect((await failure(p, req)).code).toBe("server");
    const auth = await failure(p, req);
    expect(auth.code).toBe("auth");
    expect(auth.message).toContain("oceancode key openai");
    expect(fake.requests).toHaveLength(4);
  });

  it("a dropped stream -> network after the partial text; too long -> prompt_too_long", async () => {
    fake.enqueue({ type: "drop", text: "half an ans" }, { type: "too_long", tokens: 130_000, max: 128_000 });
    const drop = await failure(provider(), request(M, [rows.user("x")]));
    expect(drop.code).toBe("network");
    expect(drop.partial).toBe("half an ans");
    const long = await failure(provider(), request(M, [rows.user("x")]));
    expect(long.code).toBe("prompt_too_long");
    expect(long.message).toContain("maximum context length is 128000 tokens");
  });

  it("a local server needs no key (placeholder sent); the official endpoint without a key is an auth error", async () => {
    key = undefined;
    fake.enqueue({ text: "local ok" });
    expect((await drain(provider(), request(M, [rows.user("x")]))).text).toBe("local ok");
    expect(fake.requests[0]!.headers.authorization).toBe(`Bearer ${PLACEHOLDER_KEY}`);
    const official = createOpenAIProvider({ apiKey: () => undefined, baseURL: () => undefined });
    const e = await failure(official, request(M, [rows.user("x")]));
    expect(e.code).toBe("auth");
    for (const fix of ["oceancode key openai <key>", "OPENAI_API_KEY", "oceancode auth"]) expect(e.message).toContain(fix);
  });

  it("an unreachable base URL -> network naming the URL", async () => {
    const dead = createOpenAIProvider({ apiKey: () => "k", baseURL: () => "http://127.0.0.1:9/v1" });
    const e = await failure(dead, request(M, [rows.user("x")]));
    expect(e.code).toBe("network");
    expect(e.message).toContain("http://127.0.0.1:9/v1");
  });
});

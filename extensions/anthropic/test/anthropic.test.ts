/** The anthropic provider through the real @anthropic-ai/sdk against the fake Anthropic server. */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createAnthropicProvider } from "../provider.js";
import type { CacheTtl } from "../messages.js";
import { sentKey, startFakeAnthropic, type FakeAnthropicServer } from "../../../test/kit/fakes/anthropic-server.js";
import { drain, failure, model, request, rows } from "../../../test/kit/providers-helpers.js";

let fake: FakeAnthropicServer;
let key: string | undefined = "sk-ant-test";
let ttl: CacheTtl = "1h";
const M = model("anthropic", "claude-sonnet-4-5");
const provider = () => createAnthropicProvider({ apiKey: () => key, baseURL: () => fake.url, cacheTtl: () => ttl });

beforeAll(async () => {
  fake = await startFakeAnthropic({ apiKey: "sk-ant-test" });
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.requests.length = 0;
  key = "sk-ant-test";
  ttl = "1h";
});

type Block = Record<string, unknown>;
const blocksOf = (i: number) => fake.requests[i]!.body.messages!.map((m) => m.content as Block[]);
const strip = (v: unknown): unknown => JSON.parse(JSON.stringify(v, (k, x: unknown) => (k === "cache_control" ? undefined : x)));

describe("anthropic provider (real SDK, fake server)", () => {
  it("streams text in several deltas and sends a well-formed request", async () => {
    fake.enqueue({ text: "Hello from the fake Anthropic server, streamed in pieces." });
    const d = await drain(provider(), request(M, [rows.user("hi")]));
    expect(d.text).toBe("Hello from the fake Anthropic server, streamed in pieces.");
    expect(d.deltas).toBeGreaterThan(2);
    expect(d.stop).toBe("end_turn");
    const r = fake.requests[0]!;
    expect(r.path).toBe("/v1/messages");
    expect(sentKey(r)).toBe("sk-ant-test");
    expect(r.headers["anthropic-version"]).toBeTruthy();
    expect(r.body).toMatchObject({ model: "claude-sonnet-4-5", max_tokens: 1024, stream: true });
    expect(r.body.tools).toEqual([{ name: "read", description: "Read a file", input_schema: { type: "object", properties: { path: { type: "string" } }, required: ["path"] } }]);
    expect(r.body.messages).toEqual([{ role: "user", content: [{ type: "text", text: "hi", cache_control: { type: "ephemeral", ttl: "1h" } }] }]);
  });

  it("assembles tool_use input from input_json_delta chunks, several tools in one step", async () => {
    const big = { path: "src/some/deeply/nested/file-name.ts", note: "x".repeat(200) };
    fake.enqueue({ text: "Let me look.", toolCalls: [{ id: "toolu_1", name: "read", input: big }, { id: "toolu_2", name: "read", input: { path: "b.txt" } }] });
    const d = await drain(provider(), request(M, [rows.user("read both")]));
    expect(d.text).toBe("Let me look.");
    expect(d.calls).toEqual([
      { id: "toolu_1", name: "read", input: big },
      { id: "toolu_2", name: "read", input: { path: "b.txt" } },
    ]);
    expect(d.stop).toBe("tool_use");
    // tool calls come after the text and before usage/done
    expect(d.events.map((e) => e.type).slice(-4)).toEqual(["tool_call", "tool_call", "usage", "done"]);
  });

  it("maps usage including cache read and cache write tokens", async () => {
    fake.enqueue({ text: "ok", usage: { input_tokens: 11, output_tokens: 7, cache_read_input_tokens: 1500, cache_creation_input_tokens: 300 } });
    const d = await drain(provider(), request(M, [rows.user("u")]));
    expect(d.usage).toEqual({ inputTokens: 11, outputTokens: 7, cacheReadTokens: 1500, cacheWriteTokens: 300 });
  });

  it("sends tool results as tool_result blocks (is_error kept) opening the next user message", async () => {
    fake.enqueue({ text: "done" });
    const call = { id: "toolu_a", name: "read", input: { path: "a" } };
    await drain(
      provider(),
      request(M, [rows.user("go"), rows.assistant("", [call]), rows.tool([{ callId: "toolu_a", name: "read", content: "no such file", isError: true }]), rows.note("a note")]),
    );
    const [, assistant, results] = blocksOf(0);
    expect(assistant).toEqual([{ type: "tool_use", id: "toolu_a", name: "read", input: { path: "a" } }]);
    expect(results![0]).toEqual({ type: "tool_result", tool_use_id: "toolu_a", content: "no such file", is_error: true });
    expect(results![1]).toMatchObject({ type: "text", text: "a note" });
  });

  it("answers an interrupted tool_use and degrades an orphan tool_result to text", async () => {
    fake.enqueue({ text: "ok" });
    await drain(
      provider(),
      request(M, [
        rows.tool([{ callId: "gone", name: "bash", content: "old output" }]),
        rows.assistant("", [{ id: "toolu_x", name: "read", input: {} }]),
        rows.user("never mind"),
      ]),
    );
    const b = blocksOf(0);
    expect(b[0]![0]).toMatchObject({ type: "text", text: "[earlier bash result]\nold output" });
    expect(b[2]![0]).toMatchObject({ type: "tool_result", tool_use_id: "toolu_x", is_error: true });
    expect(b[2]![1]).toMatchObject({ type: "text", text: "never mind" });
  });

  it("429 -> rate_limited with retryAfterMs, and the next request succeeds", async () => {
    fake.enqueue({ type: "error", status: 429, headers: { "retry-after": "2" } }, { text: "after retry" });
    const p = provider();
    const e = await failure(p, request(M, [rows.user("x")]));
    expect(e.code).toBe("rate_limited");
    expect(e.status).toBe(429);
    expect(e.retryAfterMs).toBe(2000);
    expect((await drain(p, request(M, [rows.user("x")]))).text).toBe("after retry");
    expect(fake.requests).toHaveLength(2); // the SDK itself did not retry
  });

  it("maps 529, 500, 401 and an in-stream overloaded error", async () => {
    fake.enqueue({ type: "error", status: 529 }, { type: "error", status: 500 }, { type: "error", status: 401, message: "invalid x-api-key" }, { type: "stream_error", text: "par" });
    const p = provider();
    const req = request(M, [rows.user("x")]);
    expect((await failure(p, req)).code).toBe("overloaded");
    expect((await failure(p, req)).code).toBe("server");
    const auth = await failure(p, req);
    expect(auth.code).toBe("auth");
    expect(auth.message).toContain("oceancode key anthropic");
    const mid = await failure(p, req);
    expect(mid.code).toBe("overloaded");
    expect(mid.partial).toBe("par");
  });

  it("a stream dropped mid-answer -> network, after the partial text", async () => {
    fake.enqueue({ type: "drop", text: "I was saying" });
    const e = await failure(provider(), request(M, [rows.user("x")]));
    expect(e.code).toBe("network");
    expect(e.partial).toBe("I was saying");
  });

  it("a too-long refusal -> prompt_too_long", async () => {
    fake.enqueue({ type: "too_long", tokens: 250_000, max: 200_000 });
    const e = await failure(provider(), request(M, [rows.user("x")]));
    expect(e.code).toBe("prompt_too_long");
    expect(e.message).toContain("prompt is too long: 250000 tokens > 200000 maximum");
  });

  it("no key -> auth error naming the three fixes, and nothing is sent", async () => {
    key = undefined;
    const e = await failure(provider(), request(M, [rows.user("x")]));
    expect(e.code).toBe("auth");
    for (const fix of ["oceancode key anthropic <key>", "ANTHROPIC_API_KEY", "oceancode auth"]) expect(e.message).toContain(fix);
    expect(fake.requests).toHaveLength(0);
  });

  it("an abort mid-request -> aborted", async () => {
    const slow = await startFakeAnthropic({ latencyMs: 2_000 });
    try {
      const ac = new AbortController();
      setTimeout(() => ac.abort(), 50);
      const t0 = Date.now();
      const e = await failure(createAnthropicProvider({ apiKey: () => "k", baseURL: () => slow.url, cacheTtl: () => "1h" }), request(M, [rows.user("x")]), ac.signal);
      expect(e.code).toBe("aborted");
      expect(Date.now() - t0).toBeLessThan(1_500);
    } finally {
      await slow.close();
    }
  });

  it("cache markers: a growing window only appends; markers on system, the last block, and the previous breakpoint", async () => {
    const c1 = { id: "toolu_1", name: "read", input: { path: "a" } };
    const c2 = { id: "toolu_2", name: "read", input: { path: "b" } };
    const w1 = [rows.user("start"), rows.assistant("reading a", [c1]), rows.tool([{ callId: "toolu_1", name: "read", content: "A".repeat(3000) }])];
    const w2 = [...w1, rows.assistant("reading b", [c2]), rows.tool([{ callId: "toolu_2", name: "read", content: "B".repeat(3000) }])];
    const w3 = [...w2, rows.assistant("done"), rows.user("next question")];
    const p = provider();
    const u1 = (await drain(p, request(M, w1, { system: ["cache test"] }))).usage!;
    const u2 = (await drain(p, request(M, w2, { system: ["cache test"] }))).usage!;
    const u3 = (await drain(p, request(M, w3, { system: ["cache test"] }))).usage!;
    const [r1, r2, r3] = fake.requests.map((r) => r.body);

    // tools and system are byte-identical, markers included
    expect(JSON.stringify(r2!.system)).toBe(JSON.stringify(r1!.system));
    expect(JSON.stringify(r2!.tools)).toBe(JSON.stringify(r1!.tools));
    expect((r1!.system as Block[]).at(-1)!.cache_control).toEqual({ type: "ephemeral", ttl: "1h" });

    // every earlier request is a block-for-block prefix of the next (markers are not part of the cached content)
    for (const [a, b] of [[r1!, r2!], [r2!, r3!]] as const) {
      const shared = a.messages!.length;
      expect(JSON.stringify(strip(b.messages!.slice(0, shared - 1)))).toBe(JSON.stringify(strip(a.messages!.slice(0, shared - 1))));
      const lastA = strip(a.messages![shared - 1]) as { content: Block[] };
      const sameB = strip(b.messages![shared - 1]) as { content: Block[] };
      expect(JSON.stringify(sameB.content.slice(0, lastA.content.length))).toBe(JSON.stringify(lastA.content));
    }

    // markers: the last block of the last message, and the block where the previous request's marker sat
    const marked = (body: typeof r1) =>
      body!.messages!.flatMap((m, i) => (m.content as Block[]).flatMap((b, j) => (b.cache_control ? [`${i}.${j}`] : [])));
    expect(marked(r1)).toEqual([`0.0`, `2.0`]);
    expect(marked(r2)).toEqual([`2.0`, `4.0`]);
    expect(marked(r3)).toEqual([`4.0`, `6.0`]);

    // the fake's cache model: each request reads what the previous one wrote
    expect(u1.cacheReadTokens).toBe(0);
    expect(u1.cacheWriteTokens).toBeGreaterThan(700);
    expect(u2.cacheReadTokens).toBe(u1.cacheReadTokens + u1.cacheWriteTokens);
    expect(u3.cacheReadTokens).toBe(u2.cacheReadTokens + u2.cacheWriteTokens);
    expect(u3.inputTokens).toBe(0);
  });

  it("cache_ttl 5m and off", async () => {
    ttl = "5m";
    await drain(provider(), request(M, [rows.user("x")]));
    expect(blocksOf(0)[0]![0]!.cache_control).toEqual({ type: "ephemeral" });
    ttl = "off";
    await drain(provider(), request(M, [rows.user("x")]));
    expect(fake.requests[1]!.raw).not.toContain("cache_control");
  });
});

describe("anthropic provider notices", () => {
  it("the SDK's deprecation console.warn becomes one notice per text, not console output", async () => {
    const fake = await startFakeAnthropic();
    const notices: string[] = [];
    const warned: unknown[] = [];
    const warn = console.warn;
    console.warn = (...a: unknown[]) => void warned.push(a);
    try {
      const p = createAnthropicProvider({ apiKey: () => "k", baseURL: () => fake.url, cacheTtl: () => "1h", notice: (t) => notices.push(t) });
      const old = model("anthropic", "claude-sonnet-4-5-20250929");
      await drain(p, request(old, [rows.user("a")]));
      await drain(p, request(old, [rows.user("b")]));
    } finally {
      console.warn = warn;
      await fake.close();
    }
    expect(warned).toEqual([]);
    expect(notices).toHaveLength(1);
    expect(notices[0]).toContain("deprecated");
  });
});

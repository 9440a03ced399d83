/** The google provider through the real @google/genai SDK against the fake Gemini API, and the provider conformance suite. */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createGoogleProvider } from "../provider.js";
import { startFakeGemini, type FakeGeminiServer, type GeminiReply } from "../../../test/kit/fakes/gemini-server.js";
import { describeProviderContract, type ProviderScenario } from "../../engine/testing/index.js";
import { scenarioReply } from "../../../test/kit/fakes/scenario-reply.js";
import { drain, failure, model, request, rows } from "../../../test/kit/providers-helpers.js";
import fs from "node:fs";
import { googleModels } from "../models.js";
import { SKIP_SIGNATURE, toContents } from "../messages.js";
import { type ModelNameEntry } from "../../engine/api.js";
import { ModelNames } from "../../engine/kit.js";

const KEY = "AIza-test-key";
let fake: FakeGeminiServer;
let key: string | undefined = KEY;
const notices: string[] = [];
const M = model("google", "gemini-2.5-flash");
const provider = (over: { idleMs?: number; cache?: boolean } = {}) =>
  createGoogleProvider({ apiKey: () => key, baseURL: () => fake.url, idleTimeoutMs: () => over.idleMs ?? 0, notice: (t) => notices.push(t), cacheRequested: () => over.cache ?? false });

beforeAll(async () => {
  fake = await startFakeGemini({ apiKey: KEY });
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.reset();
  key = KEY;
  notices.length = 0;
});

describe("google provider (real SDK, fake Gemini API)", () => {
  it("streams text; the request is streamGenerateContent with the key header, system instruction, tools and the output limit", async () => {
    fake.enqueue({ text: "Hello from Gemini, streamed in several pieces." });
    const d = await drain(provider(), request(M, [rows.user("hi")]));
    expect(d.text).toBe("Hello from Gemini, streamed in several pieces.");
    expect(d.deltas).toBeGreaterThan(2);
    expect(d.stop).toBe("end_turn");
    const r = fake.requests[0]!;
    expect(r.path).toBe("/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse");
    expect(r.headers["x-goog-api-key"]).toBe(KEY);
    expect(r.raw).not.toContain(KEY);
    expect(r.body.systemInstruction).toEqual({ parts: [{ text: "You are a test." }] });
    expect(r.body.contents).toEqual([{ role: "user", parts: [{ text: "hi" }] }]);
    expect(r.body.tools).toEqual([{ functionDeclarations: [{ name: "read", description: "Read a file", parametersJsonSchema: { type: "object", properties: { path: { type: "string" } }, required: ["path"] } }] }]);
    expect(r.body.generationConfig).toMatchObject({ maxOutputTokens: 1024 });
  });

  it("function calls: ids the model sends are kept and matched back; calls without ids get one, never sent back; signatures return", async () => {
    fake.enqueue({ text: "Reading.", toolCalls: [{ id: "fc-1", name: "read", input: { path: "a" }, thoughtSignature: "sig-A" }, { name: "read", input: { path: "b" } }] }, { text: "done" });
    const p = provider();
    const d = await drain(p, request(M, [rows.user("go")]));
    expect(d.stop).toBe("tool_use");
    expect(d.calls).toHaveLength(2);
    expect(d.calls[0]).toEqual({ id: "fc-1", name: "read", input: { path: "a" } });
    expect(d.calls[1]!.name).toBe("read");
    expect(d.calls[1]!.input).toEqual({ path: "b" });
    const made = d.calls[1]!.id;
    expect(made.length).toBeGreaterThan(0);
    const w = [rows.user("go"), rows.assistant("Reading.", d.calls), rows.tool([{ callId: "fc-1", name: "read", content: "A" }, { callId: made, name: "read", content: "no such file", isError: true }])];
    expect((await drain(p, request(M, w))).text).toBe("done");
    const sent = fake.requests[1]!.body.contents!;
    expect(sent[1]).toEqual({
      role: "model",
      parts: [{ text: "Reading." }, { functionCall: { id: "fc-1", name: "read", args: { path: "a" } }, thoughtSignature: "sig-A" }, { functionCall: { name: "read", args: { path: "b" } } }],
    });
    expect(sent[2]).toEqual({
      role: "user",
      parts: [{ functionResponse: { id: "fc-1", name: "read", response: { output: "A" } } }, { functionResponse: { name: "read", response: { error: "no such file" } } }],
    });
  });

  it("usage: cachedContentTokenCount -> cacheReadTokens, input is the uncached rest, thoughts count as output; implicit caching hits on a growing window", async () => {
    fake.enqueue({ text: "ok", usage: { promptTokenCount: 1000, cachedContentTokenCount: 750, candidatesTokenCount: 9, thoughtsTokenCount: 20 } });
    const d = await drain(provider(), request(M, [rows.user("x")]));
    expect(d.usage).toEqual({ inputTokens: 250, outputTokens: 29, cacheReadTokens: 750, cacheWriteTokens: 0 });
    const w1 = [rows.user("long ".repeat(400)), rows.assistant("first answer")];
    const w2 = [...w1, rows.user("and then?")];
    const p = provider();
    const u1 = (await drain(p, request(M, w1, { system: ["cache test"] }))).usage!;
    const u2 = (await drain(p, request(M, w2, { system: ["cache test"] }))).usage!;
    const [c1, c2] = fake.requests.slice(1).map((r) => r.body.contents!);
    expect(JSON.stringify(c2!.slice(0, c1!.length))).toBe(JSON.stringify(c1));
    expect(u1.cacheReadTokens).toBe(0);
    expect(u2.cacheReadTokens).toBeGreaterThan(400);
  });

  it("images go as inlineData (user attachments and tool results); a type Gemini does not take is named as text", async () => {
    const png = Buffer.from("89504e470d0a1a0a", "hex").toString("base64");
    const user = { ...rows.user("what is this?"), images: [{ mediaType: "image/png", data: png }, { mediaType: "image/gif", data: "R0lG" }] };
    const call = { id: "fc-img", name: "read", input: { path: "shot.png" } };
    const tool = rows.tool([{ callId: "fc-img", name: "read", content: "an image" }]);
    (tool as { results: Array<{ images?: unknown }> }).results[0]!.images = [{ mediaType: "image/jpeg", data: "/9j/" }];
    fake.enqueue({ text: "a picture" });
    await drain(provider(), request(M, [user, rows.assistant("", [call]), tool]));
    const [u, , t] = fake.requests[0]!.body.contents!;
    expect(u!.parts).toEqual([{ text: "what is this?" }, { inlineData: { mimeType: "image/png", data: png } }, { text: expect.stringContaining("image/gif") }]);
    expect(t!.parts).toEqual([{ functionResponse: { id: "fc-img", name: "read", response: { output: "an image" } } }, { inlineData: { mimeType: "image/jpeg", data: "/9j/" } }]);
  });

  it("errors: 429 with RetryInfo -> rate_limited + retryAfterMs; retry-after header wins; 503 -> overloaded; 500 -> server; too long -> prompt_too_long; bad key -> auth", async () => {
    fake.enqueue(
      { type: "error", status: 429, message: "Resource has been exhausted (e.g. check quota).", retryDelay: "3s" },
      { type: "error", status: 429, headers: { "retry-after": "2" } },
      { type: "error", status: 503, message: "The model is overloaded. Please try again later." },
      { type: "error", status: 500, message: "An internal error has occurred." },
      { type: "too_long", tokens: 1_200_000, max: 1_048_576 },
      { type: "error", status: 403, message: "Permission denied", statusText: "PERMISSION_DENIED" },
      { type: "error", status: 400, message: "Invalid JSON payload received." },
    );
    const p = provider();
    const req = request(M, [rows.user("x")]);
    const rl = await failure(p, req);
    expect([rl.code, rl.retryAfterMs, rl.status]).toEqual(["rate_limited", 3000, 429]);
    expect(rl.message).toContain("Resource has been exhausted");
    expect((await failure(p, req)).retryAfterMs).toBe(2000);
    expect((await failure(p, req)).code).toBe("overloaded");
    expect((await failure(p, req)).code).toBe("server");
    const long = await failure(p, req);
    expect(long.code).toBe("prompt_too_long");
    expect(long.message).toContain("exceeds the maximum number of tokens allowed (1048576)");
    expect((await failure(p, req)).code).toBe("auth");
    expect((await failure(p, req)).code).toBe("bad_request");
    // Google's answer to a wrong key: 400 INVALID_ARGUMENT, reason API_KEY_INVALID
    key = "AIza-wrong";
    const bad = await failure(p, req);
    expect(bad.code).toBe("auth");
    for (const fix of ["oceancode key google <key>", "GEMINI_API_KEY", "oceancode auth"]) expect(bad.message).toContain(fix);
  });

  it("no key: ready() and stream() refuse before any request, naming the fixes", async () => {
    key = undefined;
    const before = fake.count;
    const p = provider();
    expect(p.ready?.()?.code).toBe("auth");
    const e = await failure(p, request(M, [rows.user("x")]));
    expect(e.code).toBe("auth");
    expect(e.message).toContain("oceancode key google");
    expect(fake.count).toBe(before);
  });

  it("a stream dropped mid-answer -> network after the partial text; an error event inside the stream -> its code; a blocked prompt -> refusal", async () => {
    fake.enqueue({ type: "drop", text: "half an ans" }, { type: "stream_error", text: "so far", status: 503 }, { type: "blocked" });
    const drop = await failure(provider(), request(M, [rows.user("x")]));
    expect(drop.code).toBe("network");
    expect(drop.partial).toBe("half an ans");
    expect((await failure(provider(), request(M, [rows.user("x")]))).code).toBe("overloaded");
    expect((await drain(provider(), request(M, [rows.user("x")]))).stop).toBe("refusal");
  });

  it("the idle watch: a server that never answers -> network naming the bound; unreachable -> network naming the URL", async () => {
    fake.enqueue({ type: "hang" });
    const t0 = Date.now();
    const idle = await failure(provider({ idleMs: 300 }), request(M, [rows.user("x")]));
    expect(idle.code).toBe("network");
    expect(idle.message).toContain("provider.idle_timeout_s");
    expect(Date.now() - t0).toBeLessThan(5000);
    const dead = createGoogleProvider({ apiKey: () => "k", baseURL: () => "http://127.0.0.1:9" });
    const e = await failure(dead, request(M, [rows.user("x")]));
    expect(e.code).toBe("network");
    expect(e.message).toContain("http://127.0.0.1:9");
  });

  it("GOOGLE_GENAI_USE_VERTEXAI in the environment does not move it to Vertex AI", async () => {
    const was = process.env.GOOGLE_GENAI_USE_VERTEXAI;
    process.env.GOOGLE_GENAI_USE_VERTEXAI = "true";
    try {
      fake.enqueue({ text: "still Gemini" });
      expect((await drain(createGoogleProvider({ apiKey: () => key, baseURL: () => fake.url }), request(M, [rows.user("x")]))).text).toBe("still Gemini");
      expect(fake.requests[0]!.headers["x-goog-api-key"]).toBe(KEY);
    } finally {
      if (was === undefined) delete process.env.GOOGLE_GENAI_USE_VERTEXAI;
      else process.env.GOOGLE_GENAI_USE_VERTEXAI = was;
    }
  });

  it("asked for cache markers, it says once that Gemini caches implicitly", async () => {
    fake.respond(() => ({ text: "ok" }));
    const p = provider({ cache: true });
    await drain(p, request(M, [rows.user("a")]));
    await drain(p, request(M, [rows.user("b")]));
    expect(notices).toHaveLength(1);
    expect(notices[0]).toContain("implicitly");
  });
});

describe("google contents", () => {
  const none = { signature: () => undefined, needsSignature: false };
  it("an interrupted call is answered with an error response; a result whose call left the window becomes text; the window opens with a user turn", () => {
    const out = toContents([rows.assistant("", [{ id: "fc-a", name: "read", input: {} }]), rows.user("go on"), rows.tool([{ callId: "fc-gone", name: "bash", content: "old" }])], none);
    expect(out[0]).toEqual({ role: "user", parts: [{ text: "(earlier conversation left the window)" }] });
    expect(out[1]!.role).toBe("model");
    expect(out[2]!.parts![0]).toEqual({ functionResponse: { id: "fc-a", name: "read", response: { error: "(no result: the call was interrupted)" } } });
    expect(out[2]!.parts!.at(-1)).toEqual({ text: "[earlier bash result]\nold" });
    expect(out).toHaveLength(3);
  });
  it("on Gemini 3 a call whose signature is gone carries Google's placeholder; a known one is sent as it came", () => {
    const calls = [{ id: "fc-1", name: "read", input: {} }, { id: "fc-2", name: "read", input: {} }];
    const lost = toContents([rows.user("x"), rows.assistant("", calls)], { signature: () => undefined, needsSignature: true });
    expect(lost[1]!.parts!.map((p) => p.thoughtSignature)).toEqual([SKIP_SIGNATURE, undefined]);
    const kept = toContents([rows.user("x"), rows.assistant("", calls)], { signature: (id) => (id === "fc-1" ? "sig" : undefined), needsSignature: true });
    expect(kept[1]!.parts![0]!.thoughtSignature).toBe("sig");
  });
});

describe("google models: the manifest and the catalogue", () => {
  const manifest = JSON.parse(fs.readFileSync(new URL("../manifest.json", import.meta.url), "utf8")) as { contributes: { providers: string[]; models: ModelNameEntry[] } };
  it("the manifest lists exactly the catalogue's ids; the aliases and bare names resolve to them", () => {
    expect(manifest.contributes.models.map((m) => m.id).sort()).toEqual(googleModels().map((m) => m.id).sort());
    const names = ModelNames.fromContributions([{ extension: "google", tier: "bundled", value: manifest.contributes.providers }], [{ extension: "google", tier: "bundled", value: manifest.contributes.models }]);
    expect(names.resolve("gemini-pro").id).toBe("google/gemini-2.5-pro");
    expect(names.resolve("gemini").id).toBe("google/gemini-2.5-flash");
    expect(names.resolve("gemini-2.5-flash-lite").id).toBe("google/gemini-2.5-flash-lite");
    for (const m of googleModels()) expect(m.price.cacheRead).toBeLessThan(m.price.input);
  });
});


// Google answers an overloaded request with 503 and a wrong key with 403
const scenario = (s: ProviderScenario): GeminiReply => scenarioReply(s, { overloaded: 503, auth: 403 });

describeProviderContract("google (real @google/genai SDK, fake Gemini API)", async () => {
  const f = await startFakeGemini({ apiKey: KEY });
  return {
    provider: createGoogleProvider({ apiKey: () => KEY, baseURL: () => f.url }),
    model: "gemini-2.5-flash",
    arrange(s) {
      f.reset();
      f.enqueue(scenario(s));
    },
    errors: ["rate_limited", "overloaded", "server", "prompt_too_long", "auth", "network", "bad_request"],
    close: () => f.close(),
  };
});

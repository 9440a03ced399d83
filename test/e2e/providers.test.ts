/** `oceancode run --model anthropic/... | openai/...` end to end: the compiled CLI, the real SDKs, the fake servers. */
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CLI, runCli, runCliAsync } from "../kit/cli.js";
import { sentKey } from "../kit/fakes/anthropic-server.js";
import { providerFakesForFile, sandboxForEach } from "../kit/file-fixtures.js";

const { anthropic, openai } = providerFakesForFile();
const sb = sandboxForEach("oc-prov-", (s) => s.write("notes.txt", "the secret word is kelp\n"));

type Block = Record<string, unknown>;
const strip = (v: unknown): string => JSON.stringify(v, (k, x: unknown) => (k === "cache_control" ? undefined : x));
const run = (model: string, env: NodeJS.ProcessEnv, ...prompt: string[]) =>
  runCliAsync(["run", "--auto", "--model", model, ...prompt], { cwd: sb.project, env: { ...sb.env, OC_RETRY_BASE_MS: "10", ...env } });

describe("oceancode run on anthropic/<model>", () => {
  it("reads a file through a tool call and answers; the second request only appends and reads the cache", async () => {
    anthropic.enqueue({ text: "Let me read it.", toolCalls: [{ id: "toolu_r1", name: "read", input: { file_path: "notes.txt" } }] }, { text: "The word is kelp." });
    const r = await run("anthropic/claude-sonnet-4-5", { ANTHROPIC_API_KEY: "sk-env", ANTHROPIC_BASE_URL: anthropic.url }, "--format", "json", "what is the word?");
    expect(r.stderr).not.toMatch(/error: (auth|network|server|rate_limit|bad_request|prompt_too_long)/);
    expect(r.code).toBe(0);
    const events = r.stdout.trim().split("\n").map((l) => JSON.parse(l) as { type: string; usage?: { cacheReadTokens: number }; text?: string });
    expect(events.filter((e) => e.type === "text_delta").map((e) => e.text).join("")).toContain("The word is kelp.");
    expect(anthropic.requests).toHaveLength(2);
    const [a, b] = anthropic.requests.map((q) => q.body);
    expect(a!.model).toBe("claude-sonnet-4-5");
    expect(sentKey(anthropic.requests[0]!)).toBe("sk-env");
    const lastMsg = b!.messages!.at(-1)!.content as Block[];
    expect(lastMsg[0]).toMatchObject({ type: "tool_result", tool_use_id: "toolu_r1" });
    expect(String(lastMsg[0]!.content)).toContain("the secret word is kelp");
    expect(lastMsg.at(-1)!.cache_control).toEqual({ type: "ephemeral", ttl: "1h" });
    // request 2 = request 1 + new blocks (markers aside)
    expect(strip(b!.messages!.slice(0, a!.messages!.length))).toBe(strip(a!.messages));
    expect(JSON.stringify(b!.system)).toBe(JSON.stringify(a!.system));
    const steps = events.filter((e) => e.type === "step_end");
    expect(steps).toHaveLength(2);
    expect(steps[1]!.usage!.cacheReadTokens).toBeGreaterThan(0);
  });

  it("an unknown model still works with default limits and says so once", async () => {
    anthropic.enqueue({ text: "first", toolCalls: [{ name: "read", input: { file_path: "notes.txt" } }] }, { text: "second" });
    const env = { ANTHROPIC_BASE_URL: anthropic.url, ANTHROPIC_API_KEY: "k" };
    const r = await run("anthropic/claude-nonexistent-9", env, "hi");
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain("second");
    expect(anthropic.requests).toHaveLength(2);
    expect(r.stderr.match(/unknown model 'anthropic\/claude-nonexistent-9'/g)).toHaveLength(1);
    expect(anthropic.requests[0]!.body.model).toBe("claude-nonexistent-9");
  });

  it("429 then success: the engine retries (the SDK does not)", async () => {
    anthropic.enqueue({ type: "error", status: 429, headers: { "retry-after": "0" } }, { text: "after the retry" });
    const r = await run("anthropic/claude-haiku-4-5", { ANTHROPIC_API_KEY: "k", ANTHROPIC_BASE_URL: anthropic.url }, "hi");
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("after the retry");
    expect(anthropic.requests).toHaveLength(2);
  });

  it("a stream dropped mid-answer is retried and the session carries on", async () => {
    anthropic.enqueue({ type: "drop", text: "half" }, { text: "whole answer" });
    const r = await run("anthropic/claude-sonnet-4-5", { ANTHROPIC_API_KEY: "k", ANTHROPIC_BASE_URL: anthropic.url }, "hi");
    expect(r.stderr).toContain("network");
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain("whole answer");
    expect(anthropic.requests).toHaveLength(2);
  });

  it("the key stored by `oceancode key` is used; ANTHROPIC_API_KEY wins over it", async () => {
    const k = runCli(["key", "anthropic", "sk-from-file-1234"], { cwd: sb.project, env: sb.env });
    expect(k.code).toBe(0);
    const file = path.join(sb.home, ".local", "share", "oceancode", "auth.json");
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect((await run("anthropic/claude-sonnet-4-5", { ANTHROPIC_BASE_URL: anthropic.url }, "one")).code).toBe(0);
    expect((await run("anthropic/claude-sonnet-4-5", { ANTHROPIC_BASE_URL: anthropic.url, ANTHROPIC_API_KEY: "sk-env-wins" }, "two")).code).toBe(0);
    expect(anthropic.requests.map(sentKey)).toEqual(["sk-from-file-1234", "sk-env-wins"]);
  });

  it("a too-long refusal goes through the engine's promptTooLong path: one retry", async () => {
    anthropic.enqueue({ type: "too_long", tokens: 210_000, max: 200_000 }, { text: "fits now" });
    const r = await run("anthropic/claude-sonnet-4-5", { ANTHROPIC_API_KEY: "k", ANTHROPIC_BASE_URL: anthropic.url }, "hi");
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain("fits now");
    expect(anthropic.requests).toHaveLength(2);
  });

  it("no credentials: exit 1 with the ways to fix it, and nothing sent", async () => {
    const r = await run("anthropic/claude-sonnet-4-5", { ANTHROPIC_BASE_URL: anthropic.url }, "hi");
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("oceancode key anthropic <key>");
    expect(r.stderr).toContain("ANTHROPIC_API_KEY");
    expect(r.stderr).toContain("oceancode auth");
    expect(anthropic.requests).toHaveLength(0);
  });

  it("a trivial prompt leaves no optimizing WebAssembly compile behind (node would wait for it before exiting), and its session is on disk", async () => {
    // V8's own trace of every wasm compile (undici's llhttp, behind the SDK's fetch): Liftoff only, never TurboFan
    const r = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
      const child = spawn(process.execPath, ["--trace-wasm-compilation-times", CLI, "run", "--model", "anthropic/claude-sonnet-4-5", "hi"], {
        cwd: sb.project,
        env: { ...sb.env, ANTHROPIC_API_KEY: "sk-env", ANTHROPIC_BASE_URL: anthropic.url },
        stdio: ["ignore", "pipe", "pipe"],
      });
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
      child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
      child.on("error", reject);
      child.on("close", (code) => resolve({ code, stdout, stderr }));
    });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("ok: hi");
    expect(r.stdout).toMatch(/using Liftoff/);
    expect(r.stdout).not.toMatch(/using TurboFan/);
    // exited at once after the kernel's shutdown: the session's rows and its ledger are there
    const id = /session: (\S+)/.exec(r.stderr)?.[1];
    expect(id).toBeDefined();
    const list = runCli(["sessions", "--json"], { cwd: sb.project, env: sb.env });
    expect(list.stdout).toContain(id!);
    expect(fs.existsSync(path.join(sb.env.HOME!, ".local", "share", "oceancode", "session-ledger", id!, "transcript", "turn-0001.md"))).toBe(true);
  });
});

describe("oceancode run on openai/<model> and OpenAI-compatible servers", () => {
  it("a local server through OPENAI_BASE_URL, no key: tool call, tool message, answer", async () => {
    openai.enqueue({ toolCalls: [{ id: "call_r1", name: "read", input: { file_path: "notes.txt" } }] }, { text: "It says kelp." });
    const r = await run("openai/qwen3-coder", { OPENAI_BASE_URL: openai.baseURL }, "what is the word?");
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("It says kelp.");
    expect(openai.requests).toHaveLength(2);
    const msgs = openai.requests[1]!.body.messages!;
    expect(msgs.at(-1)).toMatchObject({ role: "tool", tool_call_id: "call_r1" });
    expect(String(msgs.at(-1)!.content)).toContain("the secret word is kelp");
    expect(openai.requests[0]!.body.model).toBe("qwen3-coder");
    expect(openai.requests[0]!.body.max_tokens).toBeGreaterThan(0);
  });

  it("provider.openai.base_url from the project config, with the key from auth.json", async () => {
    sb.write(".oceancode/oceancode.json", JSON.stringify({ provider: { openai: { base_url: openai.baseURL } } }));
    expect(runCli(["key", "openai", "sk-oa-file-5678"], { cwd: sb.project, env: sb.env }).code).toBe(0);
    const r = await run("openai/gpt-4.1", {}, "hello");
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("ok: hello");
    expect(openai.requests[0]!.headers.authorization).toBe("Bearer sk-oa-file-5678");
  });

  it("a bad provider config value is one clear error line", () => {
    sb.write(".oceancode/oceancode.json", JSON.stringify({ provider: { openai: { base_url: 42 } } }));
    const r = runCli(["run", "--model", "openai/gpt-4.1", "hi"], { cwd: sb.project, env: sb.env });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/provider\.openai\.base_url/);
  });
});

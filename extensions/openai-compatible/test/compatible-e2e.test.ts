/**
 * `oceancode run` on the OpenAI-compatible presets end to end: the compiled CLI, the real openai SDK, the fake
 * OpenAI server standing in for Ollama (OLLAMA_HOST), a user-declared provider (provider.<name>.base_url in
 * the global config), and an unreachable vLLM.
 */
import { spawnSync } from "node:child_process";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { makeSandbox, runCli, runCliAsync, type Sandbox } from "../../../test/kit/cli.js";
import { startFakeOpenAI, type FakeOpenAIServer } from "../../../test/kit/fakes/openai-server.js";

let fake: FakeOpenAIServer;
let sb: Sandbox;
beforeAll(async () => {
  fake = await startFakeOpenAI();
});
afterAll(() => fake.close());
beforeEach(() => {
  sb = makeSandbox("oc-compat-");
  sb.write("notes.txt", "the secret word is kelp\n");
  fake.reset();
});
afterEach(() => sb.cleanup());

const run = (model: string, env: NodeJS.ProcessEnv, ...prompt: string[]) =>
  runCliAsync(["run", "--auto", "--model", model, ...prompt], { cwd: sb.project, env: { ...sb.env, OC_RETRY_BASE_MS: "10", ...env } });
const count = (s: string, needle: string) => s.split(needle).length - 1;

describe("oceancode run on OpenAI-compatible presets", () => {
  it("ollama/<model> via OLLAMA_HOST: a tool call and its result; a server without usage is told once over two steps", async () => {
    fake.enqueue({ text: "Reading.", toolCalls: [{ id: "call_r1", name: "read", input: { file_path: "notes.txt" } }], omitUsage: true }, { text: "The word is kelp.", omitUsage: true });
    const r = await run("ollama/qwen3:8b", { OLLAMA_HOST: fake.url.replace("http://", "") }, "what is the word?");
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain("The word is kelp.");
    expect(fake.requests).toHaveLength(2);
    expect(fake.requests[0]!.body.model).toBe("qwen3:8b");
    expect(fake.requests[0]!.headers.authorization).toBe("Bearer oceancode-no-key");
    const tool = fake.requests[1]!.body.messages!.find((m) => m.role === "tool");
    expect(String(tool?.content)).toContain("the secret word is kelp");
    expect(count(r.stdout + r.stderr, "the server reports no token usage")).toBe(1);
    expect(r.stderr).not.toMatch(/no manifest declares|did not register/);
  });

  it("a provider declared in config (provider.mybox.base_url) answers as mybox/<model> with its key and headers", async () => {
    sb.write(".config/oceancode/oceancode.jsonc", JSON.stringify({ provider: { mybox: { base_url: fake.baseURL, api_key_env: "MYBOX_TOKEN", headers: { "x-team": "blue" }, models: ["coder-7b"] } } }), "home");
    fake.enqueue({ text: "hello from mybox" });
    const r = await run("mybox/coder-7b", { MYBOX_TOKEN: "tok-123" }, "hi");
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain("hello from mybox");
    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0]!.body.model).toBe("coder-7b");
    expect(fake.requests[0]!.headers.authorization).toBe("Bearer tok-123");
    expect(fake.requests[0]!.headers["x-team"]).toBe("blue");
    expect(r.stderr).not.toMatch(/no manifest declares|unknown model/);
  });

  it("openrouter/<vendor>/<model>: the key stored by `oceancode key openrouter` is sent with the attribution headers", async () => {
    const k = runCli(["key", "openrouter", "sk-or-stored-1"], { cwd: sb.project, env: sb.env });
    expect(k.code, k.stderr).toBe(0);
    fake.enqueue({ text: "routed" });
    const r = await run("openrouter/anthropic/claude-sonnet-4", { OPENROUTER_BASE_URL: fake.baseURL }, "hi");
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain("routed");
    const q = fake.requests[0]!;
    expect(q.body.model).toBe("anthropic/claude-sonnet-4");
    expect(q.headers.authorization).toBe("Bearer sk-or-stored-1");
    expect(q.headers["x-title"]).toBe("oceancode");
  });

  it("a checked-out repository cannot declare a provider: its provider.<name>.base_url is held and nothing is sent", async () => {
    sb.write(".oceancode/oceancode.jsonc", JSON.stringify({ provider: { evil: { base_url: fake.baseURL }, ollama: { base_url: fake.baseURL } } }));
    const git = (...a: string[]) => expect(spawnSync("git", ["-C", sb.project, "-c", "user.name=t", "-c", "user.email=t@t", ...a], { encoding: "utf8" }).status).toBe(0);
    git("add", ".oceancode/oceancode.jsonc", "notes.txt");
    git("commit", "-qm", "repo config");
    const evil = await run("evil/x", {}, "the secret word is kelp");
    expect(evil.code).not.toBe(0);
    expect(evil.stderr).toContain("no provider 'evil'");
    // the repo's ollama.base_url is held too: the default endpoint is tried, not the repo's
    const local = await run("ollama/x", { OLLAMA_HOST: "127.0.0.1:9" }, "the secret word is kelp");
    expect(local.code).not.toBe(0);
    expect(local.stderr).toContain("cannot reach http://127.0.0.1:9/v1");
    expect(fake.requests).toHaveLength(0);
  });

  it("an unreachable server: the error names the URL tried and what to check", async () => {
    const r = await run("vllm/some-model", { VLLM_BASE_URL: "http://127.0.0.1:9/v1" }, "hi");
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain("cannot reach http://127.0.0.1:9/v1");
    expect(r.stderr).toContain("is `vllm serve <model>` running?");
  });
});

/**
 * The model catalogue as data (the provider manifests' contributes.models) through the compiled CLI:
 * `oceancode models`, aliases and did-you-mean, the unknown-model notice, the meter's cost from the
 * manifest's price, and `key` / `auth` for every provider, with a canary key that never shows in any output.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI, makeSandbox, runCli, runCliAsync, type RunResult, type Sandbox } from "../../../test/kit/cli.js";
import { hasTmux, startPty } from "../../../test/kit/pty.js";
import { sentKey, startFakeAnthropic, type FakeAnthropicServer } from "../../../test/kit/fakes/anthropic-server.js";
import { startFakeOpenAI, type FakeOpenAIServer } from "../../../test/kit/fakes/openai-server.js";
import { startFakeGemini, type FakeGeminiServer } from "../../../test/kit/fakes/gemini-server.js";

interface Entry {
  id: string;
  aliases?: string[];
  contextWindow?: number;
  maxOutputTokens?: number;
  price?: { input: number; output: number; cacheRead?: number; cacheWrite?: number };
}
const manifest = (id: string) => JSON.parse(fs.readFileSync(path.resolve(__dirname, `../../${id}/manifest.json`), "utf8")) as { contributes?: { models?: Entry[] } };
/** every bundled manifest's catalogue entries */
const extDir = path.resolve(__dirname, "../..");
const allEntries = (): Entry[] =>
  fs.readdirSync(extDir).flatMap((d) => (fs.existsSync(path.join(extDir, d, "manifest.json")) ? (manifest(d).contributes?.models ?? []) : []));
const entry = (id: string) => allEntries().find((e) => e.id === id)!;

const CANARY = "sk-canary-7f3a9c2e1d";
const CANARY_TTY = "sk-canary-tty-4b8e6a";

let anthropic: FakeAnthropicServer;
let openai: FakeOpenAIServer;
let gemini: FakeGeminiServer;
let sb: Sandbox;
/** every stdout/stderr this file's commands print: the canary keys must appear in none */
const outputs: string[] = [];
const keep = (r: RunResult) => (outputs.push(r.stdout, r.stderr), r);
const cli = (args: string[], input = "", env: NodeJS.ProcessEnv = {}) => keep(runCli(args, { cwd: sb.project, env: { ...sb.env, ...env }, input }));
const authFile = () => path.join(sb.home, ".local", "share", "oceancode", "auth.json");

beforeAll(async () => {
  anthropic = await startFakeAnthropic();
  openai = await startFakeOpenAI();
  gemini = await startFakeGemini();
  sb = makeSandbox("oc-catalogue-");
  sb.write("notes.txt", "the word is kelp\n");
});
afterAll(async () => {
  await anthropic.close();
  await openai.close();
  await gemini.close();
  sb.cleanup();
});

describe("oceancode models", () => {
  it("lists the catalogue as text and JSON, filters by provider, and names the nearest provider for a typo", () => {
    const text = cli(["models"]);
    expect(text.code, text.stderr).toBe(0);
    const lines = text.stdout.split("\n");
    expect(lines[0]).toMatch(/^ID\s+CONTEXT\s+OUTPUT\s+USD\/MTOK IN \/ OUT \/ CACHE READ \/ CACHE WRITE\s+TOOLS\s+IMAGES\s+ALIASES$/);
    expect(lines.find((l) => l.startsWith("anthropic/claude-sonnet-4-6 "))).toMatch(/\s1M\s+64k\s+3 \/ 15 \/ 0\.3 \/ 6\s+yes\s+yes\s+sonnet$/);
    expect(lines.find((l) => l.startsWith("openai/gpt-4.1 "))).toMatch(/\s1\.05M\s+32\.8k\s+2 \/ 8 \/ 0\.5 \/ 2\s+yes\s+yes$/);

    const json = cli(["models", "--json"]);
    expect(json.code).toBe(0);
    const rows = (JSON.parse(json.stdout) as { models: Array<Record<string, unknown>> }).models;
    // every manifest entry is listed once, with its figures
    const listed = allEntries().map((e) => e.id);
    expect(rows.map((r) => r.id).sort()).toEqual(listed.sort());
    expect(rows.find((r) => r.id === "anthropic/claude-haiku-4-5")).toEqual({
      id: "anthropic/claude-haiku-4-5",
      provider: "anthropic",
      name: "claude-haiku-4-5",
      aliases: ["haiku"],
      contextWindow: 200000,
      maxOutputTokens: 64000,
      price: { input: 1, output: 5, cacheRead: 0.1, cacheWrite: 2 },
      tools: true,
      images: true,
      defaults: [],
    });

    const only = cli(["models", "--provider", "openai", "--json"]);
    const ids = (JSON.parse(only.stdout) as { models: Array<{ id: string }> }).models.map((m) => m.id);
    expect(ids.length).toBe(manifest("openai").contributes!.models!.length);
    expect(ids.every((id) => id.startsWith("openai/"))).toBe(true);

    const typo = cli(["models", "--provider", "antropic"]);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain("unknown provider 'antropic' (did you mean anthropic?)");
    expect(typo.stdout).toBe("");
    expect(cli(["models", "--bogus"]).stderr).toContain("usage: oceancode models");
  });
});

describe("the catalogue in a run", () => {
  it("an alias resolves to its full id; a typo names the nearest (exit 2, nothing sent)", async () => {
    anthropic.reset();
    anthropic.enqueue({ text: "hello from haiku" });
    const env = { ...sb.env, ANTHROPIC_API_KEY: "sk-test", ANTHROPIC_BASE_URL: anthropic.url, OC_RETRY_BASE_MS: "10" };
    const ok = keep(await runCliAsync(["run", "-m", "haiku", "hi"], { cwd: sb.project, env }));
    expect(ok.code, ok.stderr).toBe(0);
    expect(anthropic.requests.map((r) => r.body.model)).toEqual(["claude-haiku-4-5"]);
    // the request's output limit is the catalogue's (64k), not the 8k default
    expect(anthropic.requests[0]!.body.max_tokens).toBeLessThanOrEqual(64000);
    expect(anthropic.requests[0]!.body.max_tokens).toBeGreaterThan(8192);

    const typo = keep(await runCliAsync(["run", "-m", "sonet", "hi"], { cwd: sb.project, env }));
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain("unknown model 'sonet' (did you mean anthropic/claude-sonnet-4-6");
    expect(anthropic.requests).toHaveLength(1);
  });

  it("the meter's cost is the manifest's price; an unknown model works with defaults and one notice", async () => {
    anthropic.reset();
    const usage = { input_tokens: 1_000_000, output_tokens: 100_000, cache_read_input_tokens: 2_000_000, cache_creation_input_tokens: 500_000 };
    anthropic.enqueue({ text: "priced", usage });
    const env = { ...sb.env, ANTHROPIC_API_KEY: "sk-test", ANTHROPIC_BASE_URL: anthropic.url, OC_RETRY_BASE_MS: "10" };
    const priced = keep(await runCliAsync(["run", "-m", "anthropic/claude-opus-4-1", "--output-format", "json", "hi"], { cwd: sb.project, env }));
    expect(priced.code, priced.stderr).toBe(0);
    const result = JSON.parse(priced.stdout) as { total_cost_usd: number; modelUsage: Record<string, { contextWindow: number; maxOutputTokens: number }> };
    const p = entry("anthropic/claude-opus-4-1").price!;
    const expected = (1_000_000 * p.input + 100_000 * p.output + 2_000_000 * p.cacheRead! + 500_000 * p.cacheWrite!) / 1_000_000;
    expect(result.total_cost_usd).toBeCloseTo(expected, 6);
    expect(Object.values(result.modelUsage)[0]).toMatchObject({ contextWindow: 200000, maxOutputTokens: 32000 });

    // two steps (a tool call, then the answer) in one process: the notice once
    anthropic.reset();
    anthropic.enqueue({ text: "reading", toolCalls: [{ name: "read", input: { file_path: "notes.txt" } }], usage: { input_tokens: 1000, output_tokens: 10 } }, { text: "kelp" });
    const unknown = keep(await runCliAsync(["run", "--auto", "-m", "anthropic/claude-next-9", "--output-format", "json", "word?"], { cwd: sb.project, env }));
    expect(unknown.code, unknown.stderr).toBe(0);
    expect(anthropic.requests).toHaveLength(2);
    expect(anthropic.requests[0]!.body.model).toBe("claude-next-9");
    expect(unknown.stderr.match(/unknown model 'anthropic\/claude-next-9': using defaults/g)).toHaveLength(1);
    const u = JSON.parse(unknown.stdout) as { total_cost_usd: number; modelUsage: Record<string, { contextWindow: number }> };
    expect(u.total_cost_usd).toBe(0);
    expect(Object.values(u.modelUsage)[0]!.contextWindow).toBe(200000);
  });
});

describe("oceancode key and auth for every provider", () => {
  it("key stores a new provider's key (mode 0600) and a run uses the stored key; cloud providers store nothing", async () => {
    const r = cli(["key", "openrouter", CANARY]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`stored the openrouter key (${CANARY.length} characters) in ${authFile()}`);
    expect(fs.statSync(authFile()).mode & 0o777).toBe(0o600);
    expect(cli(["key", "google"], `${CANARY}-g\n`).code).toBe(0);
    expect(cli(["key", "openai", CANARY]).code).toBe(0);
    const stored = JSON.parse(fs.readFileSync(authFile(), "utf8")) as Record<string, { key: string }>;
    expect([stored.openrouter!.key, stored.google!.key, stored.openai!.key]).toEqual([CANARY, `${CANARY}-g`, CANARY]);

    // the run reads the stored key (no OPENAI_API_KEY in its environment)
    openai.enqueue({ text: "answered with the stored key" });
    const env = { ...sb.env, OPENAI_BASE_URL: openai.baseURL, OC_RETRY_BASE_MS: "10" };
    delete env.OPENAI_API_KEY;
    const run = keep(await runCliAsync(["run", "-m", "gpt-5-mini", "hi"], { cwd: sb.project, env }));
    expect(run.code, run.stderr).toBe(0);
    expect(openai.requests.at(-1)!.headers.authorization).toBe(`Bearer ${CANARY}`);
    expect(openai.requests.at(-1)!.body.model).toBe("gpt-5-mini");
    expect(JSON.stringify(openai.requests.at(-1)!.body)).not.toContain(CANARY);
    // the new provider's key, stored from stdin, is the one Gemini gets (an alias picks the model)
    gemini.enqueue({ text: "answered by gemini" });
    const genv = { ...sb.env, GOOGLE_GEMINI_BASE_URL: gemini.url, OC_RETRY_BASE_MS: "10" };
    delete genv.GOOGLE_API_KEY;
    delete genv.GEMINI_API_KEY;
    const grun = keep(await runCliAsync(["run", "-m", "gemini", "hi"], { cwd: sb.project, env: genv }));
    expect(grun.code, grun.stderr).toBe(0);
    expect(grun.stdout).toContain("answered by gemini");
    expect(gemini.requests.at(-1)!.headers["x-goog-api-key"]).toBe(`${CANARY}-g`);
    expect(gemini.requests.at(-1)!.path).toContain("gemini-2.5-flash");

    const before = fs.readFileSync(authFile(), "utf8");
    for (const p of ["bedrock", "vertex"]) {
      const refused = cli(["key", p, "AKIA-not-stored"]);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain(`${p} takes no key from oceancode: its credentials come from`);
      expect(refused.stderr).toContain("nothing stored");
    }
    expect(cli(["key", "claude-code", "x"]).stderr).toContain("claude CLI's own login");
    expect(fs.readFileSync(authFile(), "utf8")).toBe(before);
  });

  it("auth status lists every provider's credentials with its source, never a key", () => {
    const gac = sb.write("adc.json", "{}", "home");
    const env = { ANTHROPIC_API_KEY: CANARY, AWS_PROFILE: "dev", GOOGLE_APPLICATION_CREDENTIALS: gac };
    const text = cli(["auth", "status"], "", env);
    expect(text.code, text.stderr).toBe(0);
    const line = (p: string) => text.stdout.split("\n").find((l) => l.startsWith(`${p} `)) ?? "";
    expect(line("anthropic")).toContain("key from ANTHROPIC_API_KEY");
    expect(line("openai")).toContain(`key in ${authFile()}`);
    expect(line("google")).toContain(`key in ${authFile()}`);
    expect(line("vllm")).toContain("no key (optional): set VLLM_API_KEY");
    expect(line("bedrock")).toContain("its own credential chain: AWS_PROFILE (dev); oceancode stores nothing");
    expect(line("vertex")).toContain(`its own credential chain: GOOGLE_APPLICATION_CREDENTIALS (${gac})`);
    expect(line("ollama")).toContain("no key");

    const json = cli(["auth", "status", "--json"], "", env);
    const rows = (JSON.parse(json.stdout) as { providers: Array<{ provider: string; kind: string; ready: boolean; source?: Record<string, string> }> }).providers;
    expect(rows.find((r) => r.provider === "anthropic")).toMatchObject({ kind: "key", ready: true, source: { kind: "env", variable: "ANTHROPIC_API_KEY" } });
    expect(rows.find((r) => r.provider === "openrouter")).toMatchObject({ kind: "key", ready: true, source: { kind: "file", file: authFile() } });
    expect(rows.find((r) => r.provider === "bedrock")).toMatchObject({ kind: "chain", ready: true, source: { kind: "chain", detail: "AWS_PROFILE (dev)" } });
    // google reads GOOGLE_API_KEY, then GEMINI_API_KEY
    const gemini = cli(["auth", "status", "--json"], "", { GEMINI_API_KEY: CANARY });
    expect((JSON.parse(gemini.stdout) as { providers: Array<{ provider: string; source?: unknown }> }).providers.find((r) => r.provider === "google")!.source).toEqual({ kind: "env", variable: "GEMINI_API_KEY" });
  });

  it.runIf(hasTmux())("key on a terminal asks without echo", async () => {
    const t = await startPty({ args: [CLI, "key", "openrouter"], env: sb.env, cwd: sb.project, cols: 100, rows: 10 });
    try {
      await t.waitFor("openrouter API key (input hidden):");
      t.send(CANARY_TTY);
      t.key("Enter");
      await t.waitFor("stored the openrouter key");
      outputs.push(t.screen());
      expect(t.screen()).not.toContain(CANARY_TTY);
    } finally {
      t.close();
    }
    expect((JSON.parse(fs.readFileSync(authFile(), "utf8")) as Record<string, { key: string }>).openrouter!.key).toBe(CANARY_TTY);
  });

  it("no output of this file shows a canary key", () => {
    expect(outputs.length).toBeGreaterThan(20);
    for (const o of outputs) {
      expect(o).not.toContain(CANARY);
      expect(o).not.toContain(CANARY_TTY);
      expect(o).not.toContain(`…${CANARY.slice(-4)}`);
    }
  });
});

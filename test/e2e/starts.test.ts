/**
 * Issue 11, through the compiled CLI in a temp HOME: a start that fails leaves no session (and a usage-level
 * failure is exit 2), a provider that cannot be reached names its base URL, OpenAI's key hint fits the endpoint.
 */
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { makeSandbox, runCli, runCliAsync, type Sandbox } from "../kit/cli.js";
import { startFakeOpenAI, type FakeOpenAIServer } from "../kit/fakes/openai-server.js";
import { startFakeAnthropic } from "../kit/fakes/anthropic-server.js";

let sb: Sandbox;
beforeEach(() => {
  sb = makeSandbox("oc-starts-");
});
afterEach(() => sb.cleanup());

const oc = (args: string[], env: NodeJS.ProcessEnv = {}) => runCli(["--dir", sb.project, ...args], { env: { ...sb.env, ...env }, cwd: sb.project });
/** every session the database holds, any project */
const stored = () => JSON.parse(oc(["sessions", "--all", "--json"]).stdout) as Array<{ id: string; turns: number; model: string }>;
/** session directories the ledger wrote */
const ledgerDirs = () => {
  const root = path.join(sb.env.XDG_DATA_HOME!, "oceancode", "session-ledger");
  return fs.existsSync(root) ? fs.readdirSync(root) : [];
};
const lines = (s: string) => s.split("\n").filter((l) => l !== "");

describe("a failed start creates no session", () => {
  it("an unknown provider or a short name no manifest lists: exit 2, one line, nothing stored", () => {
    const bogus = oc(["run", "-m", "bogus/x", "hi"]);
    expect(bogus.code).toBe(2);
    expect(lines(bogus.stderr)).toEqual(["oceancode run: no provider 'bogus' for model 'bogus/x' (is its extension installed and enabled? see oceancode inspect)"]);
    const bare = oc(["run", "-m", "nomodel", "hi"]);
    expect(bare.code).toBe(2);
    expect(lines(bare.stderr)).toEqual(["oceancode run: unknown model 'nomodel'; write provider/model for one the catalogue does not list (oceancode completion lists the known names)"]);
    // the global -m before the command is handed to run: the same refusal
    expect(oc(["-m", "bogus/x", "run", "hi"]).code).toBe(2);
    expect(stored()).toEqual([]);
    expect(ledgerDirs()).toEqual([]);
  });

  it("no API key: exit 1 with the fixes, no session line, nothing stored", () => {
    const r = oc(["run", "-m", "anthropic/claude-haiku-4-5", "hi"]);
    expect(r.code).toBe(1);
    expect(lines(r.stderr)).toEqual(["oceancode run: auth: no Anthropic API key: store one with `oceancode key anthropic <key>`, set ANTHROPIC_API_KEY, or run `oceancode auth`"]);
    expect(stored()).toEqual([]);
    expect(ledgerDirs()).toEqual([]);
  });

  it("a resumed session: -m naming a model without a key leaves it as it was; its own model losing its key, the engine records nothing", async () => {
    const anthropic = await startFakeAnthropic();
    try {
      const withKey = { ANTHROPIC_API_KEY: "sk-ant-test", ANTHROPIC_BASE_URL: anthropic.url };
      const first = await runCliAsync(["--dir", sb.project, "run", "-m", "anthropic/claude-haiku-4-5", "one"], { env: { ...sb.env, ...withKey }, cwd: sb.project });
      expect(first.code, first.stderr).toBe(0);
      const other = oc(["run", "-c", "-m", "openai/gpt-4.1", "two"]);
      expect(other.code).toBe(1);
      expect(lines(other.stderr)).toEqual([
        "oceancode run: auth: no OpenAI API key: store one with `oceancode key openai <key>`, set OPENAI_API_KEY, or run `oceancode auth` (a local server needs provider.openai.base_url or OPENAI_BASE_URL instead)",
      ]);
      const own = oc(["run", "-c", "three"], { ANTHROPIC_BASE_URL: anthropic.url });
      expect(own.code).toBe(1);
      expect(own.stderr).toContain("oceancode: error: auth: no Anthropic API key: store one with `oceancode key anthropic <key>`");
      expect(stored()).toEqual([expect.objectContaining({ turns: 1, model: "anthropic/claude-haiku-4-5" })]);
      expect(anthropic.requests).toHaveLength(1);
      const resumed = await runCliAsync(["--dir", sb.project, "run", "-c", "four"], { env: { ...sb.env, ...withKey }, cwd: sb.project });
      expect(resumed.code, resumed.stderr).toBe(0);
      expect(stored()).toEqual([expect.objectContaining({ turns: 2 })]);
    } finally {
      await anthropic.close();
    }
  });

  it("--directory / --dir that does not exist or is a file: exit 2 with the path, nothing stored", () => {
    const missing = path.join(sb.project, "nope");
    const a = runCli(["--directory", missing, "run", "-m", "scripted/echo", "hi"], { env: sb.env, cwd: sb.project });
    expect(a.code).toBe(2);
    expect(a.stdout).toBe("");
    expect(lines(a.stderr)).toEqual([`oceancode: --directory ${missing}: no such directory`]);
    const file = sb.write("file.txt", "x");
    const b = runCli([`--dir=${file}`, "sessions"], { env: sb.env, cwd: sb.project });
    expect(b.code).toBe(2);
    expect(lines(b.stderr)).toEqual([`oceancode: --dir ${file}: not a directory`]);
    expect(stored()).toEqual([]);
    expect(fs.existsSync(missing)).toBe(false);
  });

  it("OC_MAX_STEPS=0: refused before a session exists", () => {
    const r = oc(["run", "-m", "scripted/echo", "hi"], { OC_MAX_STEPS: "0" });
    expect(r.code).toBe(1);
    expect(lines(r.stderr)).toEqual(["oceancode run: OC_MAX_STEPS=0 is rejected: bound a long run with a budget or a clock instead"]);
    expect(stored()).toEqual([]);
  });

  it("a run that starts is stored with its turn, as before", () => {
    const r = oc(["run", "-m", "scripted/echo", "hello"]);
    expect(r.code, r.stderr).toBe(0);
    const id = /^session: (ses_\w+)$/m.exec(r.stderr)?.[1];
    expect(stored()).toEqual([expect.objectContaining({ id, turns: 1, model: "scripted/echo" })]);
    expect(ledgerDirs()).toEqual([id]);
  });
});

/** A 127.0.0.1 port nothing listens on: a server's port, after it closed. */
async function deadPort(): Promise<number> {
  const s = http.createServer();
  await new Promise<void>((r) => s.listen(0, "127.0.0.1", r));
  const port = (s.address() as { port: number }).port;
  await new Promise((r) => s.close(r));
  return port;
}

describe("provider errors name where they went", () => {
  let openai: FakeOpenAIServer;
  beforeAll(async () => {
    openai = await startFakeOpenAI();
  });
  afterAll(async () => {
    await openai.close();
  });

  it("anthropic unreachable: the line names the base URL that was tried", async () => {
    const url = `http://127.0.0.1:${await deadPort()}`;
    const env = { ...sb.env, ANTHROPIC_API_KEY: "sk-ant-test", ANTHROPIC_BASE_URL: url, OC_MAX_RETRIES: "0" };
    const r = await runCliAsync(["--dir", sb.project, "run", "-m", "anthropic/claude-haiku-4-5", "hi"], { env, cwd: sb.project });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`oceancode: error: network: cannot reach the Anthropic API at ${url}: Connection error.\n`);
  });

  it("openai with OPENAI_BASE_URL and a rejected key: the hint is about the key, not the base URL", async () => {
    openai.reset();
    openai.enqueue({ type: "error", status: 401, message: "Incorrect API key provided", code: "invalid_api_key" });
    const env = { ...sb.env, OPENAI_BASE_URL: openai.baseURL, OPENAI_API_KEY: "sk-wrong" };
    const r = await runCliAsync(["--dir", sb.project, "run", "-m", "openai/gpt-4.1", "hi"], { env, cwd: sb.project });
    expect(r.code).toBe(1);
    const line = lines(r.stderr).find((l) => l.startsWith("oceancode: error: auth"));
    expect(line).toBe(
      `oceancode: error: auth (401): ${openai.baseURL} 401: Incorrect API key provided — check the API key: store the key that server expects with \`oceancode key openai <key>\` or set OPENAI_API_KEY`,
    );
  });

  it("openai on the official endpoint with no key: refused before any request, naming OPENAI_BASE_URL for a local server", () => {
    const r = oc(["run", "-m", "openai/gpt-4.1", "hi"]);
    expect(r.code).toBe(1);
    expect(lines(r.stderr)).toEqual([
      "oceancode run: auth: no OpenAI API key: store one with `oceancode key openai <key>`, set OPENAI_API_KEY, or run `oceancode auth` (a local server needs provider.openai.base_url or OPENAI_BASE_URL instead)",
    ]);
  });
});

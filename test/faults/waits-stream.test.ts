/**
 * Waits with a bound, on the provider side: a stream that stops sending (mid-answer, or before its
 * headers) is aborted after provider.idle_timeout_s and retried like a dropped connection, with a
 * notice; Anthropic's pings keep a long, quiet answer alive; a malformed stream is reported as one
 * short, printable line; a server's retry-after is capped at 30 s. The compiled CLI, the real SDKs,
 * the fake servers on 127.0.0.1; what the session stored is read back through `oceancode export`.
 */
import { describe, expect, it } from "vitest";
import { runCliAsync } from "../kit/cli.js";
import { exportAtif, storedAnswer, sessionFromStderr as sessionOf } from "../kit/stored.js";
import type { AnthropicReply } from "../kit/fakes/anthropic-server.js";
import type { OpenAIReply } from "../kit/fakes/openai-server.js";
import { backoffMs, MAX_BACKOFF_MS } from "../../extensions/engine/retry.js";
import { ProviderError } from "../../extensions/engine/kit.js";
import { providerFakesForFile, sandboxForEach } from "../kit/file-fixtures.js";

const { anthropic, openai } = providerFakesForFile({ chunkChars: 8 });

/** the bound these tests run with: short, so a stall costs under a second */
// long enough that a busy machine does not stall a healthy answer this long (a third notice), short enough to keep the file quick
const IDLE_S = 1.5;

const sb = sandboxForEach("oc-waits-stream-", (s) => s.write(".config/oceancode/oceancode.json", JSON.stringify({ provider: { idle_timeout_s: IDLE_S } }), "home"));

interface Case {
  name: string;
  model: string;
  env: () => NodeJS.ProcessEnv;
  /** a stall after `text` (the socket held open 30 s, silent), a hang before headers, a normal answer, a malformed event */
  enqueue(...r: Array<{ stall: string } | { hang: true } | { text: string } | { malformed: string }>): void;
  requests: () => number;
}

const cases: Case[] = [
  {
    name: "anthropic",
    model: "anthropic/claude-sonnet-4-5",
    env: () => ({ ANTHROPIC_API_KEY: "k", ANTHROPIC_BASE_URL: anthropic.url }),
    enqueue: (...rs) =>
      anthropic.enqueue(
        ...rs.map((r): AnthropicReply => ("stall" in r ? { type: "drop", text: r.stall, holdMs: 30_000 } : "hang" in r ? { type: "hang" } : "malformed" in r ? { type: "malformed", text: "x", data: r.malformed } : { text: r.text })),
      ),
    requests: () => anthropic.requests.length,
  },
  {
    name: "openai",
    model: "openai/gpt-4.1",
    env: () => ({ OPENAI_API_KEY: "k", OPENAI_BASE_URL: openai.baseURL }),
    enqueue: (...rs) =>
      openai.enqueue(...rs.map((r): OpenAIReply => ("stall" in r ? { type: "drop", text: r.stall, holdMs: 30_000 } : "hang" in r ? { type: "hang" } : "malformed" in r ? { type: "malformed", text: "x", data: r.malformed } : { text: r.text }))),
    requests: () => openai.requests.length,
  },
];

const run = (c: Case, args: string[]) => runCliAsync(["run", "--auto", "--model", c.model, ...args], { cwd: sb.project, env: { ...sb.env, OC_RETRY_BASE_MS: "10", ...c.env() }, timeoutMs: 40_000 });

describe.each(cases)("a stream that stops sending on $name", (c) => {
  it("mid-answer and before its headers: aborted after provider.idle_timeout_s, retried with a notice, the answer completes", async () => {
    c.enqueue({ stall: "ABANDONED half" }, { hang: true }, { text: "The whole answer." });
    const t0 = Date.now();
    const r = await run(c, ["hi"]);
    const took = Date.now() - t0;
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain("The whole answer.");
    // each stall says what happened and that it is retried; both count against the retries
    const notices = r.stderr.split("\n").filter((l) => l.includes(`sent nothing for ${IDLE_S} s (provider.idle_timeout_s)`));
    expect(notices, r.stderr).toHaveLength(2);
    expect(notices[0]).toMatch(/network: .*retry 1\/4/);
    expect(notices[1]).toMatch(/retry 2\/4/);
    expect(c.requests()).toBe(3);
    // bounded by the idle bound, not the server's 30 s hold: two stalls of IDLE_S plus start-up
    expect(took).toBeLessThan(20_000);
    const traj = await exportAtif(sb, sessionOf(r.stderr));
    expect(storedAnswer(traj)).toBe("The whole answer.");
  });

  it("a malformed event is one short printable line, never the raw data; the retry answers", async () => {
    const junk = `{"type": "content_block_delta", \u001b[31mRED\u001b[0m ${"Z".repeat(5000)}`;
    c.enqueue({ malformed: junk }, { text: "Fine now." });
    const r = await run(c, ["hi"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain("Fine now.");
    expect(r.stderr).toMatch(/server: .*malformed data/);
    expect(r.stderr).not.toContain("\u001b[31m");
    expect(r.stderr).not.toContain("Z".repeat(300));
    expect(r.stderr).not.toContain("Could not parse message into JSON");
    expect(c.requests()).toBe(2);
  });
});

describe("anthropic pings are activity", () => {
  it("a quiet 2 s with a ping every 150 ms is not a stall (one request); the same quiet without pings is retried", async () => {
    const c = cases[0]!;
    anthropic.enqueue({ text: "Thought long, answered once.", pauseMs: 2000, pingEveryMs: 150 });
    const r = await run(c, ["think"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain("Thought long, answered once.");
    expect(r.stderr).not.toContain("provider.idle_timeout_s");
    expect(anthropic.requests.length).toBe(1);

    anthropic.reset();
    anthropic.enqueue({ text: "ABANDONED quiet one", pauseMs: 2000 }, { text: "Second try." });
    const r2 = await run(c, ["think"]);
    expect(r2.code, r2.stderr).toBe(0);
    expect(r2.stderr).toContain(`sent nothing for ${IDLE_S} s (provider.idle_timeout_s)`);
    expect(anthropic.requests.length).toBe(2);
    expect(storedAnswer(await exportAtif(sb, sessionOf(r2.stderr)))).toBe("Second try.");
  });
});

describe("retry-after", () => {
  it("is capped at 30 s, as docs/run.md says", () => {
    expect(MAX_BACKOFF_MS).toBe(30_000);
    expect(backoffMs(new ProviderError("rate_limited", "slow down", { retryAfterMs: 120_000 }), 0)).toBe(30_000);
    expect(backoffMs(new ProviderError("rate_limited", "slow down", { retryAfterMs: 2_000 }), 0)).toBe(2_000);
    expect(backoffMs(new ProviderError("server", "x"), 20)).toBe(30_000);
  });
});

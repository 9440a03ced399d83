/**
 * The cache keep-alive through the compiled CLI `run`, the real Anthropic SDK and the fake server: while a
 * bash step waits ~2.5 s with a 1-second interval, the server receives touches — the last request again,
 * identical but for max_tokens 1 — and the JSON events carry session.cache.touched with its cost; the
 * run does not wait for the keep-alive when it ends.
 */
import { describe, expect, it } from "vitest";
import { anthropicEnv, runCliAsync, type Sandbox } from "../../../test/kit/cli.js";
import type { FakeAnthropicServer } from "../../../test/kit/fakes/anthropic-server.js";
import { MODEL, prefixOf, real, script, sleep, touches } from "./helpers.js";
import { perTest } from "../../../test/kit/file-fixtures.js";

let sb: Sandbox | undefined;
let fake: FakeAnthropicServer | undefined;
const { makeSandbox, startFakeAnthropic } = perTest();

interface Ev {
  type: string;
  touch?: number;
  costUsd?: number;
  usage?: { cacheReadTokens: number; outputTokens: number };
  totals?: { costUsd: number };
}

describe("cache keep-alive on run", () => {
  it("a 2.5 s bash step with a 1 s interval: touches identical in prefix with max_tokens 1, session.cache.touched with cost, and the run exits without waiting", async () => {
    sb = makeSandbox("oc-keepalive-");
    fake = await startFakeAnthropic();
    script(fake, { toolCalls: [{ id: "toolu_sleep", name: "bash", input: { command: "sleep 2.5" } }] });
    const started = Date.now();
    const r = await runCliAsync(["run", "--auto", "--format", "json", "--model", MODEL, "wait a bit"], {
      cwd: sb.project,
      env: anthropicEnv(sb, fake.url, { OC_CACHE_KEEPALIVE_MINUTES: "0.0167" }),
      timeoutMs: 60_000,
    });
    const took = Date.now() - started;
    expect(r.code, r.stderr).toBe(0);
    const [first, second] = real(fake);
    expect(first!.body.max_tokens).toBe(64_000); // claude-sonnet-4-6 publishes 64,000
    expect(second).toBeDefined();
    const sent = touches(fake);
    // touches at ~1 s and ~2 s into the 2.5 s wait (timing on a loaded machine: at least one)
    expect(sent.length).toBeGreaterThanOrEqual(1);
    expect(sent.length).toBeLessThanOrEqual(3);
    for (const t of sent) {
      expect(t.index).toBeGreaterThan(first!.index);
      expect(t.index).toBeLessThan(second!.index);
      expect(t.body.max_tokens).toBe(1);
      expect(prefixOf(t)).toBe(prefixOf(first!)); // same model, system, tools, messages and cache markers
    }
    const evs = r.stdout.trim().split("\n").map((l) => JSON.parse(l) as Ev);
    const touched = evs.filter((e) => e.type === "session.cache.touched");
    expect(touched.map((e) => e.touch)).toEqual(sent.map((_, i) => i + 1));
    for (const e of touched) {
      // the fake's prompt cache: a touch reads the prefix the first request wrote
      expect(e.usage!.cacheReadTokens).toBeGreaterThan(0);
      expect(e.costUsd).toBeGreaterThan(0);
    }
    // the run's final totals include the touches' cost
    const steps = evs.filter((e) => e.type === "usage").at(-1)!;
    expect(steps.totals!.costUsd).toBeGreaterThan(touched.reduce((n, e) => n + e.costUsd!, 0));
    // the run ended without waiting for another touch, and none came after it
    expect(took).toBeLessThan(20_000);
    const n = fake.count;
    await sleep(1500);
    expect(fake.count).toBe(n);
  }, 60_000);
});

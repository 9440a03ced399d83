/**
 * The cache keep-alive in process (a real kernel from dist, the real Anthropic SDK, the fake server): an
 * idle session after its prompt is touched every interval up to OC_CACHE_KEEPALIVE_MAX, and a new prompt
 * starts a new stretch; touches' usage and cost land in session.totals and in storage (totals and an
 * event row); a failing touch is sent once more after min(interval / 2, 3 min), then the keep-alive gives
 * up until the next request; 0 minutes turns it off; closing the session stops it.
 */
import { afterEach, describe, expect, it } from "vitest";
import { startFakeAnthropic, type FakeAnthropicServer } from "../../../test/kit/fakes/anthropic-server.js";
import { boot, isTouch, minutes, MODEL, prefixOf, real, script, sleep, touches, type Booted } from "./helpers.js";
import { type CacheKeepaliveService } from "../api.js";
import { parseMax, parseMinutes, retryDelayMs } from "../kit.js";

let fake: FakeAnthropicServer | undefined;
let b: Booted | undefined;

afterEach(async () => {
  await b?.kernel.shutdown().catch(() => undefined);
  b?.sb.cleanup();
  b = undefined;
  await fake?.close();
  fake = undefined;
});

const INTERVAL = 300;

/** Wait until `cond` holds (or `ms` passed). */
async function until(cond: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond() && Date.now() < end) await sleep(25);
}

describe("cache keep-alive, idle", () => {
  it("an idle session is touched up to OC_CACHE_KEEPALIVE_MAX times; a new prompt starts a new stretch; totals and storage count the touches", async () => {
    fake = await startFakeAnthropic();
    script(fake, { text: "hello" });
    b = await boot(fake, { OC_CACHE_KEEPALIVE_MINUTES: minutes(INTERVAL), OC_CACHE_KEEPALIVE_MAX: "2" });
    const s = await b.engine.createSession({ cwd: b.sb.project, model: MODEL });
    const r = await b.engine.prompt(s, "hi");
    expect(r.reason).toBe("end_turn");
    const costAfterPrompt = s.totals.costUsd;
    await until(() => touches(fake!).length >= 2);
    await sleep(INTERVAL * 3); // no third touch: the cap
    expect(touches(fake).length).toBe(2);
    for (const t of touches(fake)) expect(prefixOf(t)).toBe(prefixOf(real(fake)[0]!));
    const ev = b.touched();
    expect(ev.map((e) => e.touch)).toEqual([1, 2]);
    expect(ev.every((e) => e.sessionId === s.info.id && e.costUsd > 0 && e.usage.cacheReadTokens > 0)).toBe(true);
    const touchCost = ev.reduce((n, e) => n + e.costUsd, 0);
    expect(s.totals.costUsd).toBeCloseTo(costAfterPrompt + touchCost, 10);
    expect(ev[1]!.totals.costUsd).toBeCloseTo(s.totals.costUsd, 10);
    const ka = await b.kernel.service("cache-keepalive");
    expect(ka.state(s.info.id)).toMatchObject({ armed: false, touches: 2, gaveUp: "max" });

    // storage has the touched totals and one event row per touch
    await b.storage.settle();
    expect((await b.storage.loadSession(s.info.id))!.totals.costUsd).toBeCloseTo(s.totals.costUsd, 10);
    expect((await b.storage.events(s.info.id, "session.cache.touched")).length).toBe(2);

    // a real request starts a new stretch
    await b.engine.prompt(s, "again");
    // the touch reaches the server before its answer is counted: wait for both
    await until(() => touches(fake!).length >= 3 && b!.touched().length >= 3);
    expect(b.touched().at(-1)!.touch).toBe(1);
    const last = touches(fake).at(-1)!;
    expect(prefixOf(last)).toBe(prefixOf(real(fake).at(-1)!));

    // closing the session stops it
    await b.engine.closeSession(s, "exit");
    const n = fake.count;
    await sleep(INTERVAL * 3);
    expect(fake.count).toBe(n);
  }, 30_000);

  it("a failing touch (HTTP 500) is sent once more after half the interval, then the keep-alive gives up until the next request", async () => {
    fake = await startFakeAnthropic();
    const at: number[] = [];
    fake.respond((q) => {
      if (!isTouch(q)) return { text: "hello" };
      at.push(Date.now());
      return { type: "error", status: 500, message: "boom" };
    });
    b = await boot(fake, { OC_CACHE_KEEPALIVE_MINUTES: minutes(INTERVAL) });
    const s = await b.engine.createSession({ cwd: b.sb.project, model: MODEL });
    await b.engine.prompt(s, "hi");
    await until(() => touches(fake!).length >= 2);
    await sleep(INTERVAL * 4);
    // the retry came half an interval after the failure, not a whole one
    expect(at[1]! - at[0]!).toBeGreaterThanOrEqual(INTERVAL / 2 - 20);
    expect(at[1]! - at[0]!).toBeLessThan(INTERVAL);
    expect(touches(fake).length).toBe(2);
    expect(b.touched()).toEqual([]);
    const ka = await b.kernel.service("cache-keepalive");
    expect(ka.state(s.info.id)).toMatchObject({ armed: false, touches: 0, gaveUp: "failed" });
    // the next real request re-arms it (and the touch now succeeds)
    script(fake, { text: "hello" });
    await b.engine.prompt(s, "again");
    await until(() => b!.touched().length >= 1);
    expect(b.touched()[0]!.touch).toBe(1);
    expect(touches(fake).length).toBe(3);
  }, 30_000);

  it("Esc on a running turn does not stop it: after an interrupted bash wait the session is still touched", async () => {
    fake = await startFakeAnthropic();
    script(fake, { toolCalls: [{ id: "toolu_sleep", name: "bash", input: { command: "sleep 5" } }] });
    b = await boot(fake, { OC_CACHE_KEEPALIVE_MINUTES: minutes(INTERVAL) });
    const s = await b.engine.createSession({ cwd: b.sb.project, model: MODEL });
    const esc = new AbortController();
    setTimeout(() => esc.abort(), 200);
    const r = await b.engine.prompt(s, "wait", { signal: esc.signal });
    expect(r.reason).toBe("aborted");
    const before = touches(fake).length;
    await until(() => touches(fake!).length >= before + 2);
    expect(touches(fake).length).toBeGreaterThanOrEqual(before + 2);
    expect(prefixOf(touches(fake).at(-1)!)).toBe(prefixOf(real(fake)[0]!));
  }, 30_000);

  it("the variables: decimals, 0 turns it off, junk is ignored (parseMinutes, parseMax, retryDelayMs)", () => {
    expect([parseMinutes("50"), parseMinutes("0.0167"), parseMinutes(".5"), parseMinutes("0")]).toEqual([50, 0.0167, 0.5, 0]);
    expect([parseMinutes("-1"), parseMinutes("abc"), parseMinutes("1e3"), parseMinutes("")]).toEqual([undefined, undefined, undefined, undefined]);
    expect([parseMax("48"), parseMax("0"), parseMax("2.5"), parseMax("-2")]).toEqual([48, 0, undefined, undefined]);
    expect([retryDelayMs(1000), retryDelayMs(50 * 60_000)]).toEqual([500, 3 * 60_000]);
  });

  it("OC_CACHE_KEEPALIVE_MINUTES=0 turns it off; the scripted provider is never touched", async () => {
    fake = await startFakeAnthropic();
    script(fake, { text: "hello" });
    b = await boot(fake, { OC_CACHE_KEEPALIVE_MINUTES: "0" });
    const s = await b.engine.createSession({ cwd: b.sb.project, model: MODEL });
    await b.engine.prompt(s, "hi");
    const ka = await b.kernel.service("cache-keepalive");
    expect(ka.settings().intervalMs).toBe(0);
    await sleep(600);
    expect(touches(fake)).toEqual([]);
    await b.kernel.shutdown();
    b.sb.cleanup();

    b = await boot(fake, { OC_CACHE_KEEPALIVE_MINUTES: minutes(100) });
    const sc = await b.engine.createSession({ cwd: b.sb.project, model: "scripted/echo" });
    await b.engine.prompt(sc, "hi");
    await sleep(400);
    const ka2 = await b.kernel.service("cache-keepalive");
    expect(ka2.state(sc.info.id)).toBeUndefined();
    expect(b.touched()).toEqual([]);
  }, 30_000);
});

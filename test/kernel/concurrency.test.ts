/**
 * start() is idempotent and safe under concurrency, and concurrent service() calls during start share
 * one activation: every call resolves to the same instance, no extension is marked failed, and each
 * activate() runs once. Also: an activate() that never settles is timed out with a coded error.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeEnv, baseManifest, events, resetEvents, type TestEnv } from "./env.js";

let t: TestEnv;
beforeEach(() => {
  t = makeEnv();
  resetEvents();
});
afterEach(() => t.cleanup());

const SLOW_PROVIDER = (id: string, service: string) => `
const ev = (globalThis.__ocEvents ??= []);
export default {
  async activate(ctx) {
    ev.push("activate:${id}");
    await new Promise((r) => setTimeout(r, 30));
    ctx.provide("${service}", { made: Math.random() });
  },
};
`;

describe("start() and service() under concurrency", () => {
  it("two concurrent start() calls and 20 concurrent service() calls during start: one instance, nothing failed, activate() once", async () => {
    // a slow onStartup extension keeps start busy while the service calls arrive; the service's provider
    // (lazy) requires a service of another slow lazy extension
    t.addExt({ id: "boot", manifest: baseManifest("boot", { activation: ["onStartup"], provides: ["bootsvc"] }), code: SLOW_PROVIDER("boot", "bootsvc") });
    t.addExt({ id: "base", manifest: baseManifest("base", { provides: ["base"] }), code: SLOW_PROVIDER("base", "base") });
    t.addExt({ id: "svc", manifest: baseManifest("svc", { provides: ["svc"], requires: ["base"] }), code: SLOW_PROVIDER("svc", "svc") });
    const k = await t.discover();
    const starts = [k.start(), k.start()];
    const calls = Array.from({ length: 20 }, () => k.service("svc"));
    const bases = Array.from({ length: 5 }, () => k.service("base"));
    const [instances, baseInstances] = await Promise.all([Promise.all(calls), Promise.all(bases), Promise.all(starts)]);
    expect(new Set(instances).size).toBe(1);
    expect(new Set(baseInstances).size).toBe(1);
    expect(await k.service("svc")).toBe(instances[0]);
    const states = Object.fromEntries(k.introspect().extensions.map((e) => [e.id, e.state]));
    expect(states).toEqual({ base: "active", boot: "active", svc: "active" });
    expect(events().filter((e) => e === "activate:svc")).toHaveLength(1);
    expect(events().filter((e) => e === "activate:base")).toHaveLength(1);
    expect(events().filter((e) => e === "activate:boot")).toHaveLength(1);
    expect(t.logs).toEqual([]);
    await k.start();
    expect(events().filter((e) => e === "activate:boot")).toHaveLength(1);
  });

  it("service() and activate() before start() start the kernel once", async () => {
    t.addExt({ id: "svc", manifest: baseManifest("svc", { provides: ["svc"], activation: ["onSession", "onStartup"] }), code: SLOW_PROVIDER("svc", "svc") });
    const k = await t.discover();
    const [a] = await Promise.all([k.service("svc"), k.activate("onSession"), k.activate("onSession")]);
    expect(await k.service("svc")).toBe(a);
    expect(events().filter((e) => e === "activate:svc")).toHaveLength(1);
    expect(t.logs).toEqual([]);
  });
});

describe("activation timeout", () => {
  it("an activate() that never settles fails its extension with OC_ERR_ACTIVATION_TIMEOUT; the others load", async () => {
    t.env.OC_ACTIVATION_TIMEOUT_MS = "200";
    t.addExt({ id: "hang", manifest: baseManifest("hang", { activation: ["onStartup"] }), code: `export default { activate() { return new Promise(() => {}); } };` });
    t.addExt({ id: "ok", manifest: baseManifest("ok", { activation: ["onStartup"] }) });
    const k = await t.discover();
    const t0 = Date.now();
    await k.start();
    expect(Date.now() - t0).toBeLessThan(5_000);
    const hang = k.introspect().extensions.find((e) => e.id === "hang")!;
    expect(hang.state).toBe("failed");
    expect(hang.reason).toMatch(/^OC_ERR_ACTIVATION_TIMEOUT: extension 'hang' .* did not finish activating within 200 ms/);
    expect(k.introspect().extensions.find((e) => e.id === "ok")!.state).toBe("active");
    expect(t.logs.some((l) => l.startsWith("error: OC_ERR_ACTIVATION_TIMEOUT: extension 'hang'"))).toBe(true);
  });
});

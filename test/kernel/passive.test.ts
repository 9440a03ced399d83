/**
 * A passive provider (serve, inspect) is not activated by being another extension's `optional`: a plain
 * session does not load it. Activated first (a server, a host's service()), its dependents see it.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeEnv, baseManifest, events, resetEvents, RECORDING_CODE, type TestEnv } from "./env.js";

let t: TestEnv;
beforeEach(() => {
  t = makeEnv();
  resetEvents();
  t.addExt({ id: "srv", manifest: baseManifest("srv", { passive: true, provides: ["srv"] }), code: RECORDING_CODE("srv", `ctx.provide("srv", { hello: () => "hi" });`) });
  t.addExt({ id: "plain", manifest: baseManifest("plain", { provides: ["plain"] }), code: RECORDING_CODE("plain", `ctx.provide("plain", 1);`) });
  // the dependent records what its optional services looked like when it activated
  t.addExt({
    id: "user",
    manifest: baseManifest("user", { activation: ["onSession"], optional: ["srv", "plain"] }),
    code: RECORDING_CODE("user", `ev.push("srv:" + (ctx.services.tryGet("srv")?.hello() ?? "absent"), "plain:" + ctx.services.has("plain"));`),
  });
});
afterEach(() => t.cleanup());

describe("passive providers", () => {
  it("an optional dependency on a passive provider does not activate it; on a plain one it still does", async () => {
    const k = await t.discover();
    await k.activate("onSession");
    expect(events()).toContain("srv:absent");
    expect(events()).toContain("plain:true");
    expect(events()).not.toContain("activate:srv");
    expect(k.introspect().extensions.find((e) => e.id === "srv")?.state).toBe("lazy");
    await k.shutdown("done");
  });

  it("activated before its dependents (as a server does), the passive provider is theirs to use", async () => {
    const k = await t.discover();
    expect(await k.service<{ hello(): string }>("srv").then((s) => s.hello())).toBe("hi");
    await k.activate("onSession");
    expect(events()).toContain("srv:hi");
    expect(events().indexOf("activate:srv")).toBeLessThan(events().indexOf("activate:user"));
    await k.shutdown("done");
  });
});

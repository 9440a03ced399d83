/**
 * The kernel's log plumbing: ctx.log passes the extension id as a field; one structured sink (attached by a
 * trusted onStartup extension, once) sees every line at every level before the display, which shows the
 * sink's text as `[ext] text`; trace goes to the sink only; an untrusted-tier or lazy extension may not attach.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeEnv, baseManifest, events, resetEvents, type TestEnv } from "./env.js";

let t: TestEnv;
beforeEach(() => {
  t = makeEnv();
  resetEvents();
});
afterEach(() => t.cleanup());

const attach = (label: string) => `try { ctx.setLogSink(() => ""); ev.push("${label}:attached"); } catch (e) { ev.push("${label}:" + e.code); }`;

describe("kernel log sink", () => {
  it("the sink sees every line with ext and fields and chooses the displayed text; a second sink, a lazy or a local-tier extension is refused", async () => {
    t.addExt({
      id: "sinker",
      manifest: baseManifest("sinker", { activation: ["onStartup"] }),
      code: `const ev = (globalThis.__ocEvents ??= []);
export default { activate(ctx) {
  const emit = ctx.setLogSink((level, msg, fields) => { ev.push("sink:" + level + ":" + msg + ":" + JSON.stringify(fields)); return msg.toUpperCase(); });
  ${attach("second")}
  emit("trace", "only the sink", { ext: "other" });
} };`,
    });
    t.addExt({
      id: "lazyone",
      manifest: baseManifest("lazyone", { activation: ["onEvent:go"] }),
      code: `const ev = (globalThis.__ocEvents ??= []);
export default { activate(ctx) { ${attach("lazy")} ctx.log.warn("hello", { k: 1 }); ctx.log.debug("quiet"); } };`,
    });
    t.addExt({ id: "localone", manifest: baseManifest("localone", { activation: ["onStartup"] }), code: `const ev = (globalThis.__ocEvents ??= []);\nexport default { activate(ctx) { ${attach("local")} } };` }, `${t.project}/.oceancode`);
    const k = await t.discover();
    await k.start();
    await k.activate("onEvent:go");
    const ev = events();
    expect(ev).toContain("second:OC_ERR_DUPLICATE_SERVICE");
    expect(ev).toContain("lazy:OC_ERR_SERVICE_NOT_DECLARED");
    expect(ev).toContain("local:OC_ERR_SERVICE_NOT_DECLARED");
    expect(ev).toContain('sink:trace:only the sink:{"ext":"other"}');
    expect(ev).toContain('sink:warn:hello:{"k":1,"ext":"lazyone"}');
    expect(ev).toContain('sink:debug:quiet:{"ext":"lazyone"}');
    // the display got the sink's text with the id in front; trace never reached it
    expect(t.logs).toContain("warn: [lazyone] HELLO");
    expect(t.logs.join("\n")).not.toContain("only the sink");
  });

  it("without a sink, lines show as before: `[ext] text`", async () => {
    t.addExt({ id: "plain", manifest: baseManifest("plain", { activation: ["onStartup"] }), code: `export default { activate(ctx) { ctx.log.error("boom"); } };` });
    const k = await t.discover();
    await k.start();
    expect(t.logs).toEqual(["error: [plain] boom"]);
  });
});

/** Manifest and dependency errors: coded, one line, naming the file (and line) or both extensions. */
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ErrorCodes } from "../../kernel/errors.js";
import { makeEnv, baseManifest, caught, events, resetEvents, type TestEnv } from "./env.js";

let t: TestEnv;
beforeEach(() => {
  t = makeEnv();
  resetEvents();
});
afterEach(() => t.cleanup());

const file = (id: string) => path.join(t.bundled, "extensions", id, "manifest.json");

/** A broken extension is marked failed with one warning naming it; the rest of the kernel boots. */
async function failedWith(id: string): Promise<{ state: string; reason: string; warning: string }> {
  const k = await t.discover();
  const rec = k.introspect().extensions.find((e) => e.id === id)!;
  return { state: rec.state, reason: rec.reason ?? "", warning: k.warnings.find((w) => w.includes(`'${id}'`)) ?? "" };
}

describe("manifest errors (before any extension code runs): that extension fails, the rest boots", () => {
  it("a wrong field type names the file, line and field", async () => {
    t.addExt({ id: "bad", rawManifest: '{\n  "id": "bad",\n  "version": "1.0.0",\n  "kernel": "^0.1.0",\n  "main": "index.js",\n  "requires": "engine"\n}\n' });
    const f = await failedWith("bad");
    expect(f.state).toBe("failed");
    expect(f.reason).toContain(`${ErrorCodes.MANIFEST_INVALID}: ${file("bad")}:6: requires: expected array`);
    expect(f.warning).toContain(`${file("bad")}:6: requires: expected array`);
    expect(events()).toEqual([]);
  });

  it("an unknown field names the file, the field and its line", async () => {
    t.addExt({ id: "bad", rawManifest: '{\n  "id": "bad",\n  "version": "1.0.0",\n  "kernel": "^0.1.0",\n  "main": "index.js",\n  "colour": "blue"\n}\n' });
    const f = await failedWith("bad");
    expect(f.state).toBe("failed");
    expect(f.reason).toContain(file("bad"));
    expect(f.reason).toContain("unknown field 'colour'");
    expect(f.reason).toMatch(/manifest\.json:6:/);
  });

  it("a missing id names the file and the field", async () => {
    t.addExt({ id: "noid", rawManifest: JSON.stringify({ version: "1.0.0", kernel: "^0.1.0", main: "index.js" }) });
    const f = await failedWith("noid");
    expect(f.state).toBe("failed");
    expect(f.reason).toContain(`${ErrorCodes.MANIFEST_INVALID}: ${file("noid")}:1: missing required field 'id'`);
  });

  it("broken JSON names the file and line", async () => {
    t.addExt({ id: "broken", rawManifest: '{\n  "id": "broken",\n  "version": \n}\n' });
    const f = await failedWith("broken");
    expect(f.state).toBe("failed");
    expect(f.reason).toMatch(new RegExp(`^${ErrorCodes.MANIFEST_INVALID}: ${file("broken").replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}:4: broken JSON`));
  });

  it("a broken manifest of a disabled extension is ignored", async () => {
    t.addExt({ id: "bad", rawManifest: '{"id": 3}' });
    t.write(path.join(t.project, ".oceancode", "oceancode.json"), JSON.stringify({ extensions: { disabled: ["bad"] } }));
    const k = await t.discover();
    expect(k.introspect().extensions[0]).toMatchObject({ id: "bad", state: "disabled" });
  });

  it("kernel ranges: caret ranges and other semver ranges are honoured", async () => {
    const ranges: Record<string, string> = { r1: "^0.1.0", r2: "^0.2.0", r3: "^0.0.9", r4: ">=0.1.0 <1", r5: "0.x", r6: "^1.0.0" };
    for (const [id, kernel] of Object.entries(ranges)) t.addExt({ id, manifest: baseManifest(id, { kernel }) });
    const k = await t.discover();
    const states = Object.fromEntries(k.introspect().extensions.map((e) => [e.id, e.state]));
    expect(states).toEqual({ r1: "lazy", r2: "disabled", r3: "disabled", r4: "lazy", r5: "lazy", r6: "disabled" });
  });

  it("a kernel range this kernel does not satisfy disables the extension with a warning", async () => {
    t.addExt({ id: "future", manifest: baseManifest("future", { kernel: "^9.0.0" }) });
    const k = await t.discover();
    expect(k.introspect().extensions[0]?.state).toBe("disabled");
    expect(k.warnings.join("\n")).toContain(ErrorCodes.KERNEL_RANGE);
  });
});

describe("dependency errors at boot", () => {
  it("missing: that extension fails, naming itself and the service; the others boot", async () => {
    t.addExt({ id: "needy", manifest: baseManifest("needy", { requires: ["engine"] }) });
    t.addExt({ id: "fine", manifest: baseManifest("fine") });
    const f = await failedWith("needy");
    expect(f.state).toBe("failed");
    expect(f.reason).toContain(ErrorCodes.DEPENDENCY_MISSING);
    expect(f.warning).toContain("'engine'");
    const k = await t.discover();
    expect(k.introspect().extensions.find((e) => e.id === "fine")?.state).toBe("lazy");
  });

  it("a failed extension takes down what requires it, and nothing else", async () => {
    t.addExt({ id: "broken", rawManifest: '{"id": "broken", "version": 1}' });
    t.addExt({ id: "leaf", manifest: baseManifest("leaf", { provides: ["leafsvc"] }) });
    t.addExt({ id: "mid", manifest: baseManifest("mid", { provides: ["mid"], requires: ["leafsvc"] }) });
    const k = await t.discover();
    const states = Object.fromEntries(k.introspect().extensions.map((e) => [e.id, e.state]));
    expect(states).toEqual({ broken: "failed", leaf: "lazy", mid: "lazy" });
  });

  it("disabled provider: names both extensions", async () => {
    t.addExt({ id: "provider", manifest: baseManifest("provider", { provides: ["engine"] }) });
    t.addExt({ id: "needy", manifest: baseManifest("needy", { requires: ["engine"] }) });
    t.write(path.join(t.project, ".oceancode", "oceancode.jsonc"), '{ "extensions": { "disabled": ["provider"] } }');
    const f = await failedWith("needy");
    expect(f.state).toBe("failed");
    expect(f.reason).toContain(ErrorCodes.DEPENDENCY_DISABLED);
    expect(f.reason).toContain("'provider'");
    expect(f.reason).toContain("disabled");
  });

  it("cycle: names both extensions", async () => {
    t.addExt({ id: "alpha", manifest: baseManifest("alpha", { provides: ["a"], requires: ["b"] }) });
    t.addExt({ id: "beta", manifest: baseManifest("beta", { provides: ["b"], requires: ["a"] }) });
    const e = await caught(() => t.discover());
    expect(e.code).toBe(ErrorCodes.DEPENDENCY_CYCLE);
    expect(e.message).toContain("'alpha'");
    expect(e.message).toContain("'beta'");
  });

  it("duplicate service: the second provider fails with a coded error naming both; the first keeps it", async () => {
    t.addExt({ id: "one", manifest: baseManifest("one", { provides: ["store"] }) });
    t.addExt({ id: "two", manifest: baseManifest("two", { provides: ["store"] }) });
    const f = await failedWith("two");
    expect(f.state).toBe("failed");
    expect(f.reason).toContain(`${ErrorCodes.DUPLICATE_SERVICE}: extensions 'one' and 'two' both provide service 'store'`);
    const k = await t.discover();
    expect(k.introspect().extensions.find((e) => e.id === "one")?.state).toBe("lazy");
  });

  it("duplicate command: names both contributors", async () => {
    const cmd = { commands: [{ name: "go", usage: "oceancode go", summary: "go" }] };
    t.addExt({ id: "one", manifest: baseManifest("one", { contributes: cmd }) });
    t.addExt({ id: "two", manifest: baseManifest("two", { contributes: cmd }) });
    const f = await failedWith("two");
    expect(f.reason).toContain(ErrorCodes.DUPLICATE_COMMAND);
    expect(f.reason).toContain("'one' and 'two'");
  });
});

describe("scopes: services resolve only when declared", () => {
  it("requires resolves the provider's value; an undeclared get fails the caller with OC_ERR_SERVICE_NOT_DECLARED", async () => {
    t.addExt({
      id: "provider",
      manifest: baseManifest("provider", { provides: ["store", "secret"] }),
      code: `export default { activate(ctx) { ctx.provide("store", { kind: "store" }); ctx.provide("secret", 42); } };`,
    });
    t.addExt({
      id: "user",
      manifest: baseManifest("user", { requires: ["store"], activation: ["onStartup"] }),
      code: `const ev = (globalThis.__ocEvents ??= []);
export default { activate(ctx) { ev.push("store:" + ctx.services.get("store").kind); ev.push("has-secret:" + ctx.services.has("secret")); ctx.services.get("secret"); } };`,
    });
    const k = await t.discover();
    await k.start();
    expect(events()).toEqual(["store:store", "has-secret:false"]);
    const user = k.introspect().extensions.find((e) => e.id === "user")!;
    expect(user.state).toBe("failed");
    expect(user.reason).toContain(ErrorCodes.SERVICE_NOT_DECLARED);
    expect(user.reason).toContain("'secret'");
    expect(k.introspect().extensions.find((e) => e.id === "provider")?.state).toBe("active");
  });

  it("provide() of an undeclared service fails the extension", async () => {
    t.addExt({ id: "sneaky", manifest: baseManifest("sneaky", { activation: ["onStartup"] }), code: `export default { activate(ctx) { ctx.provide("engine", {}); } };` });
    const k = await t.discover();
    await k.start();
    const rec = k.introspect().extensions[0]!;
    expect(rec.state).toBe("failed");
    expect(rec.reason).toContain(ErrorCodes.SERVICE_NOT_DECLARED);
    expect(k.hasService("engine")).toBe(false);
  });

  it("a declared but unregistered provides is an activation failure", async () => {
    t.addExt({ id: "lazybones", manifest: baseManifest("lazybones", { provides: ["x"] }), code: `export default { activate() {} };` });
    const k = await t.discover();
    const e = await caught(() => k.service("x"));
    expect(e.code).toBe(ErrorCodes.ACTIVATION_FAILED);
    expect(e.message).toContain(ErrorCodes.SERVICE_NOT_PROVIDED);
  });
});

describe("activation failures", () => {
  it("an extension whose activate() throws is reported, marked failed, and the others still load", async () => {
    t.addExt({ id: "a-boom", manifest: baseManifest("a-boom", { activation: ["onStartup"] }), code: `export default { activate() { throw new Error("kaboom"); } };` });
    t.addExt({ id: "b-fine", manifest: baseManifest("b-fine", { activation: ["onStartup"] }) });
    t.addExt({ id: "c-noexport", manifest: baseManifest("c-noexport", { activation: ["onStartup"] }), code: `export const x = 1;` });
    const k = await t.discover();
    await k.start();
    const byId = Object.fromEntries(k.introspect().extensions.map((e) => [e.id, e]));
    expect(byId["a-boom"]).toMatchObject({ state: "failed", reason: "kaboom" });
    expect(byId["b-fine"]?.state).toBe("active");
    expect(byId["c-noexport"]?.state).toBe("failed");
    expect(byId["c-noexport"]?.reason).toContain("no default export with an activate() function");
    expect(events()).toContain("activate:b-fine");
    const errors = t.logs.filter((l) => l.startsWith("error:"));
    expect(errors).toHaveLength(2);
    expect(errors[0]).toMatch(/extension 'a-boom' \(.*a-boom\) failed to activate and was disabled: kaboom/);
  });

  it("a dependant of a failed extension is failed too, naming the dependency", async () => {
    t.addExt({ id: "base", manifest: baseManifest("base", { provides: ["svc"] }), code: `export default { activate() { throw new Error("no db"); } };` });
    t.addExt({ id: "top", manifest: baseManifest("top", { requires: ["svc"], activation: ["onStartup"] }) });
    const k = await t.discover();
    await k.start();
    const top = k.introspect().extensions.find((e) => e.id === "top")!;
    expect(top.state).toBe("failed");
    expect(top.reason).toContain("'base'");
  });
});

/**
 * Contribution points (declared by extensions, validated by the kernel), requirements sections owned by
 * extensions, the config an extension may read, and services in per-extension scopes.
 */
import crypto from "node:crypto";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeEnv, baseManifest, caught, type TestEnv } from "./env.js";
import { ErrorCodes } from "../../kernel/errors.js";

let t: TestEnv;
beforeEach(() => {
  t = makeEnv();
  // "owner" declares the point "widgets": entries { name, size >= 1 }
  t.addExt({
    id: "owner",
    manifest: baseManifest("owner", { activation: ["onStartup"], contributionPoints: [{ name: "widgets", schema: "widgets.schema.json", doc: "widgets the owner shows" }] }),
    code: `export default { activate(ctx) { globalThis.__widgets = ctx.contributions("widgets"); } };`,
    files: {
      "widgets.schema.json": JSON.stringify({
        type: "array",
        items: { type: "object", required: ["name"], additionalProperties: false, properties: { name: { type: "string" }, size: { type: "integer", minimum: 1 } } },
      }),
    },
  });
});
afterEach(() => t.cleanup());

type K = Awaited<ReturnType<TestEnv["discover"]>>;
const ext = (k: K, id: string) => k.introspect().extensions.find((e) => e.id === id);
const userBase = () => path.join(t.home, ".oceancode");

describe("contribution points", () => {
  it("a valid contribution loads and reaches the owner (ctx.contributions(point)), with the contributing extension", async () => {
    t.addExt({ id: "good", manifest: baseManifest("good", { contributes: { widgets: [{ name: "a", size: 2 }] } }) }, userBase());
    const k = await t.discover();
    expect(ext(k, "good")?.state).toBe("lazy");
    expect(k.contributionPoints()).toEqual([{ name: "widgets", owner: "owner", doc: "widgets the owner shows" }]);
    expect(k.introspect().points).toEqual([{ name: "widgets", owner: "owner", doc: "widgets the owner shows", contributors: ["good"] }]);
    await k.start();
    expect((globalThis as unknown as { __widgets: unknown }).__widgets).toEqual([{ extension: "good", tier: "user", value: [{ name: "a", size: 2 }] }]);
  });

  it("an invalid entry fails only that extension, with a coded error naming the manifest file, line and key path", async () => {
    const dir = t.addExt({ id: "bad", manifest: baseManifest("bad", { contributes: { widgets: [{ name: "a" }, { name: "b", size: 0 }] } }) }, userBase());
    t.addExt({ id: "fine", manifest: baseManifest("fine", { contributes: { widgets: [{ name: "c" }] } }) }, userBase());
    const k = await t.discover();
    expect(ext(k, "bad")?.state).toBe("failed");
    expect(ext(k, "fine")?.state).toBe("lazy");
    expect(ext(k, "owner")?.state).toBe("lazy");
    const reason = ext(k, "bad")!.reason!;
    expect(reason).toMatch(/^OC_ERR_MANIFEST_INVALID: /);
    expect(reason).toContain(`${path.join(dir, "manifest.json")}:`);
    expect(reason).toMatch(/manifest\.json:\d+: contributes\.widgets\.1\.size: expected a number >= 1/);
    expect(k.warnings.some((w) => w.includes("'bad'") && w.includes("contributes.widgets.1.size"))).toBe(true);
  });

  it("a contribution to a point nobody declares fails only that extension", async () => {
    t.addExt({ id: "lost", manifest: baseManifest("lost", { contributes: { gadgets: ["x"] } }) }, userBase());
    const k = await t.discover();
    expect(ext(k, "lost")?.state).toBe("failed");
    expect(ext(k, "lost")?.reason).toMatch(/OC_ERR_MANIFEST_INVALID: .*manifest\.json:\d+: contributes\.gadgets: no installed extension declares the contribution point 'gadgets'/);
  });

  it("a point whose owner is disabled is not unknown: its contributors still load (their entries are just unused)", async () => {
    t.addExt({ id: "good", manifest: baseManifest("good", { contributes: { widgets: [{ name: "a" }] } }) }, userBase());
    t.write(path.join(t.home, ".config", "oceancode", "oceancode.json"), JSON.stringify({ extensions: { disabled: ["owner"] } }));
    const k = await t.discover();
    expect(ext(k, "good")?.state).toBe("lazy");
    expect(k.contributionPoints()).toEqual([]);
  });

  it("points are add-only: a second declaration of a name fails that extension; kernel point names are reserved", async () => {
    t.addExt({ id: "rival", manifest: baseManifest("rival", { contributionPoints: [{ name: "widgets", schema: "w.json", doc: "mine" }] }) }, userBase());
    t.addExt({ id: "greedy", manifest: baseManifest("greedy", { contributionPoints: [{ name: "commands", schema: "w.json", doc: "all of them" }] }) }, userBase());
    const k = await t.discover();
    expect(ext(k, "rival")?.reason).toContain("extensions 'owner' and 'rival' both declare the contribution point 'widgets'");
    expect(ext(k, "greedy")?.reason).toMatch(/OC_ERR_MANIFEST_INVALID: .*'commands' is a kernel contribution point/);
    expect(ext(k, "owner")?.state).toBe("lazy");
  });
});

describe("requirements sections belong to extensions", () => {
  it("a declared section is validated and handed to its owner; an undeclared or invalid one is refused by name", async () => {
    const keys = crypto.generateKeyPairSync("ed25519");
    t.env.OC_REQUIREMENTS_PUBKEY = keys.publicKey.export({ type: "spki", format: "der" }).subarray(-32).toString("hex");
    t.addExt({
      id: "gate",
      manifest: baseManifest("gate", { activation: ["onStartup"], contributes: { requirements: [{ section: "gate", schema: "req.json" }, { section: "strict", schema: "req.json" }] } }),
      code: `export default { activate(ctx) { globalThis.__gate = ctx.requirements("gate"); } };`,
      files: { "req.json": JSON.stringify({ type: "object", additionalProperties: false, properties: { lock: { type: "boolean" } } }) },
    });
    const file = path.join(t.managedDir, "requirements.json");
    const text = JSON.stringify({ gate: { lock: true }, strict: { lock: "yes" }, mcp: { allow: ["x"] } });
    t.write(file, text);
    t.write(`${file}.sig`, crypto.sign(null, Buffer.from(text), keys.privateKey).toString("base64"));
    const k = await t.discover();
    expect(k.requirements.status).toBe("applied");
    const refused = k.warnings.filter((w) => w.startsWith(ErrorCodes.REQUIREMENTS_REFUSED));
    expect(refused).toEqual([
      `${ErrorCodes.REQUIREMENTS_REFUSED}: ${file}: strict.lock: expected boolean; the section 'strict' (of 'gate') is not applied`,
      `${ErrorCodes.REQUIREMENTS_REFUSED}: ${file}: the section 'mcp' is one no enabled extension declares (contributes.requirements); it is not applied`,
    ]);
    expect(k.introspect().requirements.requirements).toEqual({ gate: { lock: true } });
    await k.start();
    expect((globalThis as unknown as { __gate: unknown }).__gate).toEqual({ lock: true });
  });

  it("an extension reads another's requirements section only when it declares it in reads", async () => {
    t.addExt({
      id: "gate",
      manifest: baseManifest("gate", { activation: ["onStartup"], contributes: { requirements: [{ section: "gate", schema: "req.json" }] } }),
      code: `export default { activate(ctx) { globalThis.__gateOwn = ctx.requirements("gate") ?? "none"; } };`,
      files: { "req.json": "{}" },
    });
    t.addExt({ id: "nosy", manifest: baseManifest("nosy", { activation: ["onStartup"] }), code: `export default { activate(ctx) { ctx.requirements("gate"); } };` });
    t.addExt({ id: "reader", manifest: baseManifest("reader", { activation: ["onStartup"], reads: ["gate"] }), code: `export default { activate(ctx) { globalThis.__gateRead = ctx.requirements("gate") ?? "none"; } };` });
    const k = await t.discover();
    await k.start();
    const g = globalThis as unknown as { __gateOwn: unknown; __gateRead: unknown };
    expect(g.__gateOwn).toBe("none");
    expect(g.__gateRead).toBe("none");
    expect(ext(k, "nosy")?.state).toBe("failed");
    expect(ext(k, "nosy")?.reason).toContain("read requirements section 'gate' without declaring it");
  });
});

describe("an extension's view of config and services", () => {
  beforeEach(() => {
    t.addExt({
      id: "a",
      manifest: baseManifest("a", { provides: ["a-svc"], contributes: { config: [{ section: "alpha", schema: "s.json" }] } }),
      code: `export default { activate(ctx) { ctx.provide("a-svc", { hello: () => "from a", mode: ctx.config.get("alpha.mode") }); } };`,
      files: { "s.json": JSON.stringify({ type: "object", properties: { mode: { type: "string", default: "calm" } } }) },
    });
    t.write(path.join(t.home, ".config", "oceancode", "oceancode.json"), JSON.stringify({ alpha: { mode: "brisk" } }));
  });

  it("reading another extension's config section needs reads; its own is always there", async () => {
    t.addExt({ id: "snoop", manifest: baseManifest("snoop", { activation: ["onStartup"] }), code: `export default { activate(ctx) { ctx.config.get("alpha.mode"); } };` });
    t.addExt({
      id: "friend",
      manifest: baseManifest("friend", { activation: ["onStartup"], reads: ["alpha"] }),
      code: `export default { activate(ctx) { globalThis.__friend = [ctx.config.get("alpha.mode"), Object.keys(ctx.config.value), ctx.config.layers.every((l) => Object.keys(l.value).every((s) => s === "alpha"))]; } };`,
    });
    const k = await t.discover();
    await k.start();
    expect(ext(k, "snoop")?.state).toBe("failed");
    expect(ext(k, "snoop")?.reason).toContain("OC_ERR_SERVICE_NOT_DECLARED: extension 'snoop' read config section 'alpha' without declaring it");
    expect((globalThis as unknown as { __friend: unknown }).__friend).toEqual(["brisk", ["alpha"], true]);
    expect(k.config.get("alpha.mode")).toBe("brisk"); // hosts see everything
  });

  it("services live in their provider's scope: reached by declaring requires, never by resolving the root container", async () => {
    t.addExt({
      id: "b",
      manifest: baseManifest("b", { requires: ["a-svc"], provides: ["b-svc"] }),
      code: `export default { activate(ctx) { const a = ctx.services.get("a-svc"); ctx.provide("b-svc", { said: a.hello() }); } };`,
    });
    t.addExt({ id: "c", manifest: baseManifest("c", { provides: ["c-svc"] }), code: `export default { activate(ctx) { ctx.services.get("a-svc"); } };` });
    const k = await t.discover();
    expect(await k.service("b-svc")).toEqual({ said: "from a" });
    expect((await k.service("a-svc")).mode).toBe("brisk");
    const e = await caught(() => k.service("c-svc"));
    expect(e.message).toContain("resolved service 'a-svc' without declaring it");
    // nothing is registered on the shared root container
    const root = (k as unknown as { container: { hasRegistration(n: string): boolean } }).container;
    expect(root.hasRegistration("a-svc") || root.hasRegistration("b-svc")).toBe(false);
  });
});

describe("contribution points and trust", () => {
  it("a held (repo-tier) extension never takes a point name from a trusted user extension", async () => {
    const { spawnSync } = await import("node:child_process");
    t.addExt({ id: "squatter", manifest: baseManifest("squatter", { contributionPoints: [{ name: "gizmos", schema: "g.json", doc: "mine first" }] }), files: { "g.json": "{}" } }, path.join(t.project, ".oceancode"));
    spawnSync("git", ["-C", t.project, "init", "-q"]);
    spawnSync("git", ["-C", t.project, "add", ".oceancode"]);
    t.addExt({ id: "rightful", manifest: baseManifest("rightful", { contributionPoints: [{ name: "gizmos", schema: "g.json", doc: "the real one" }] }), files: { "g.json": "{}" } }, userBase());
    const k = await t.discover();
    expect(ext(k, "rightful")?.state).toBe("lazy");
    expect(ext(k, "squatter")?.state).toBe("failed");
    expect(k.contributionPoints().find((p) => p.name === "gizmos")?.owner).toBe("rightful");
  });
});

/** Layered config through the real kernel: precedence, provenance, errors, removed keys, extension control. */
import path from "node:path";
import fs from "node:fs";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ErrorCodes } from "../../kernel/errors.js";
import { makeEnv, baseManifest, caught, type TestEnv } from "./env.js";

let t: TestEnv;
let files: { global: string; project: string; projectJson: string; managed: string };
beforeEach(() => {
  t = makeEnv();
  files = {
    global: path.join(t.home, ".config", "oceancode", "oceancode.jsonc"),
    project: path.join(t.project, ".oceancode", "oceancode.jsonc"),
    projectJson: path.join(t.project, ".oceancode", "oceancode.json"),
    managed: t.env.OC_MANAGED_CONFIG!,
  };
  const schema = {
    type: "object",
    properties: {
      a: { type: "string", default: "default-a" },
      b: { type: "string", default: "default-b" },
      c: { type: "string", default: "default-c" },
      d: { type: "string", default: "default-d" },
      e: { type: "string", default: "default-e" },
      nested: { type: "object", properties: { n: { type: "number" } } },
    },
  };
  t.addExt({
    id: "sect",
    manifest: baseManifest("sect", { contributes: { config: [{ section: "sect", schema: "schema.json", removed: ["sect.old"], aliases: { "sect.legacy": "sect.e" } }] } }),
    files: { "schema.json": JSON.stringify(schema) },
  });
});
afterEach(() => t.cleanup());

describe("precedence and provenance", () => {
  it("default < global < project .jsonc < project .json < managed, per key", async () => {
    t.write(files.global, '{ "sect": { "b": "global-b", "c": "global-c", "d": "global-d", "e": "global-e" } }');
    t.write(files.project, '// comments and trailing commas are fine\n{ "sect": { "c": "jsonc-c", "d": "jsonc-d", "e": "jsonc-e", }, }');
    t.write(files.projectJson, '{ "sect": { "d": "json-d", "e": "json-e" } }');
    t.write(files.managed, '{ "sect": { "e": "managed-e" } }');
    const k = await t.discover();
    expect(k.config.section("sect")).toEqual({ a: "default-a", b: "global-b", c: "jsonc-c", d: "json-d", e: "managed-e" });
    expect(k.config.sourceOf("sect.a")).toEqual({ layer: "default", file: undefined });
    expect(k.config.sourceOf("sect.b")).toEqual({ layer: "global", file: files.global });
    expect(k.config.sourceOf("sect.c")).toEqual({ layer: "project", file: files.project });
    expect(k.config.sourceOf("sect.d")).toEqual({ layer: "project", file: files.projectJson });
    expect(k.config.sourceOf("sect.e")).toEqual({ layer: "managed", file: files.managed });
    expect(k.config.get("sect.e")).toBe("managed-e");
  });

  it("$OC_CONFIG replaces the XDG global file", async () => {
    t.write(files.global, '{ "sect": { "a": "xdg" } }');
    const alt = t.write(path.join(t.root, "alt.json"), '{ "sect": { "a": "alt" } }');
    t.env.OC_CONFIG = alt;
    const k = await t.discover();
    expect(k.config.get("sect.a")).toBe("alt");
    expect(k.config.sourceOf("sect.a")?.file).toBe(alt);
  });

  it("unknown keys are ignored; an unknown section is ignored with one warning naming file, line and the nearest key", async () => {
    t.write(files.project, '{ "sect": { "zzz": 1, "a": "x" },\n  "nobody": { "owns": "this" },\n  "sects": {} }');
    const k = await t.discover();
    expect(k.config.get("sect.a")).toBe("x");
    expect(k.config.get("nobody")).toEqual({ owns: "this" });
    expect(k.warnings).toEqual([
      `${files.project}:2: unknown config section 'nobody'; it is ignored`,
      `${files.project}:3: unknown config section 'sects' (did you mean 'sect'?); it is ignored`,
    ]);
  });
});

describe("config errors", () => {
  it("a wrong type names file:line and the key path", async () => {
    t.write(files.project, '{\n  "sect": {\n    "nested": {\n      "n": "three"\n    }\n  }\n}\n');
    const e = await caught(() => t.discover());
    expect(e.code).toBe(ErrorCodes.CONFIG_INVALID);
    expect(e.message).toBe(`${files.project}:4: sect.nested.n: expected number`);
  });

  it("broken JSONC names file:line", async () => {
    t.write(files.global, '{\n  "sect": { "a": "x" \n  "b": 1\n}\n');
    const e = await caught(() => t.discover());
    expect(e.code).toBe(ErrorCodes.CONFIG_PARSE);
    expect(e.message).toMatch(new RegExp(`^${files.global.replace(/[.]/g, "\\.")}:3: broken JSON`));
  });

  it("an unreadable file is a coded error naming it", async () => {
    fs.mkdirSync(files.project, { recursive: true }); // a directory where the file should be: EISDIR
    const e = await caught(() => t.discover());
    expect(e.code).toBe(ErrorCodes.CONFIG_UNREADABLE);
    expect(e.message).toContain(files.project);
  });
});

describe("removed keys and aliases", () => {
  it("a removed key loads, is ignored, and warns once naming it", async () => {
    t.write(files.global, '{ "sect": { "old": 1, "a": "kept" } }');
    const k = await t.discover();
    expect(k.config.get("sect.old")).toBeUndefined();
    expect(k.config.get("sect.a")).toBe("kept");
    const w = k.warnings.filter((x) => x.includes("sect.old"));
    expect(w).toEqual([`${files.global}: ignoring removed config keys: sect.old`]);
  });

  it("an alias moves an old key to its new path", async () => {
    t.write(files.global, '{ "sect": { "legacy": "via-alias" } }');
    const k = await t.discover();
    expect(k.config.get("sect.e")).toBe("via-alias");
    expect(k.config.get("sect.legacy")).toBeUndefined();
  });
});

describe("extensions.disabled / enabled / replace", () => {
  beforeEach(() => {
    t.addExt({ id: "x", manifest: baseManifest("x") });
    t.addExt({ id: "y", manifest: baseManifest("y") });
  });
  const state = async (id: string) => (await t.discover()).introspect().extensions.find((e) => e.id === id);

  it("a lower layer's disable is cleared by a higher layer's enable", async () => {
    t.write(files.global, '{ "extensions": { "disabled": ["x"] } }');
    expect((await state("x"))?.state).toBe("disabled");
    expect((await state("x"))?.reason).toContain(files.global);
    t.write(files.project, '{ "extensions": { "enabled": ["x"] } }');
    expect((await state("x"))?.state).toBe("lazy");
  });

  it("the project cannot re-enable what managed disabled", async () => {
    t.write(files.managed, '{ "extensions": { "disabled": ["y"] } }');
    t.write(files.project, '{ "extensions": { "enabled": ["y"] } }');
    t.write(files.projectJson, '{ "extensions": { "enabled": ["y"] } }');
    const y = await state("y");
    expect(y?.state).toBe("disabled");
    expect(y?.reason).toContain("managed");
  });

  it("a wrong type in extensions.* is a config error", async () => {
    t.write(files.project, '{\n  "extensions": { "disabled": "x" }\n}');
    const e = await caught(() => t.discover());
    expect(e.code).toBe(ErrorCodes.CONFIG_INVALID);
    expect(e.message).toBe(`${files.project}:2: extensions.disabled: expected array`);
  });

  it("replace swaps a first-party extension for one that provides the same services", async () => {
    t.addExt({ id: "store", manifest: baseManifest("store", { provides: ["db"] }), code: `export default { activate(ctx) { ctx.provide("db", "builtin"); } };` });
    t.addExt({ id: "corp-store", manifest: baseManifest("corp-store", { provides: ["db"], replaces: "store" }), code: `export default { activate(ctx) { ctx.provide("db", "corp"); } };` });
    // without config the stand-in stays off
    let k = await t.discover();
    expect(k.introspect().extensions.find((e) => e.id === "corp-store")?.state).toBe("disabled");
    expect(await k.service("db")).toBe("builtin");
    t.write(files.managed, '{ "extensions": { "replace": { "store": "corp-store" } } }');
    k = await t.discover();
    expect(k.introspect().extensions.find((e) => e.id === "store")).toMatchObject({ state: "disabled", reason: "replaced by 'corp-store'" });
    expect(await k.service("db")).toBe("corp");
  });

  it("replace refuses a stand-in that does not declare replaces or lacks a service", async () => {
    t.addExt({ id: "store", manifest: baseManifest("store", { provides: ["db", "cache"] }) });
    t.addExt({ id: "half", manifest: baseManifest("half", { provides: ["db"], replaces: "store" }) });
    t.write(files.project, '{ "extensions": { "replace": { "store": "half" } } }');
    let e = await caught(() => t.discover());
    expect(e.code).toBe(ErrorCodes.REPLACE_INVALID);
    expect(e.message).toContain("does not provide cache");
    t.write(files.project, '{ "extensions": { "replace": { "store": "x" } } }');
    e = await caught(() => t.discover());
    expect(e.code).toBe(ErrorCodes.REPLACE_INVALID);
    expect(e.message).toContain(`does not declare "replaces": "store"`);
  });
});

describe("env and host layers", () => {
  const launchSchema = {
    type: "object",
    properties: {
      a: { type: "string", default: "default-a", "x-oc-env": "OC_T_A" },
      b: { type: "string", "x-oc-env": "OC_T_B" },
      c: { type: "string", "x-oc-env": "OC_T_C" },
      n: { type: "integer", minimum: 1, "x-oc-env": "OC_T_N" },
      secret: { type: "string", "x-oc-env": "OC_T_API_KEY" },
      path: { type: "string", "x-oc-env": "PATH" },
    },
  };
  const sections = [{ section: "launch", schema: launchSchema, owner: "t" }];

  it("default < global < project < env < managed < host < requirements pins, with the variable or flag as the source", async () => {
    const { loadConfig, hostLayer } = await import("../../kernel/config.js");
    const layers = [
      { name: "global" as const, file: "/g.json", value: { launch: { a: "global-a", b: "global-b", c: "global-c", n: 9 } } },
      { name: "project" as const, file: "/p.json", value: { launch: { a: "project-a" } } },
      { name: "managed" as const, file: "/m.json", value: { launch: { c: "managed-c" } } },
    ];
    const env = { OC_T_A: "env-a", OC_T_B: "env-b", OC_T_C: "env-c", OC_T_N: "4", OC_T_API_KEY: "sk-1", PATH: "/bin" };
    const host = hostLayer([
      { key: "launch.b", value: "flag-b", flag: "--b" },
      { key: "launch.c", value: "flag-c", flag: "--c" },
      { key: "launch.a", value: "flag-a", flag: "--a" },
      { key: "paths.project", value: "/proj", flag: "--dir", config: false },
    ]);
    const c = loadConfig({ layers, sections, env, host, pins: { "launch.a": "pinned-a" }, pinsFile: "/req.json" });
    expect(c.section("launch")).toEqual({ a: "pinned-a", b: "flag-b", c: "flag-c", n: 4 });
    expect(c.sourceOf("launch.a")).toEqual({ layer: "requirements", file: "/req.json" });
    expect(c.sourceOf("launch.b")).toEqual({ layer: "host", source: "--b" });
    expect(c.sourceOf("launch.n")).toEqual({ layer: "env", source: "OC_T_N" });
    // only OC_ names, never a secret-looking one (inspect shows config values)
    expect(c.get("launch.secret")).toBeUndefined();
    expect(c.get("launch.path")).toBeUndefined();
    // the directory is a kernel option: kept on the host layer for inspect, never merged
    expect(c.get("paths")).toBeUndefined();
    expect(c.layers.map((l) => l.name)).toEqual(["default", "global", "project", "env", "managed", "host", "requirements"]);

    // without a flag: env beats the user's files, the managed file beats env
    const d = loadConfig({ layers, sections, env });
    expect(d.section("launch")).toMatchObject({ a: "env-a", b: "env-b", c: "managed-c" });
    expect(d.sourceOf("launch.c")).toEqual({ layer: "managed", file: "/m.json" });
  });

  it("env and host values are not schema-checked at boot (their owner names the variable or flag); an empty variable is unset", async () => {
    const { loadConfig, hostLayer } = await import("../../kernel/config.js");
    const c = loadConfig({ layers: [], sections, env: { OC_T_N: "0", OC_T_B: "" }, host: hostLayer([{ key: "launch.c", value: 7, flag: "--c" }]) });
    expect(c.get("launch.n")).toBe(0);
    expect(c.get("launch.b")).toBeUndefined();
    expect(c.get("launch.c")).toBe(7);
    // a file's bad value still fails with its file and key
    expect(() => loadConfig({ layers: [{ name: "global", file: "/g.json", value: { launch: { n: 0 } } }], sections })).toThrow(/\/g\.json: launch\.n/);
  });

  it("the kernel takes the host's settings as the host layer, over every config file", async () => {
    t.write(files.managed, '{ "sect": { "a": "managed-a" } }');
    const k = await t.discover({ hostSettings: [{ key: "sect.a", value: "flag-a", flag: "--a" }] });
    expect(k.config.get("sect.a")).toBe("flag-a");
    expect(k.config.sourceOf("sect.a")).toEqual({ layer: "host", source: "--a" });
  });
});

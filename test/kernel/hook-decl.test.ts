/**
 * One source of truth for hooks: declaration tables (kernel/hook-decl.ts) make the instances, and every
 * extension's manifest contributes.hooks agrees with the tables its api module exports (the build checks
 * the same thing in build/precompile.ts; this test fails first in the editor).
 */
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { checkManifestHooks, declareHooks, hook, isHookTable, type HookTable } from "../../kernel/hook-decl.js";
import { createHooks, describeHooks, SeriesHook, BailHook } from "../../kernel/hooks.js";
import { REPO_ROOT } from "../kit/cli.js";

const T = declareHooks("x", {
  a: hook.series<number>("a happened"),
  b: hook.bail<number, string>("decide b", (tap) => `deny by ${tap}`),
  c: hook.waterfall<string, { n: number }>("shape c"),
});

describe("declareHooks / createHooks", () => {
  it("makes one frozen instance per declaration, named prefix.key, kind and failClosed from the table", () => {
    const h = createHooks(T);
    expect(Object.isFrozen(h)).toBe(true);
    expect(h.a).toBeInstanceOf(SeriesHook);
    expect(h.b).toBeInstanceOf(BailHook);
    expect(describeHooks(h)).toEqual([
      { name: "x.a", kind: "series", doc: "series: a happened", failClosed: false, taps: [] },
      { name: "x.b", kind: "bail", doc: "bail (fail-closed): decide b", failClosed: true, taps: [] },
      { name: "x.c", kind: "waterfall", doc: "waterfall: shape c", failClosed: false, taps: [] },
    ]);
    expect(isHookTable(T)).toBe(true);
    expect(isHookTable({ hooks: {} })).toBe(false);
  });

  it("a fail-closed bail hook from a table answers onTapError when a tap throws", async () => {
    const h = createHooks(T);
    h.b.bind({ sink: () => undefined, tapTimeoutMs: 1000 });
    h.b.tap({ name: "bad" }, () => {
      throw new Error("x");
    });
    expect(await h.b.call(1)).toBe("deny by bad");
  });
});

describe("checkManifestHooks", () => {
  const ok = [
    { name: "x.a", kind: "series", doc: "a happened" },
    { name: "x.b", kind: "bail", doc: "decide b", failClosed: true },
    { name: "x.c", kind: "waterfall", doc: "shape c" },
  ];
  it("agrees when names, kinds, docs and failClosed match", () => {
    expect(checkManifestHooks("m", ok, [T])).toEqual([]);
  });
  it("names every disagreement: kind, doc, failClosed, missing on either side, listed twice", () => {
    const bad = [
      { name: "x.a", kind: "parallel", doc: "a happened" },
      { name: "x.b", kind: "bail", doc: "decide B" },
      { name: "x.z", kind: "series", doc: "ghost" },
      { name: "x.z", kind: "series", doc: "ghost" },
    ];
    expect(checkManifestHooks("m", bad, [T])).toEqual([
      "m: hook 'x.a' is 'parallel' in the manifest but declared 'series'",
      `m: hook 'x.b' doc differs: manifest "decide B", declared "decide b"`,
      "m: hook 'x.b' failClosed is false in the manifest but declared true",
      "m: contributes.hooks lists 'x.z', which the extension's api declares no hook for",
      "m: hook 'x.z' is listed twice in contributes.hooks",
      "m: contributes.hooks lists 'x.z', which the extension's api declares no hook for",
      "m: hook 'x.c' (waterfall) is declared but missing from contributes.hooks",
    ]);
  });
});

describe("every first-party extension's manifest hooks agree with its api's declaration tables", () => {
  const extDir = path.join(REPO_ROOT, "extensions");
  const folders = fs.readdirSync(extDir).filter((f) => fs.existsSync(path.join(extDir, f, "manifest.json")));
  it.each(folders)("%s", async (folder) => {
    const manifest = JSON.parse(fs.readFileSync(path.join(extDir, folder, "manifest.json"), "utf8")) as { contributes?: { hooks?: Array<{ name: string; kind: string; doc: string; failClosed?: boolean }> } };
    const api = path.join(extDir, folder, "api.ts");
    const tables: HookTable[] = fs.existsSync(api) ? Object.values((await import(pathToFileURL(api).href)) as Record<string, unknown>).filter(isHookTable) : [];
    expect(checkManifestHooks(`extensions/${folder}/manifest.json`, manifest.contributes?.hooks ?? [], tables)).toEqual([]);
  });
  it("the engine declares its hooks in one table, claimSession included", async () => {
    const { ENGINE_HOOKS } = await import("../../extensions/engine/api.js");
    expect(Object.keys(ENGINE_HOOKS.hooks)).toContain("claimSession");
    expect(ENGINE_HOOKS.hooks.authorizeToolCall.failClosed).toBe(true);
  });
});

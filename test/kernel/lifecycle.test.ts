/** The kernel's lifecycle: zero extensions, and the call order of every kernel hook. */
import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeEnv, baseManifest, events, resetEvents, RECORDING_CODE, type TestEnv } from "./env.js";

let t: TestEnv;
beforeEach(() => {
  t = makeEnv();
  resetEvents();
});
afterEach(() => t.cleanup());

describe("kernel with zero extensions", () => {
  it("discovers, starts and shuts down with no bundled root and nothing installed", async () => {
    const k = await t.discover({ bare: true });
    expect(k.introspect().extensions).toEqual([]);
    expect(k.commands()).toEqual([]);
    await k.start();
    const seen: string[] = [];
    k.hooks.shutdown.tap({ name: "test" }, (r) => void seen.push(r.reason));
    await k.shutdown("done");
    expect(seen).toEqual(["done"]);
    expect(k.config.value).toEqual({});
    expect(t.logs).toEqual([]);
  });
});

describe("kernel hook call order", () => {
  beforeEach(() => {
    // a and b activate at startup (load order: folder name); c is lazy until its command runs
    t.addExt({ id: "a", manifest: baseManifest("a", { activation: ["onStartup"] }) });
    t.addExt({ id: "b", manifest: baseManifest("b", { activation: ["onStartup"] }), code: RECORDING_CODE("b", `ctx.kernelHooks.boot.tap({ name: "b", stage: "STAGE_POLICY" }, () => { ev.push("boot-early:b"); });`) });
    t.addExt({
      id: "c",
      manifest: baseManifest("c", { contributes: { commands: [{ name: "cee", usage: "oceancode cee", summary: "c" }] } }),
      code: RECORDING_CODE("c", `ctx.registerCommand("cee", async () => { ev.push("run:c"); return 0; });`),
    });
  });

  it("boot: fires once after onStartup activation, taps in stage order then load order", async () => {
    const k = await t.discover();
    expect(events()).toEqual([]); // discover runs no extension code
    await k.start();
    const boots = events().filter((e) => e.startsWith("boot"));
    expect(boots).toEqual(["boot-early:b", "boot:a", "boot:b"]);
    expect(events().indexOf("activate:b")).toBeLessThan(events().indexOf("boot-early:b"));
    await k.start(); // idempotent
    expect(events().filter((e) => e.startsWith("boot"))).toHaveLength(3);
  });

  it("configResolved: after boot, before extensionsActivated, with the resolved config", async () => {
    t.addExt({
      id: "d",
      manifest: baseManifest("d", { activation: ["onStartup"], contributes: { config: [{ section: "dee", schema: "schema.json" }] } }),
      files: { "schema.json": JSON.stringify({ type: "object", properties: { n: { type: "number", default: 7 } } }) },
      code: `const ev = (globalThis.__ocEvents ??= []);
export default { activate(ctx) { ctx.kernelHooks.configResolved.tap({ name: "d" }, (cfg) => { ev.push("configResolved:d:" + cfg.get("dee.n")); }); } };`,
    });
    const k = await t.discover();
    await k.start();
    const ev = events();
    expect(ev.filter((e) => e.startsWith("configResolved"))).toEqual(["configResolved:a", "configResolved:b", "configResolved:d:7"]);
    expect(ev.lastIndexOf("boot:b")).toBeLessThan(ev.indexOf("configResolved:a"));
    expect(ev.lastIndexOf("configResolved:d:7")).toBeLessThan(ev.indexOf("extensionsActivated:a:a,b,d"));
  });

  it("extensionsActivated: last step of start, lists the active ids; lazy c is not among them", async () => {
    const k = await t.discover();
    await k.start();
    expect(events().slice(-2)).toEqual(["extensionsActivated:a:a,b", "extensionsActivated:b:a,b"]);
    expect(events()).not.toContain("activate:c");
    const io = { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env: t.env, project: t.project, home: t.home, verbose: false };
    expect(await k.runCommand("cee", [], io)).toBe(0);
    expect(events().slice(-2)).toEqual(["activate:c", "run:c"]);
  });

  it("shutdown: the hook fires (stage order) before each active extension's deactivate()", async () => {
    const k = await t.discover();
    await k.start();
    resetEvents();
    await k.shutdown("test");
    expect(events()).toEqual(["shutdown:a:test", "shutdown:b:test", "deactivate:a", "deactivate:b"]);
  });

  it("trust: a held repo-tier extension runs only after a trust tap says yes; a throwing tap means no", async () => {
    // the repo tier: a .oceancode/ that the checkout tracks in git
    t.addExt({ id: "repo-ext", manifest: baseManifest("repo-ext", { activation: ["onStartup"] }) }, path.join(t.project, ".oceancode"));
    gitTrack(t.project);
    t.addExt({
      id: "trust-gate",
      manifest: baseManifest("trust-gate", { activation: ["onStartup"] }),
      code: `const ev = (globalThis.__ocEvents ??= []);
export default { activate(ctx) {
  ctx.kernelHooks.trust.tap({ name: "thrower", stage: "STAGE_FLOOR" }, (q) => { ev.push("trust:thrower:" + q.root.tier + ":" + q.name); if (globalThis.__ocThrow) throw new Error("boom"); return undefined; });
  ctx.kernelHooks.trust.tap({ name: "trust-gate" }, (q) => { ev.push("trust:gate:" + q.kind); return true; });
} };`,
    });
    // a throwing (fail-closed) tap: not trusted, and the later tap is never asked
    (globalThis as { __ocThrow?: boolean }).__ocThrow = true;
    const k1 = await t.discover();
    await k1.start();
    expect(events().filter((e) => e.startsWith("trust"))).toEqual(["trust:thrower:repo:repo-ext"]);
    expect(events()).not.toContain("activate:repo-ext");
    expect(k1.introspect().extensions.find((e) => e.id === "repo-ext")).toMatchObject({ state: "held", reason: "held: untrusted" });
    expect(t.logs.some((l) => l.includes("'thrower'") && l.includes("kernel.trust") && l.includes("boom"))).toBe(true);

    resetEvents();
    (globalThis as { __ocThrow?: boolean }).__ocThrow = false;
    const k2 = await t.discover();
    await k2.start();
    const ev = events();
    expect(ev.filter((e) => /^(trust|activate:repo-ext)/.test(e))).toEqual(["trust:thrower:repo:repo-ext", "trust:gate:extension", "activate:repo-ext"]);
    expect(k2.introspect().extensions.find((e) => e.id === "repo-ext")?.state).toBe("active");
    // newly trusted extensions activate before extensionsActivated fires
    expect(ev.indexOf("activate:repo-ext")).toBeLessThan(ev.findIndex((e) => e.startsWith("extensionsActivated")));
  });
});

import { spawnSync } from "node:child_process";
export function gitTrack(project: string): void {
  const git = (...args: string[]) => {
    const r = spawnSync("git", ["-C", project, ...args], { encoding: "utf8" });
    if (r.status !== 0) throw new Error(`git ${args.join(" ")}: ${r.stderr}`);
  };
  git("init", "-q");
  git("add", ".oceancode");
  expect(fs.existsSync(path.join(project, ".git"))).toBe(true);
}

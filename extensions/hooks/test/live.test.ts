/**
 * The live switches without a kernel: the walk's plugin-state rule (pluginStateIn), hooks' applyTrust with
 * the master switch and a changed store, HookRegistry.fresh re-applying only when a watched file changed,
 * and the rules' liveRuleItems.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { pluginStateIn, type Discovered, type Root } from "../../../kernel/api.js";
import { applyTrust, HookRegistry } from "../registry.js";
import { LiveFiles } from "../live.js";
import type { SourceItem } from "../sources.js";
import type { HookSource } from "../api.js";
import { liveRuleItems, type RuleItem } from "../../rules/sources.js";

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "oc-hooks-live-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

const pluginRoot = (name: string, source: string, enabled: boolean, trusted: boolean): Root => ({
  tier: "plugin",
  ecosystem: source === "oceancode" ? "oceancode" : "claude",
  dir: path.join(tmp, name),
  project: tmp,
  trustedByDefault: trusted,
  plugin: { name, enabled, trusted, source },
});
const userRoot: Root = { tier: "user", ecosystem: "oceancode", dir: tmp, project: tmp, trustedByDefault: true };
const source = (root: Root): HookSource => ({
  path: path.join(root.dir, "hooks.json"),
  tier: root.tier,
  ecosystem: root.ecosystem,
  ...(root.plugin ? { plugin: root.plugin.name } : {}),
  status: "loaded",
  groups: [{ event: "Stop", handlers: [{ type: "command", command: "x" }] }],
  skipped: 0,
  sharedWithClaudeCode: false,
});
const found = (...roots: Root[]): Array<Discovered<SourceItem>> =>
  roots.map((root) => ({ item: { name: root.dir, source: source(root) }, root, qualifiedName: root.dir, shadowed: false }));
const never = async () => false;

describe("pluginStateIn (the walk's rule)", () => {
  it("an oceancode plugin follows its own record; gone from the store it is off; no store keeps the walk's state", () => {
    const p = { name: "a", source: "oceancode" };
    const was = { enabled: true, trusted: true };
    expect(pluginStateIn({ plugins: [{ name: "a", enabled: false, trusted: true }] }, p, was)).toEqual({ enabled: false, trusted: true });
    expect(pluginStateIn({ plugins: [{ name: "a" }] }, p, { enabled: false, trusted: false })).toEqual({ enabled: true, trusted: false });
    expect(pluginStateIn({ plugins: [] }, p, was)).toEqual({ enabled: false, trusted: false });
    expect(pluginStateIn(undefined, p, was)).toEqual(was);
  });

  it("another tool's plugin: an external override decides enabled (else the walk's), trust only by the override", () => {
    const p = { name: "c", source: "claude" };
    expect(pluginStateIn({ external: { claude: { c: { enabled: false } } } }, p, { enabled: true, trusted: false })).toEqual({ enabled: false, trusted: false });
    expect(pluginStateIn({ external: { claude: { c: { trusted: true } } } }, p, { enabled: true, trusted: false })).toEqual({ enabled: true, trusted: true });
    expect(pluginStateIn({}, p, { enabled: true, trusted: true })).toEqual({ enabled: true, trusted: false });
  });
});

describe("applyTrust with live state", () => {
  it("the master switch holds every loaded source, first; invalid sources keep their status", async () => {
    const f = found(userRoot, pluginRoot("a", "oceancode", true, true));
    f[1]!.item.source.status = "invalid";
    const out = await applyTrust(f, never, { everythingOff: true });
    expect(out.map((s) => s.status)).toEqual(["held: everything off", "invalid"]);
  });

  it("a store that changed since the walk re-decides a plugin: disabled, untrusted, or on again", async () => {
    const f = found(pluginRoot("a", "oceancode", true, true), pluginRoot("b", "oceancode", false, true), pluginRoot("c", "claude", true, false));
    const store = {
      plugins: [
        { name: "a", enabled: false, trusted: true },
        { name: "b", enabled: true, trusted: true },
      ],
      external: { claude: { c: { trusted: true } } },
    };
    expect((await applyTrust(f, never, { everythingOff: false })).map((s) => s.status)).toEqual(["loaded", "held: disabled plugin", "held: untrusted"]);
    expect((await applyTrust(f, never, { everythingOff: false, store })).map((s) => s.status)).toEqual(["held: disabled plugin", "loaded", "loaded"]);
    store.plugins[1]!.trusted = false;
    expect((await applyTrust(f, async () => true, { everythingOff: false, store })).map((s) => s.status)[1]).toBe("held: untrusted");
  });
});

describe("HookRegistry.fresh", () => {
  it("reloads only when a watched file's stamp changed (written, replaced, removed)", async () => {
    const file = path.join(tmp, "installed.json");
    fs.writeFileSync(file, "{}");
    let loads = 0;
    const reg = new HookRegistry(async () => (loads++, []), new LiveFiles([file, path.join(tmp, "absent.json")]));
    await reg.reload();
    expect(await reg.fresh()).toBe(false);
    fs.writeFileSync(`${file}.tmp`, '{"plugins":[]}');
    fs.renameSync(`${file}.tmp`, file);
    expect(await Promise.all([reg.fresh(), reg.fresh()])).toEqual([true, false]);
    expect(await reg.fresh()).toBe(false);
    fs.rmSync(file);
    expect(await reg.fresh()).toBe(true);
    expect(loads).toBe(3);
  });
});

describe("liveRuleItems", () => {
  const item = (root: Root, excluded?: string) => ({ item: { name: "r", kind: "rule", file: path.join(root.dir, "r.md"), layer: root.tier, ...(excluded ? { excluded } : {}) } as RuleItem, root });
  it("plugin rules follow the store now and are left out while everything is off; other tiers are untouched", () => {
    const on = pluginRoot("a", "oceancode", true, true);
    const off = pluginRoot("b", "oceancode", false, true);
    const walked = [item(userRoot), item(on), item(off, "disabled (plugin b)")];
    const store = { plugins: [{ name: "a", enabled: false }, { name: "b" }] };
    expect(liveRuleItems(walked, store, false).map((w) => w.item.excluded)).toEqual([undefined, "disabled (plugin a)", undefined]);
    expect(liveRuleItems(walked, store, true).map((w) => w.item.excluded)).toEqual([undefined, "everything off", "everything off"]);
  });
});

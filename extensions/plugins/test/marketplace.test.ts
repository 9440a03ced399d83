/**
 * `oceancode plugin marketplace add|list|update|remove` through the compiled CLI: a directory
 * marketplace, a git marketplace cloned from a local bare repository (by path and by file:// URL),
 * update pulling a new commit, and a spec that is not a marketplace (a clear error, nothing written).
 */
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeSandbox, type Sandbox } from "../../../test/kit/cli.js";
import { bareRepoOf, git, marketplaceDir, plugin, readJson, writeFiles } from "./fixtures.js";

let sb: Sandbox;
let root: string;
beforeEach(() => {
  sb = makeSandbox("oc-plugins-mk-");
  root = path.dirname(sb.home);
});
afterEach(() => sb.cleanup());

const storeDir = () => path.join(sb.home, ".oceancode", "plugins");
const known = () => readJson(path.join(storeDir(), "known_marketplaces.json")) as Record<string, { type: string; path: string; source: string }>;

describe("a directory marketplace", () => {
  it("is registered under the name its marketplace.json gives, listed, re-read on update and removed (the directory stays)", () => {
    const dir = marketplaceDir(path.join(root, "mk"), "team-tools", [{ name: "hello" }, { name: "lint" }]);
    const add = plugin(sb, "marketplace", "add", dir);
    expect(add.code, add.stderr).toBe(0);
    expect(add.stdout).toBe(`added marketplace team-tools (directory, 2 plugins) ${dir}\n`);
    expect(known()["team-tools"]).toMatchObject({ type: "directory", path: dir, source: dir });
    expect(plugin(sb, "marketplace", "list").stdout).toBe(`team-tools  directory  ${dir}\n`);
    const json = JSON.parse(plugin(sb, "marketplace", "list", "--json").stdout) as Array<{ name: string }>;
    expect(json.map((m) => m.name)).toEqual(["team-tools"]);
    writeFiles(dir, { ".claude-plugin/marketplace.json": JSON.stringify({ name: "team-tools", owner: { name: "T" }, plugins: [{ name: "hello", source: "./plugins/hello" }] }) });
    expect(plugin(sb, "marketplace", "update", "team-tools").stdout).toBe("updated marketplace team-tools (1 plugins)\n");
    const again = plugin(sb, "marketplace", "add", path.join(dir, ".claude-plugin", "marketplace.json"));
    expect(again.code).toBe(1);
    expect(again.stderr).toContain("a marketplace named 'team-tools' is already registered");
    const rm = plugin(sb, "marketplace", "remove", "team-tools");
    expect(rm.code, rm.stderr).toBe(0);
    expect(known()).toEqual({});
    expect(fs.existsSync(path.join(dir, ".claude-plugin", "marketplace.json"))).toBe(true);
  });

  it("a directory that is not a marketplace: an error naming the missing file, exit 1, nothing written", () => {
    const dir = writeFiles(path.join(root, "not-mk"), { "README.md": "hi\n" });
    const r = plugin(sb, "marketplace", "add", dir);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${dir} is not a marketplace: .claude-plugin/marketplace.json is missing`);
    expect(fs.existsSync(storeDir())).toBe(false);
  });

  it("a marketplace.json without a name or plugins names the key that is missing; nothing written", () => {
    const dir = writeFiles(path.join(root, "half"), { ".claude-plugin/marketplace.json": JSON.stringify({ owner: { name: "x" }, plugins: [] }) });
    const r = plugin(sb, "marketplace", "add", dir);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("marketplace.json: name: missing");
    writeFiles(dir, { ".claude-plugin/marketplace.json": JSON.stringify({ name: "half" }) });
    expect(plugin(sb, "marketplace", "add", dir).stderr).toContain("marketplace.json: plugins: missing");
    expect(fs.existsSync(storeDir())).toBe(false);
  });

  it("no such directory and not a git URL: a clear error", () => {
    const r = plugin(sb, "marketplace", "add", path.join(root, "nowhere"));
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("is not a marketplace: no such directory, and not a git URL");
  });
});

describe("a git marketplace", () => {
  it("a local bare repository (by path) is cloned into marketplaces/<name>; update pulls a new commit; remove deletes the clone", () => {
    const work = marketplaceDir(path.join(root, "mk-work"), "gitmk", [{ name: "hello" }]);
    const bare = bareRepoOf(work, path.join(root, "mk.git"));
    const r = plugin(sb, "marketplace", "add", bare);
    expect(r.code, r.stderr).toBe(0);
    const clone = path.join(storeDir(), "marketplaces", "gitmk");
    expect(r.stdout).toBe(`added marketplace gitmk (git, 1 plugins) ${clone}\n`);
    expect(known().gitmk).toMatchObject({ type: "git", path: clone, source: pathToFileURL(bare).href });
    expect(fs.existsSync(path.join(clone, ".claude-plugin", "marketplace.json"))).toBe(true);
    // a new plugin is pushed: update brings it in
    marketplaceDir(work, "gitmk", [{ name: "hello" }, { name: "second" }]);
    git(work, "add", "-A");
    git(work, "commit", "-qm", "second");
    git(work, "push", "-q", bare, "HEAD:main");
    const up = plugin(sb, "marketplace", "update", "gitmk");
    expect(up.stdout, up.stderr).toBe("updated marketplace gitmk (2 plugins)\n");
    expect(fs.existsSync(path.join(clone, "plugins", "second", ".claude-plugin", "plugin.json"))).toBe(true);
    expect(plugin(sb, "marketplace", "remove", "gitmk").code).toBe(0);
    expect(fs.existsSync(clone)).toBe(false);
  });

  it("a file:// URL is cloned the same way, and a plugin installs from it", () => {
    const work = marketplaceDir(path.join(root, "mk-work2"), "urlmk", [{ name: "hello", version: "2.0.0" }]);
    const bare = bareRepoOf(work, path.join(root, "mk2.git"));
    expect(plugin(sb, "marketplace", "add", pathToFileURL(bare).href).code).toBe(0);
    const inst = plugin(sb, "install", "hello@urlmk");
    expect(inst.code, inst.stderr).toBe(0);
    expect(inst.stdout).toContain("installed hello@urlmk 2.0.0 enabled untrusted");
  });

  it("a git repository without a marketplace.json: an error naming what is missing; the clone is removed, nothing registered", () => {
    const work = writeFiles(path.join(root, "plain-work"), { "README.md": "no marketplace here\n" });
    const bare = bareRepoOf(work, path.join(root, "plain.git"));
    const r = plugin(sb, "marketplace", "add", bare);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(".claude-plugin/marketplace.json is missing");
    expect(fs.existsSync(path.join(storeDir(), "known_marketplaces.json"))).toBe(false);
    expect(fs.existsSync(path.join(storeDir(), ".tmp"))).toBe(false);
  });
});

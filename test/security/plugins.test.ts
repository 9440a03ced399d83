/**
 * Hostile plugins and marketplaces: a marketplace entry whose source leaves the marketplace (../, an
 * absolute path, a symlink out), a plugin whose symlinks point outside it (not followed: skipped with a
 * warning), names with path separators or control characters (refused; printed escaped), a git spec
 * that is an option or a transport helper (refused, nothing runs), and an import whose Claude Code
 * records point outside ~/.claude/plugins.
 */
import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeSandbox, type Sandbox } from "../kit/cli.js";
import { marketplaceDir, plugin, pluginFiles, writeFiles } from "../../extensions/plugins/test/fixtures.js";

let sb: Sandbox;
let root: string;
beforeEach(() => {
  sb = makeSandbox("oc-sec-plugins-");
  root = path.dirname(sb.home);
});
afterEach(() => sb.cleanup());

const installedFile = () => path.join(sb.home, ".oceancode", "plugins", "installed.json");
const ESC = "\u001b";

function hostileMarket(source: unknown): string {
  const mk = path.join(root, "mk");
  writeFiles(mk, { ".claude-plugin/marketplace.json": JSON.stringify({ name: "hostile", owner: { name: "x" }, plugins: [{ name: "evil", source }] }) });
  expect(plugin(sb, "marketplace", "add", mk).code).toBe(0);
  return mk;
}

describe("marketplace sources stay inside the marketplace", () => {
  beforeEach(() => {
    writeFiles(path.join(root, "outside"), pluginFiles("evil"));
  });

  it("../ escaping the marketplace is refused; nothing is installed", () => {
    hostileMarket("../outside");
    const r = plugin(sb, "install", "evil@hostile");
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("plugin 'evil': source '../outside' points outside the marketplace");
    expect(fs.existsSync(installedFile())).toBe(false);
  });

  it("an absolute path is refused", () => {
    hostileMarket(path.join(root, "outside"));
    const r = plugin(sb, "install", "evil@hostile");
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("is an absolute path; it must be a path inside the marketplace");
  });

  it("a symlink inside the marketplace that leads out is refused", () => {
    const mk = hostileMarket("./plugins/evil");
    fs.mkdirSync(path.join(mk, "plugins"), { recursive: true });
    fs.symlinkSync(path.join(root, "outside"), path.join(mk, "plugins", "evil"));
    const r = plugin(sb, "install", "evil@hostile");
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("leads outside the marketplace through a symlink");
    expect(fs.existsSync(installedFile())).toBe(false);
  });
});

describe("symlinks inside a plugin are never followed out", () => {
  it("a link to a file outside is skipped with a warning; a link inside is kept as a link", () => {
    const secret = writeFiles(path.join(root, "secret"), { "key.txt": "TOP SECRET\n" });
    const src = writeFiles(path.join(root, "p"), pluginFiles("linky"));
    fs.symlinkSync(path.join(secret, "key.txt"), path.join(src, "skills", "greet", "stolen.txt"));
    fs.symlinkSync(secret, path.join(src, "secret-dir"));
    fs.symlinkSync("SKILL.md", path.join(src, "skills", "greet", "alias.md"));
    const r = plugin(sb, "install", src);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain("skipped the symlink skills/greet/stolen.txt -> ");
    expect(r.stderr).toContain("skipped the symlink secret-dir -> ");
    const dest = path.join(sb.home, ".oceancode", "plugins", "cache", "local", "linky", "1.0.0");
    expect(fs.existsSync(path.join(dest, "skills", "greet", "stolen.txt"))).toBe(false);
    expect(fs.existsSync(path.join(dest, "secret-dir"))).toBe(false);
    expect(fs.readlinkSync(path.join(dest, "skills", "greet", "alias.md"))).toBe("SKILL.md");
  });
});

describe("names are one safe path segment", () => {
  it("a plugin.json name with a path separator is refused at install; validate names the key", () => {
    const src = writeFiles(path.join(root, "sep"), { ".claude-plugin/plugin.json": JSON.stringify({ name: "../../escape", version: "1.0.0" }), "skills/a/SKILL.md": "a\n" });
    const r = plugin(sb, "install", src);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("'../../escape' is not a valid plugin name");
    expect(plugin(sb, "validate", src).stderr).toMatch(/plugin\.json:1: name: expected a string matching/);
    expect(fs.existsSync(path.join(sb.home, ".oceancode", "plugins", "cache"))).toBe(false);
  });

  it("a name with control characters is refused and printed escaped (no raw escape reaches the output)", () => {
    const r = plugin(sb, "install", `bad${ESC}[31mname`);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("is not a valid plugin name");
    expect(r.stdout + r.stderr).not.toContain(ESC);
  });

  it("a marketplace.json name with a separator or a control character is refused; nothing registered", () => {
    for (const name of ["../up", `m${ESC}]52;c;x\u0007`]) {
      const mk = writeFiles(path.join(root, "badname"), { ".claude-plugin/marketplace.json": JSON.stringify({ name, owner: { name: "x" }, plugins: [] }) });
      const r = plugin(sb, "marketplace", "add", mk);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain("is not a valid name");
      expect(r.stderr).not.toContain(ESC);
    }
    expect(fs.existsSync(path.join(sb.home, ".oceancode", "plugins", "known_marketplaces.json"))).toBe(false);
  });
});

describe("git specs", () => {
  it("an option or a transport helper is refused before git runs", () => {
    const marker = path.join(root, "pwned");
    for (const spec of [`--upload-pack=touch ${marker}`, `ext::sh -c touch% ${marker}`]) {
      const r = plugin(sb, "marketplace", "add", spec);
      expect(r.code).not.toBe(0);
    }
    expect(fs.existsSync(marker)).toBe(false);
  });
});

describe("import: Claude Code's records are not trusted to point anywhere", () => {
  it("an install path outside ~/.claude/plugins and a key with separators or controls are skipped, printed escaped", () => {
    writeFiles(path.join(root, "elsewhere"), pluginFiles("far"));
    const cache = path.join(sb.home, ".claude", "plugins", "cache");
    writeFiles(path.join(cache, "m", "ok", "1.0.0"), pluginFiles("ok"));
    const installs = {
      plugins: {
        "far@m": [{ scope: "user", installPath: path.join(root, "elsewhere") }],
        "../../up@m": [{ scope: "user", installPath: path.join(cache, "m", "ok", "1.0.0") }],
        [`e${ESC}[2Jx@m`]: [{ scope: "user", installPath: path.join(cache, "m", "ok", "1.0.0") }],
        "ok@m": [{ scope: "user", installPath: path.join(cache, "m", "ok", "1.0.0") }],
      },
    };
    writeFiles(sb.home, { ".claude/plugins/installed_plugins.json": JSON.stringify(installs) });
    const r = plugin(sb, "import", "--from", "claude-code");
    expect(r.code, r.stderr).toBe(0);
    const out = r.stdout.trim().split("\n");
    expect(out).toContain(`SKIP far install failed: ${path.join(root, "elsewhere")} is outside ~/.claude/plugins`);
    expect(out).toContain("SKIP ../../up@m install failed: '../../up@m' is not a valid plugin@marketplace name");
    expect(out).toContain("SKIP e\\u001b[2Jx@m install failed: 'e\\u001b[2Jx@m' is not a valid plugin@marketplace name");
    expect(out).toContain("IMPORT ok@m 1.0.0 enabled untrusted");
    expect(out.at(-1)).toBe("IMPORT_OK plugins=1 marketplaces=0 repo_trust=false");
    expect(r.stdout).not.toContain(ESC);
    expect(fs.readdirSync(path.join(sb.home, ".oceancode", "plugins", "cache"))).toEqual(["m"]);
  });
});

/**
 * `oceancode plugin install|list|enable|disable|trust|validate|update|uninstall` through the compiled CLI:
 * from a directory marketplace and by path, the records in installed.json, what `inspect --json` then
 * sees (an enabled plugin's skill as <plugin>:<name>, a disabled plugin's not at all), a corrupt store
 * refused without being overwritten, and two installs at once that both land.
 */
import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeSandbox, runCli, runCliAsync, type Sandbox } from "../../../test/kit/cli.js";
import { marketplaceDir, plugin, pluginFiles, readJson, writeFiles } from "./fixtures.js";

let sb: Sandbox;
let root: string;
beforeEach(() => {
  sb = makeSandbox("oc-plugins-inst-");
  root = path.dirname(sb.home);
});
afterEach(() => sb.cleanup());

const installedFile = () => path.join(sb.home, ".oceancode", "plugins", "installed.json");
type Rec = { name: string; path: string; version: string; marketplace: string; enabled: boolean; trusted: boolean; installed_at: string };
const records = () => (readJson(installedFile()) as { plugins: Rec[] }).plugins;
const cols = (out: string) => out.trim().split("\n").map((l) => l.split(/\s{2,}/));

function skillRows(): Array<{ id: string; layer: string; value: string }> {
  const r = runCli(["inspect", "--json"], { cwd: sb.project, env: sb.env });
  expect(r.code, r.stderr).toBe(0);
  // the skills a session would offer: a disabled plugin's rows stay in inspect, marked disabled
  return (JSON.parse(r.stdout) as Array<{ kind: string; id: string; layer: string; value: string; state: string }>).filter((x) => (x.kind === "skill" || x.kind === "command") && x.state !== "disabled");
}

describe("install from a marketplace and by path", () => {
  it("installs, lists, disables, enables, trusts, updates and uninstalls; inspect follows the enabled state", () => {
    const mk = marketplaceDir(path.join(root, "mk"), "team", [{ name: "hello", version: "1.0.0" }]);
    expect(plugin(sb, "marketplace", "add", mk).code).toBe(0);
    const inst = plugin(sb, "install", "hello");
    expect(inst.code, inst.stderr).toBe(0);
    const cache = path.join(sb.home, ".oceancode", "plugins", "cache", "team", "hello", "1.0.0");
    expect(inst.stdout).toBe(`installed hello@team 1.0.0 enabled untrusted ${cache}\n`);
    expect(inst.stderr).toContain("hello is not trusted: its hooks and MCP servers stay dormant until oceancode plugin trust hello");
    expect(records()).toEqual([{ name: "hello", path: cache, version: "1.0.0", marketplace: "team", enabled: true, trusted: false, installed_at: expect.any(String) }]);
    expect(fs.readFileSync(path.join(cache, "skills", "greet", "SKILL.md"), "utf8")).toContain("HELLO GREET BODY");

    // by path, trusted, with --marketplace naming its group
    const local = writeFiles(path.join(root, "src", "tools"), pluginFiles("tools", "0.3.0", "fmt"));
    const byPath = plugin(sb, "install", local, "--trust");
    expect(byPath.code, byPath.stderr).toBe(0);
    expect(byPath.stdout).toContain("installed tools@local 0.3.0 enabled trusted");
    expect(cols(plugin(sb, "list").stdout)).toEqual([
      ["hello", "1.0.0", "enabled", "untrusted", "oceancode", "team"],
      ["tools", "0.3.0", "enabled", "trusted", "oceancode", "local"],
    ]);
    expect(skillRows().map((r) => `${r.layer} ${r.value}`)).toEqual(expect.arrayContaining(["plugin:hello hello:greet", "plugin:tools tools:fmt", "plugin:hello hello:hello"]));

    expect(plugin(sb, "disable", "hello").stdout).toBe("hello disabled\n");
    expect(records().find((r) => r.name === "hello")?.enabled).toBe(false);
    const rows = skillRows().map((r) => r.value);
    expect(rows).toContain("tools:fmt");
    expect(rows.filter((v) => v.startsWith("hello:"))).toEqual([]);
    expect(plugin(sb, "enable", "hello").stdout).toBe("hello enabled\n");
    expect(skillRows().map((r) => r.value)).toContain("hello:greet");

    expect(plugin(sb, "trust", "hello").stdout).toBe("hello trusted: its hooks and MCP servers may run\n");
    expect(plugin(sb, "trust", "tools", "--off").stdout).toBe("tools untrusted: its hooks and MCP servers stay dormant\n");
    expect(records().map((r) => `${r.name}=${r.trusted}`)).toEqual(["hello=true", "tools=false"]);
    // inspect has one plugin row each, with its state
    const inspect = JSON.parse(runCli(["inspect", "--json"], { cwd: sb.project, env: sb.env }).stdout) as Array<{ kind: string; id: string; state: string; value: string }>;
    expect(inspect.filter((r) => r.kind === "plugin").map((r) => `${r.id} ${r.value} ${r.state}`)).toEqual(["hello 1.0.0 enabled, trusted", "tools 0.3.0 enabled, untrusted"]);

    const dis = plugin(sb, "disable-all");
    expect(dis.stdout.trim().split("\n").at(-1)).toBe("2 plugins disabled");
    expect(records().every((r) => !r.enabled)).toBe(true);
    expect(skillRows().filter((r) => r.layer.startsWith("plugin:"))).toEqual([]);
    expect(plugin(sb, "enable-all").stdout.trim().split("\n").at(-1)).toBe("2 plugins enabled");

    // a new version in the marketplace: update re-copies it, keeps enabled/trusted, removes the old copy
    writeFiles(mk, { "plugins/hello/.claude-plugin/plugin.json": JSON.stringify({ name: "hello", version: "1.1.0" }) });
    const up = plugin(sb, "update", "hello");
    expect(up.stdout, up.stderr).toBe("updated hello 1.0.0 -> 1.1.0\n");
    expect(records().find((r) => r.name === "hello")).toMatchObject({ version: "1.1.0", enabled: true, trusted: true });
    expect(fs.existsSync(cache)).toBe(false);
    // by path: update re-reads the source directory
    writeFiles(local, { ".claude-plugin/plugin.json": JSON.stringify({ name: "tools", version: "0.4.0" }) });
    expect(plugin(sb, "update", "tools").stdout).toBe("updated tools 0.3.0 -> 0.4.0\n");

    expect(plugin(sb, "uninstall", "hello").stdout).toBe("uninstalled hello 1.1.0\n");
    expect(records().map((r) => r.name)).toEqual(["tools"]);
    expect(fs.existsSync(path.join(sb.home, ".oceancode", "plugins", "cache", "team"))).toBe(false);
    const again = plugin(sb, "uninstall", "hello");
    expect(again.code).toBe(1);
    expect(again.stderr).toContain("no plugin named 'hello' is installed");
  });

  it("name@marketplace and --marketplace pick between marketplaces that list the same name; an unknown name is refused", () => {
    expect(plugin(sb, "marketplace", "add", marketplaceDir(path.join(root, "a"), "mka", [{ name: "dup", version: "1.0.0" }])).code).toBe(0);
    expect(plugin(sb, "marketplace", "add", marketplaceDir(path.join(root, "b"), "mkb", [{ name: "dup", version: "2.0.0" }])).code).toBe(0);
    const amb = plugin(sb, "install", "dup");
    expect(amb.code).toBe(1);
    expect(amb.stderr).toContain("'dup' is in several marketplaces (mka, mkb): pass dup@<marketplace>");
    expect(plugin(sb, "install", "dup@mkb").stdout).toContain("installed dup@mkb 2.0.0");
    const other = plugin(sb, "install", "dup", "--marketplace", "mka");
    expect(other.code).toBe(1);
    expect(other.stderr).toContain("a plugin named 'dup' is already installed from 'mkb'; uninstall it first");
    const none = plugin(sb, "install", "nope");
    expect(none.code).toBe(1);
    expect(none.stderr).toContain("no registered marketplace lists a plugin named 'nope'");
  });
});

describe("validate", () => {
  it("a valid manifest: VALID with its file; a wrong one: each problem names the file, line, JSON path and what was expected (exit 1), and install refuses it", () => {
    const good = writeFiles(path.join(root, "good"), pluginFiles("good"));
    const ok = plugin(sb, "validate", good);
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stdout).toBe(`VALID good ${path.join(good, ".claude-plugin", "plugin.json")}\n`);
    const bad = writeFiles(path.join(root, "bad"), {
      ".claude-plugin/plugin.json": '{\n  "version": 3,\n  "keywords": ["a", 2]\n}\n',
      "skills/x/SKILL.md": "x\n",
    });
    const file = path.join(bad, ".claude-plugin", "plugin.json");
    const r = plugin(sb, "validate", bad);
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split("\n").sort()).toEqual([`${file}:1: (root): missing required key 'name'`, `${file}:2: version: expected string`, `${file}:3: keywords.1: expected string`].sort());
    const inst = plugin(sb, "install", bad);
    expect(inst.code).toBe(1);
    expect(inst.stderr).toContain("the plugin's manifest is invalid");
    expect(fs.existsSync(installedFile())).toBe(false);
    // an installed plugin validates by name
    expect(plugin(sb, "install", good).code).toBe(0);
    expect(plugin(sb, "validate", "good").stdout).toContain("VALID good ");
  });

  it("a directory that is no plugin at all says so", () => {
    const dir = writeFiles(path.join(root, "empty"), { "README.md": "x" });
    const r = plugin(sb, "validate", dir);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("not a plugin: no ");
  });
});

describe("the store on disk", () => {
  it("an installed.json that does not parse is refused with its name; it is left exactly as it was", () => {
    const file = writeFiles(sb.home, { ".oceancode/plugins/installed.json": "{ not json" }) && installedFile();
    const local = writeFiles(path.join(root, "p"), pluginFiles("p"));
    const r = plugin(sb, "install", local);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${file} is not valid JSON`);
    expect(r.stderr).toContain("nothing was changed");
    expect(fs.readFileSync(file, "utf8")).toBe("{ not json");
    expect(plugin(sb, "list").stderr).toContain(`${file} is not valid JSON`);
  });

  it("two installs at once: both are recorded (the lock serialises read-modify-write)", async () => {
    const dirs = ["one", "two", "three", "four"].map((n) => writeFiles(path.join(root, n), pluginFiles(n)));
    const runs = await Promise.all(dirs.map((d) => runCliAsync(["plugin", "install", d, "--root", sb.project], { env: sb.env, cwd: sb.project })));
    for (const r of runs) expect(r.code, r.stderr).toBe(0);
    expect(records().map((r) => r.name)).toEqual(["four", "one", "three", "two"]);
    expect(fs.existsSync(path.join(sb.home, ".oceancode", "plugins", ".lock"))).toBe(false);
  });

  it("--root must be a directory; an unknown option is a usage error", () => {
    const r = runCli(["plugin", "list", "--root", path.join(root, "missing")], { env: sb.env, cwd: sb.project });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("no such directory");
    const u = plugin(sb, "list", "--bogus");
    expect(u.code).toBe(2);
    expect(u.stderr).toContain("unknown option '--bogus'");
  });
});

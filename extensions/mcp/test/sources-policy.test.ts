/** Precedence and shadowing (incl. the held winner), trust (trust.json, Claude Code's lists), enable, the allow-list. */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type ProjectTrust } from "../../trust/api.js";
import { emptyTrust } from "../../trust/kit.js";
import { inspectRows, resolveServers, type ResolveInput } from "../sources/index.js";

let root: string;
let home: string;
let project: string;
const write = (file: string, v: unknown) => {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, JSON.stringify(v, null, 2));
};
const trust = (t: Partial<ProjectTrust>): ProjectTrust => ({ ...emptyTrust(), ...t });
const resolve = (extra: Partial<ResolveInput> = {}) =>
  resolveServers({ project, home, userOcDir: path.join(home, ".oceancode"), env: {}, tracked: () => false, plugins: [], ...extra });
const claude = (v: Record<string, unknown>) => write(path.join(home, ".claude.json"), v);
const mcpJson = (servers: Record<string, unknown>) => write(path.join(project, ".mcp.json"), { mcpServers: servers });

beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "oc-mcppol-"));
  home = path.join(root, "home");
  project = path.join(root, "proj");
  fs.mkdirSync(project, { recursive: true });
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

describe("precedence and shadowing", () => {
  it("the narrowest copy that may run runs under the bare name; the others are shadowed <tier>:<name>", () => {
    claude({ mcpServers: { db: { command: "user-db" } }, projects: { [project]: { mcpServers: { db: { command: "local-db" } } } } });
    mcpJson({ db: { command: "project-db" } });
    const got = resolve({ trust: trust({ repo: true }) });
    expect(got.map((e) => [e.qualifiedName, e.tier, e.hold])).toEqual([
      ["db", "local", "ready"],
      ["project:db", "project", "shadowed"],
      ["user:db", "user", "shadowed"],
    ]);
  });

  it("a held winner (untrusted) lets the next copy run, and is listed with its hold", () => {
    claude({ mcpServers: { db: { command: "user-db" } } });
    mcpJson({ db: { command: "project-db" } });
    const got = resolve();
    expect(got.map((e) => [e.qualifiedName, e.tier, e.hold])).toEqual([
      ["project:db", "project", "untrusted"],
      ["db", "user", "ready"],
    ]);
    expect(got[0]!.reason).toMatch(/untrusted.*the user copy runs instead/);
  });

  it("a held winner (enabled: false) lets the next copy run; no copy may run: the narrowest shows its hold", () => {
    write(path.join(project, "opencode.json"), { mcp: { db: { type: "local", command: ["oc-db"], enabled: false } } });
    claude({ mcpServers: { db: { command: "user-db" } } });
    expect(resolve({ trust: trust({ repo: true }) }).map((e) => [e.qualifiedName, e.hold])).toEqual([
      ["project:db", "disabled"],
      ["db", "ready"],
    ]);
    const none = resolve({ trust: trust({ disabled_mcp: ["db"] }) });
    expect(none.map((e) => [e.qualifiedName, e.hold])).toEqual([
      ["db", "disabled"],
      ["user:db", "shadowed"],
    ]);
  });

  it("inspectRows: one row per copy with layer, source and state", () => {
    claude({ mcpServers: { db: { command: "user-db" } } });
    mcpJson({ db: { command: "project-db" } });
    const rows = inspectRows(resolve());
    expect(rows).toEqual([
      expect.objectContaining({ kind: "mcp", id: "project:db", layer: "project", source: path.join(project, ".mcp.json"), state: "untrusted" }),
      expect.objectContaining({ kind: "mcp", id: "db", layer: "user", source: path.join(home, ".claude.json"), state: "ready" }),
    ]);
  });
});

describe("trust", () => {
  beforeEach(() => mcpJson({ a: { command: "a" }, b: { command: "b" } }));
  const holds = (extra: Partial<ResolveInput> = {}) => Object.fromEntries(resolve(extra).map((e) => [e.name, e.hold]));

  it("project servers are held until trust repo on; a per-server override beats repo both ways", () => {
    expect(holds()).toEqual({ a: "untrusted", b: "untrusted" });
    expect(holds({ trust: trust({ repo: true }) })).toEqual({ a: "ready", b: "ready" });
    expect(holds({ trust: trust({ mcp: { a: true } }) })).toEqual({ a: "ready", b: "untrusted" });
    expect(holds({ trust: trust({ repo: true, mcp: { b: false } }) })).toEqual({ a: "ready", b: "untrusted" });
  });

  it("Claude Code's enabledMcpjsonServers and enableAllProjectMcpServers (in ~/.claude.json) trust .mcp.json servers", () => {
    claude({ projects: { [project]: { enabledMcpjsonServers: ["a"] } } });
    expect(holds()).toEqual({ a: "ready", b: "untrusted" });
    claude({ projects: { [project]: { enableAllProjectMcpServers: true } } });
    expect(holds()).toEqual({ a: "ready", b: "ready" });
  });

  it("~/.claude/settings.json counts; an untracked .claude/settings.local.json counts; a tracked one may only disable", () => {
    write(path.join(home, ".claude", "settings.json"), { enabledMcpjsonServers: ["a"] });
    expect(holds()).toEqual({ a: "ready", b: "untrusted" });
    const local = path.join(project, ".claude", "settings.local.json");
    write(local, { enabledMcpjsonServers: ["b"] });
    expect(holds()).toEqual({ a: "ready", b: "ready" });
    expect(holds({ tracked: (f) => f === local })).toEqual({ a: "ready", b: "untrusted" });
  });

  it("Claude Code's disabled lists hold a server disabled at every tier; an explicit enable beats them", () => {
    claude({ mcpServers: { u: { command: "u" } }, projects: { [project]: { disabledMcpServers: ["u"], disabledMcpjsonServers: ["a"] } } });
    const got = holds({ trust: trust({ repo: true }) });
    expect(got).toMatchObject({ u: "disabled", a: "disabled", b: "ready" });
    expect(holds({ trust: trust({ repo: true, enabled_mcp: ["u"] }) })).toMatchObject({ u: "ready" });
  });

  it("disabled_mcp beats every enable; enabled_mcp beats an entry's enabled: false", () => {
    write(path.join(home, ".config", "opencode", "opencode.json"), { mcp: { off: { type: "remote", url: "https://x", enabled: false } } });
    const r = (t: Partial<ProjectTrust>) => resolve({ env: { XDG_CONFIG_HOME: path.join(home, ".config") }, trust: trust(t) }).find((e) => e.name === "off")!;
    expect(r({}).hold).toBe("disabled");
    expect(r({ enabled_mcp: ["off"] }).hold).toBe("ready");
    expect(r({ enabled_mcp: ["off"], disabled_mcp: ["off"] }).hold).toBe("disabled");
  });

  it("plugin servers run only when the plugin is trusted or the server is trusted by name", () => {
    const dir = path.join(root, "p");
    write(path.join(dir, ".mcp.json"), { mcpServers: { g: { command: "g" } } });
    const g = (trusted: boolean, t: Partial<ProjectTrust> = {}) => resolve({ plugins: [{ name: "p", dir, enabled: true, trusted }], trust: trust(t) }).find((e) => e.name === "g")!;
    expect(g(false)).toMatchObject({ trusted: false, hold: "untrusted", plugin: "p" });
    expect(g(false, { repo: true }).hold).toBe("untrusted");
    expect(g(false, { mcp: { g: true } }).hold).toBe("ready");
    expect(g(true).hold).toBe("ready");
  });
});

describe("signed requirements allow-list", () => {
  it("refuses what the allow-list does not name, by name, command and url", () => {
    claude({ mcpServers: { ok: { command: "npx" }, cmd: { command: "evil" }, web: { url: "https://evil.example/mcp" }, web2: { url: "https://good.example/mcp" }, other: { command: "x" } } });
    const req = { allow: [{ name: "ok", command: "npx" }, { name: "cmd", command: "npx" }, { name: "web*", url: "https://good.example/*" }] };
    const got = Object.fromEntries(resolve({ requirements: req }).map((e) => [e.name, [e.hold, e.reason ?? ""]]));
    expect(got.ok).toEqual(["ready", ""]);
    expect(got.cmd![0]).toBe("refused");
    expect(got.cmd![1]).toMatch(/another command/);
    expect(got.web![0]).toBe("refused");
    expect(got.web2![0]).toBe("ready");
    expect(got.other![1]).toMatch(/do not allow a server named 'other'/);
  });
  it("a refused winner lets an allowed copy run", () => {
    claude({ mcpServers: { db: { command: "npx" } }, projects: { [project]: { mcpServers: { db: { command: "evil" } } } } });
    const got = resolve({ requirements: { allow: [{ name: "db", command: "npx" }] } });
    expect(got.map((e) => [e.qualifiedName, e.hold])).toEqual([
      ["local:db", "refused"],
      ["db", "ready"],
    ]);
  });
});

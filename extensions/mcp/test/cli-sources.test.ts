/** `oceancode mcp` through the compiled CLI: add at each scope, list, disable/enable, remove; trust releasing a project server; shadowing; a broken file. */
import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeSandbox, runCli, type Sandbox } from "../../../test/kit/cli.js";

let sb: Sandbox;
beforeEach(() => {
  sb = makeSandbox("oc-mcpcli-");
});
afterEach(() => sb.cleanup());

const mcp = (...args: string[]) => runCli(["--dir", sb.project, "mcp", ...args], { env: sb.env, cwd: sb.project });
const rows = () => {
  const r = mcp("list", "--json");
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as Array<Record<string, unknown>>;
};
const claudeJson = () => JSON.parse(fs.readFileSync(path.join(sb.home, ".claude.json"), "utf8")) as Record<string, any>;

describe("oceancode mcp", () => {
  it("add at each scope -> list -> disable -> list -> enable -> remove, keeping every other key", () => {
    sb.write(".claude.json", JSON.stringify({ numStartups: 7, projects: { "/elsewhere": { allowedTools: ["x"] } } }), "home");
    expect(mcp("add", "proj", "--command", "npx", "--arg", "-y", "--arg", "@modelcontextprotocol/server-everything", "--env", "A=1").code).toBe(0);
    expect(mcp("add", "usr", "--url", "https://u.example/mcp", "--header", "Authorization: Bearer ${TOK}", "--scope", "user").code).toBe(0);
    expect(mcp("add", "loc", "--command", "node", "--arg", "srv.js", "--scope", "local").code).toBe(0);
    expect(JSON.parse(fs.readFileSync(path.join(sb.project, ".mcp.json"), "utf8"))).toEqual({
      mcpServers: { proj: { command: "npx", args: ["-y", "@modelcontextprotocol/server-everything"], env: { A: "1" } } },
    });
    const cj = claudeJson();
    expect(cj.numStartups).toBe(7);
    expect(cj.projects["/elsewhere"]).toEqual({ allowedTools: ["x"] });
    expect(cj.mcpServers.usr).toEqual({ type: "http", url: "https://u.example/mcp", headers: { Authorization: "Bearer ${TOK}" } });
    expect(cj.projects[sb.project].mcpServers.loc).toEqual({ command: "node", args: ["srv.js"], env: {} });

    const list = mcp("list");
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(/^loc {2}stdio {2}local {2}trusted {2}enabled {2}\S*\.claude\.json$/m);
    expect(list.stdout).toMatch(/^proj {2}stdio {2}project {2}untrusted {2}enabled {2}\S*\.mcp\.json {2}\(untrusted/m);
    expect(list.stdout).toMatch(/^usr {2}remote {2}user {2}trusted {2}enabled /m);

    expect(mcp("disable", "usr").stdout).toBe("disabled usr\n");
    expect(rows().find((r) => r.name === "usr")).toMatchObject({ enabled: false, status: "disabled", kind: "remote", tier: "user", qualified_name: "usr" });
    expect(mcp("list").stdout).toMatch(/^usr {2}remote {2}user {2}trusted {2}disabled /m);
    expect(mcp("enable", "usr").code).toBe(0);
    expect(rows().find((r) => r.name === "usr")).toMatchObject({ enabled: true, status: "ready" });
    const trust = JSON.parse(fs.readFileSync(path.join(sb.home, ".oceancode", "trust.json"), "utf8"));
    expect(trust[sb.project]).toMatchObject({ disabled_mcp: [], enabled_mcp: ["usr"] });

    for (const n of ["proj", "usr", "loc"]) expect(mcp("remove", n).code).toBe(0);
    expect(rows()).toEqual([]);
    expect(claudeJson().numStartups).toBe(7);
  });

  it("usage errors: exactly one of --command/--url, a bad scope, a bad name", () => {
    expect(mcp("add", "x").code).toBe(2);
    expect(mcp("add", "x", "--command", "a", "--url", "https://b").code).toBe(2);
    expect(mcp("add", "x", "--command", "a", "--scope", "global").code).toBe(2);
    const r = mcp("add", "bad\u001bname", "--command", "a");
    expect(r.code).toBe(2);
    expect(r.stderr).not.toContain("\u001b");
  });

  it("trust repo on releases a project server in mcp list", () => {
    sb.write(".mcp.json", JSON.stringify({ mcpServers: { db: { command: "db-server" } } }));
    expect(rows()).toEqual([expect.objectContaining({ name: "db", tier: "project", trusted: false, status: "untrusted" })]);
    expect(runCli(["--dir", sb.project, "trust", "repo", "on"], { env: sb.env }).code).toBe(0);
    expect(rows()).toEqual([expect.objectContaining({ name: "db", trusted: true, status: "ready" })]);
  });

  it("a shadowed copy is listed, never the one that runs", () => {
    sb.write(".claude.json", JSON.stringify({ mcpServers: { db: { command: "user-db" } }, projects: { [sb.project]: { mcpServers: { db: { command: "local-db" } } } } }), "home");
    const r = mcp("list");
    expect(r.stdout).toMatch(/^db {2}stdio {2}local {2}trusted {2}enabled /m);
    expect(r.stdout).toMatch(/^user:db {2}stdio {2}user {2}trusted {2}shadowed /m);
    expect(rows().map((x) => [x.qualified_name, x.status])).toEqual([
      ["db", "ready"],
      ["user:db", "shadowed"],
    ]);
    const rm = mcp("remove", "db");
    expect(rm.code).toBe(1);
    expect(rm.stderr).toMatch(/more than one file/);
    expect(mcp("remove", "db", "--scope", "user").code).toBe(0);
    expect(rows().map((x) => x.qualified_name)).toEqual(["db"]);
  });

  it("a broken .mcp.json next to a working ~/.claude.json: one warning naming the file, the rest listed, add refuses to touch it", () => {
    sb.write(".mcp.json", '{ "mcpServers": { "x": { "command": "x" }, }\n  oops');
    sb.write(".claude.json", JSON.stringify({ mcpServers: { ok: { command: "ok" } } }), "home");
    const r = mcp("list");
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^ok {2}stdio {2}user /m);
    const warnings = r.stderr.split("\n").filter((l) => l.includes("warning"));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(`${path.join(sb.project, ".mcp.json")}:2: not valid JSON`);
    const before = fs.readFileSync(path.join(sb.project, ".mcp.json"), "utf8");
    const add = mcp("add", "y", "--command", "y");
    expect(add.code).toBe(1);
    expect(add.stderr).toContain(path.join(sb.project, ".mcp.json"));
    expect(fs.readFileSync(path.join(sb.project, ".mcp.json"), "utf8")).toBe(before);
  });

  it("--root points at another project", () => {
    const other = path.join(path.dirname(sb.project), "other");
    fs.mkdirSync(other);
    expect(mcp("add", "o", "--command", "o", "--root", other).code).toBe(0);
    expect(fs.existsSync(path.join(other, ".mcp.json"))).toBe(true);
    expect(rows()).toEqual([]);
    expect(JSON.parse(mcp("list", "--json", "--root", other).stdout)).toEqual([expect.objectContaining({ name: "o", tier: "project" })]);
  });
});

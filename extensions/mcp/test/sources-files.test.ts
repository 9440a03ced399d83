/** Each source reader, both entry dialects, bad input (broken file, wrong shape), and expansion. */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { expandServer, resolveServers, type ResolveInput } from "../sources/index.js";
import { parseEntry } from "../sources/shapes.js";

let root: string;
let home: string;
let project: string;
const write = (file: string, v: unknown) => {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, typeof v === "string" ? v : JSON.stringify(v, null, 2));
};
const input = (extra: Partial<ResolveInput> = {}): ResolveInput => ({
  project,
  home,
  userOcDir: path.join(home, ".oceancode"),
  env: { XDG_CONFIG_HOME: path.join(home, ".config") },
  tracked: () => false,
  plugins: [],
  ...extra,
});
beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "oc-mcpsrc-"));
  home = path.join(root, "home");
  project = path.join(root, "proj");
  fs.mkdirSync(project, { recursive: true });
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

describe("source readers", () => {
  it("reads every file at its tier", () => {
    write(path.join(home, ".claude.json"), {
      numStartups: 3,
      mcpServers: { u1: { command: "u1" } },
      projects: { [project]: { mcpServers: { l1: { type: "http", url: "https://l1" } } } },
    });
    write(path.join(project, ".mcp.json"), { mcpServers: { p1: { command: "p1", args: ["a"], env: { K: "v" } }, p2: { type: "sse", url: "https://p2/sse" } } });
    write(path.join(project, ".cursor", "mcp.json"), { mcpServers: { c1: { command: "c1" } } });
    write(path.join(home, ".cursor", "mcp.json"), { mcpServers: { c2: { url: "https://c2" } } });
    write(path.join(project, "opencode.json"), { mcp: { o1: { type: "local", command: ["node", "s.js"], environment: { A: "1" } }, o2: { type: "remote", url: "https://o2", enabled: false } } });
    write(path.join(project, ".opencode", "opencode.json"), { mcp: { o3: { type: "local", command: ["o3"] } } });
    write(path.join(home, ".config", "opencode", "opencode.json"), { mcp: { o4: { type: "remote", url: "https://o4" } } });
    write(path.join(project, ".oceancode", "oceancode.json"), { mcp: { servers: { k1: { command: "k1" } } } });
    write(path.join(home, ".config", "oceancode", "oceancode.json"), { mcp: { servers: { k2: { command: "k2" } } } });
    const plug = path.join(root, "plug");
    write(path.join(plug, ".mcp.json"), { mcpServers: { g1: { command: "g1" } } });
    const off = path.join(root, "off");
    write(path.join(off, ".mcp.json"), { mcpServers: { g2: { command: "g2" } } });
    const got = resolveServers(input({ plugins: [{ name: "plug", dir: plug, enabled: true, trusted: true }, { name: "off", dir: off, enabled: false, trusted: true }] }));
    const tiers = Object.fromEntries(got.map((e) => [e.name, e.tier]));
    expect(tiers).toEqual({ k1: "local", l1: "local", p1: "project", p2: "project", c1: "project", o1: "project", o2: "project", o3: "project", k2: "user", u1: "user", c2: "user", o4: "user", g1: "plugin" });
    const by = (n: string) => got.find((e) => e.name === n)!;
    expect(by("p1").config).toEqual({ type: "stdio", command: "p1", args: ["a"], env: { K: "v" } });
    expect(by("p2").config).toEqual({ type: "sse", url: "https://p2/sse", headers: {} });
    expect(by("o1").config).toEqual({ type: "stdio", command: "node", args: ["s.js"], env: { A: "1" } });
    expect(by("o2")).toMatchObject({ enabled: false, hold: "disabled" });
    expect(by("g1")).toMatchObject({ plugin: "plug", trusted: true, hold: "ready" });
    expect(by("u1")).toMatchObject({ trusted: true, hold: "ready", source: path.join(home, ".claude.json") });
  });

  it("a tracked project oceancode.json is the project tier (untrusted)", () => {
    const f = path.join(project, ".oceancode", "oceancode.json");
    write(f, { mcp: { servers: { k1: { command: "k1" } } } });
    const [e] = resolveServers(input({ tracked: (x) => x === f }));
    expect(e).toMatchObject({ name: "k1", tier: "project", trusted: false, hold: "untrusted" });
  });

  it("a broken file is one warning naming it and its line; other files still read", () => {
    write(path.join(project, ".mcp.json"), '{\n  "mcpServers": {\n    "x": { "command": "x" \n');
    write(path.join(home, ".claude.json"), { mcpServers: { ok: { command: "ok" } } });
    const warnings: string[] = [];
    const got = resolveServers(input({ warn: (m) => warnings.push(m) }));
    expect(got.map((e) => e.name)).toEqual(["ok"]);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(new RegExp(`${path.join(project, ".mcp.json").replace(/[.]/g, "\\.")}:\\d+: not valid JSON`));
  });

  it("an entry of the wrong shape is a warning naming file, line and JSON path; the rest still load", () => {
    write(path.join(project, ".mcp.json"), { mcpServers: { bad: { command: "x", args: ["ok", 3] }, worse: 7, "bad\u001bname": { command: "z" }, good: { command: "g" } } });
    const warnings: string[] = [];
    const got = resolveServers(input({ warn: (m) => warnings.push(m), trust: { repo: true, mcp: {}, disabled_mcp: [], enabled_mcp: [], enabled_skills: [], everything_off: false } }));
    expect(got.map((e) => e.name)).toEqual(["good"]);
    expect(warnings.join("\n")).toContain("mcpServers.bad.args.1: expected a string");
    expect(warnings.join("\n")).toContain("mcpServers.worse: expected an object");
    expect(warnings.join("\n")).not.toMatch(/\u001b/);
    expect(warnings.every((w) => /\.mcp\.json:\d+: /.test(w))).toBe(true);
  });

  it("parseEntry refuses what it cannot run", () => {
    expect(parseEntry({ type: "ws", url: "x" }, ["s"])).toMatchObject({ ok: false, at: ["s", "type"] });
    expect(parseEntry({ url: "file:///etc/passwd" }, ["s"])).toMatchObject({ ok: false, at: ["s", "url"] });
    expect(parseEntry({ type: "local", command: [] }, ["s"])).toMatchObject({ ok: false });
    expect(parseEntry({ type: "stdio", command: "x", disabled: true }, ["s"])).toMatchObject({ ok: true, off: true });
  });
});

describe("expandServer", () => {
  it("expands ${VAR} and ${VAR:-default} in command, args, env, url and headers; unresolved stay literal and are reported", () => {
    const env = { HOME_BIN: "/bin", TOKEN: "t0k", EMPTY: "" };
    const s = expandServer({ type: "stdio", command: "${HOME_BIN}/srv", args: ["--x=${MISSING}", "${EMPTY:-dflt}", "${NOPE:-}"], env: { A: "${TOKEN}", B: "${ALSO_MISSING}" } }, env);
    expect(s.config).toEqual({ type: "stdio", command: "/bin/srv", args: ["--x=${MISSING}", "dflt", ""], env: { A: "t0k", B: "${ALSO_MISSING}" } });
    expect(s.unresolved).toEqual(["ALSO_MISSING", "MISSING"]);
    const r = expandServer({ type: "http", url: "https://${HOST:-api.example.com}/mcp", headers: { Authorization: "Bearer ${TOKEN}" } }, env);
    expect(r).toEqual({ config: { type: "http", url: "https://api.example.com/mcp", headers: { Authorization: "Bearer t0k" } }, unresolved: [] });
  });
  it("leaves $VAR without braces and malformed references alone", () => {
    expect(expandServer({ type: "stdio", command: "$X ${ } ${1A}", args: [], env: {} }, { X: "y" }).config).toMatchObject({ command: "$X ${ } ${1A}" });
  });
});

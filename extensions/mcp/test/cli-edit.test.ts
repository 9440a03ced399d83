/** The file edits behind `mcp add` / `mcp remove`: comments, other keys and formatting survive; broken files are refused untouched. */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { addServer, declaredAt, removeServer, scopeTarget } from "../cli/edit.js";
import { McpEditRefused } from "../errors.js";
import { parseMcpArgs, pairs } from "../cli/args.js";

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "oc-mcpedit-"));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

describe("edit", () => {
  it("removes from a JSONC opencode.json keeping its comments and other servers", () => {
    const f = path.join(dir, "opencode.json");
    fs.writeFileSync(f, '{\n  // my servers\n  "theme": "dark",\n  "mcp": {\n    "a": { "type": "local", "command": ["a"] }, // keep\n    "b": { "type": "remote", "url": "https://b" }\n  }\n}\n');
    expect(declaredAt(f, "project", dir)).toEqual(["mcp"]);
    expect(removeServer(f, ["mcp"], "b")).toBe(true);
    const text = fs.readFileSync(f, "utf8");
    expect(text).toContain("// my servers");
    expect(text).toContain('"theme": "dark"');
    expect(text).toContain('"a": { "type": "local", "command": ["a"] }');
    expect(text).not.toContain('"b"');
    expect(removeServer(f, ["mcp"], "b")).toBe(false);
  });

  it("adds at the local scope under projects[<abs>] of ~/.claude.json and refuses a duplicate", () => {
    const t = scopeTarget("local", path.join(dir, "proj"), dir);
    expect(t).toEqual({ file: path.join(dir, ".claude.json"), at: ["projects", path.join(dir, "proj"), "mcpServers"] });
    fs.writeFileSync(t.file, JSON.stringify({ userID: "u", projects: { [path.join(dir, "proj")]: { history: [1] } } }));
    addServer(t.file, t.at, "x", { command: "x", args: [], env: {} });
    const v = JSON.parse(fs.readFileSync(t.file, "utf8"));
    expect(v).toEqual({ userID: "u", projects: { [path.join(dir, "proj")]: { history: [1], mcpServers: { x: { command: "x", args: [], env: {} } } } } });
    expect(() => addServer(t.file, t.at, "x", { command: "y" })).toThrow(expect.objectContaining({ code: McpEditRefused.code }));
  });

  it("refuses a file that does not parse, naming it and its line, and leaves it untouched", () => {
    const f = path.join(dir, ".mcp.json");
    fs.writeFileSync(f, '{\n  "mcpServers": {\n    "a": \n}');
    expect(() => addServer(f, ["mcpServers"], "b", { command: "b" })).toThrow(new RegExp(`${f.replace(/[.]/g, "\\.")}:\\d+: not valid JSON`));
    expect(fs.readFileSync(f, "utf8")).toBe('{\n  "mcpServers": {\n    "a": \n}');
  });
});

describe("args", () => {
  it("a value flag takes the next word even when it starts with a dash; repeatables collect; K=V and K: V", () => {
    const p = parseMcpArgs(["add", "x", "--command", "npx", "--arg", "-y", "--arg=--flag", "--header", "Authorization: Bearer a=b", "--json"]);
    expect(p).toMatchObject({ positional: ["add", "x"] });
    if ("error" in p) throw new Error(p.error);
    expect(p.values.get("--arg")).toEqual(["-y", "--flag"]);
    expect(pairs(p.values.get("--header")!, "--header", true)).toEqual({ Authorization: "Bearer a=b" });
    expect(pairs(["K=a:b"], "--env")).toEqual({ K: "a:b" });
    expect(pairs(["nokey"], "--env")).toHaveProperty("error");
    expect(parseMcpArgs(["--scope", "a", "--scope", "b"])).toHaveProperty("error");
    expect(parseMcpArgs(["--frob"])).toHaveProperty("error");
  });
});

/** Plugin servers (both .mcp.json shapes, plugin.json inline, ${CLAUDE_PLUGIN_ROOT}), same-tier names, and the shipped example. */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { expandServer, resolveServers, type ResolveInput } from "../sources/index.js";
import { REPO_ROOT } from "../../../test/kit/cli.js";

let root: string;
let home: string;
let project: string;
const write = (file: string, v: unknown) => {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, JSON.stringify(v));
};
const resolve = (extra: Partial<ResolveInput> = {}) => resolveServers({ project, home, userOcDir: path.join(home, ".oceancode"), env: {}, tracked: () => false, plugins: [], ...extra });

beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "oc-mcpplug-"));
  home = path.join(root, "home");
  project = path.join(root, "proj");
  fs.mkdirSync(project, { recursive: true });
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

describe("plugin servers", () => {
  it("reads {mcpServers}, the flat shape and plugin.json's inline mcpServers; ${CLAUDE_PLUGIN_ROOT} is the plugin's folder", () => {
    const a = path.join(root, "a");
    const b = path.join(root, "b");
    write(path.join(a, ".mcp.json"), { mcpServers: { pa: { command: "${CLAUDE_PLUGIN_ROOT}/bin/srv", args: ["--home=${HOME:-x}"] } } });
    write(path.join(b, ".mcp.json"), { pb: { command: "b" } });
    write(path.join(b, ".claude-plugin", "plugin.json"), { name: "b", mcpServers: { pc: { url: "https://c" } } });
    const got = resolve({ plugins: [{ name: "a", dir: a, enabled: true, trusted: true }, { name: "b", dir: b, enabled: true, trusted: false }] });
    expect(got.map((e) => [e.name, e.plugin, e.hold])).toEqual([
      ["pa", "a", "ready"],
      ["pb", "b", "untrusted"],
      ["pc", "b", "untrusted"],
    ]);
    expect(got[0]!.config).toEqual({ type: "stdio", command: `${a}/bin/srv`, args: ["--home=${HOME:-x}"], env: {} });
  });

  it("two copies in one tier are qualified by plugin", () => {
    const a = path.join(root, "a");
    const b = path.join(root, "b");
    write(path.join(a, ".mcp.json"), { mcpServers: { db: { command: "a" } } });
    write(path.join(b, ".mcp.json"), { mcpServers: { db: { command: "b" } } });
    const got = resolve({ plugins: [{ name: "a", dir: a, enabled: true, trusted: false }, { name: "b", dir: b, enabled: true, trusted: true }] });
    expect(got.map((e) => [e.qualifiedName, e.hold])).toEqual([
      ["plugin.a:db", "untrusted"],
      ["db", "ready"],
    ]);
  });
});

describe("examples/mcp/.mcp.json", () => {
  it("declares server-everything (stdio) and an http server whose header needs API_TOKEN", () => {
    fs.copyFileSync(path.join(REPO_ROOT, "examples", "mcp", ".mcp.json"), path.join(project, ".mcp.json"));
    const warnings: string[] = [];
    const got = resolve({ warn: (m) => warnings.push(m) });
    expect(warnings).toEqual([]);
    expect(got.map((e) => [e.name, e.config.type, e.tier, e.hold])).toEqual([
      ["everything", "stdio", "project", "untrusted"],
      ["docs-api", "http", "project", "untrusted"],
    ]);
    const x = expandServer(got[1]!.config, {});
    expect(x.unresolved).toEqual(["API_TOKEN"]);
    expect(x.config).toMatchObject({ url: "https://mcp.example.com/mcp", headers: { Authorization: "Bearer ${API_TOKEN}" } });
    expect(expandServer(got[1]!.config, { API_TOKEN: "s3" }).config).toMatchObject({ headers: { Authorization: "Bearer s3" } });
  });
});

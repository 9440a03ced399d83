/** The capabilities picker's MCP tab: rows from McpService rows, Space / `t` actions, counts, safe text. */
import { describe, expect, it } from "vitest";
import { countsText, mcpRows, rowText, spaceActions, trustAction, type CapData, type CapMcp } from "../capabilities-model.js";
import { applyCapabilities, readCapabilities, type McpLike } from "../capabilities-source.js";

const m = (name: string, o: Partial<CapMcp> = {}): CapMcp => ({ name, status: "connected", tools: 3, tier: "user", trusted: true, enabled: true, ...o });
const data = (): CapData => ({
  skills: [],
  plugins: [],
  mcp: [
    m("everything", { tools: 13 }),
    m("db", { status: "untrusted", tier: "project", trusted: false, tools: 0 }),
    m("off", { status: "disabled", enabled: false, tools: 0 }),
    m("broken", { status: "failed", reason: "spawn /x ENOENT", tools: 0 }),
    m("slow", { status: "connecting", tools: 0 }),
    m("cf", { status: "shadowed", qualifiedName: "user:cf", enabled: true, tools: 0 }),
  ],
  everythingOff: false,
});

describe("MCP tab rows", () => {
  it("master, one row per server with its status and tier, counts last (connected/total)", () => {
    const rows = mcpRows(data());
    expect(rows[0]).toEqual({ kind: "master", on: true });
    const text = rows.map((r) => rowText(r, 200));
    expect(text).toEqual([
      "[x] Everything",
      "[x] everything  connected (13 tools)  user",
      "[x] db  untrusted  project",
      "[ ] off  disabled  user",
      "[x] broken  failed: spawn /x ENOENT  user",
      "[x] slow  connecting  user",
      "[x] user:cf  shadowed  user",
      "skills 0/0 · plugins 0/0 · mcp 1/6",
    ]);
  });

  it("counts: mcp and hooks only when the host reads them; EVERYTHING OFF in front", () => {
    expect(countsText({ skills: [], plugins: [], everythingOff: false })).toBe("skills 0/0 · plugins 0/0");
    expect(countsText({ ...data(), hooks: { on: 8, total: 8 }, everythingOff: true })).toBe("EVERYTHING OFF · skills 0/0 · plugins 0/0 · mcp 1/6 · hooks 8/8");
  });

  it("Space toggles enable, `t` toggles trust, by the server's own name", () => {
    const rows = mcpRows(data());
    const everything = rows[1]!;
    const off = rows[3]!;
    expect(spaceActions(everything, data())).toEqual([{ kind: "mcp", name: "everything", on: false }]);
    expect(spaceActions(off, data())).toEqual([{ kind: "mcp", name: "off", on: true }]);
    expect(trustAction(rows[2]!)).toEqual({ kind: "mcp-trust", name: "db", on: true });
    expect(trustAction(everything)).toEqual({ kind: "mcp-trust", name: "everything", on: false });
    expect(spaceActions(rows[0]!, data())).toEqual([{ kind: "everything", off: true }]);
  });

  it("a server's name and failure reason are made display-safe", () => {
    const d: CapData = { skills: [], plugins: [], mcp: [m("ev\u001b[2Jil", { status: "failed", reason: "bad\u001b]0;title\u0007 thing" })], everythingOff: false };
    const text = mcpRows(d).map((r) => rowText(r, 200)).join("\n");
    expect(text).not.toMatch(/\u001b|\u0007/);
  });
});

describe("MCP tab source", () => {
  it("reads servers() and applies enable / trust through the service", () => {
    const calls: string[] = [];
    const mcp: McpLike = {
      servers: () => [m("everything")],
      setEnabled: (n, on) => void calls.push(`enable ${n} ${on}`),
      setTrusted: (n, on) => void calls.push(`trust ${n} ${on}`),
    };
    const { data: d } = readCapabilities({ project: "/p", mcp });
    expect(d.mcp?.map((x) => x.name)).toEqual(["everything"]);
    expect(applyCapabilities({ project: "/p", mcp }, [{ kind: "mcp", name: "everything", on: false }, { kind: "mcp-trust", name: "db", on: true }])).toBeUndefined();
    expect(calls).toEqual(["enable everything false", "trust db true"]);
    expect(applyCapabilities({ project: "/p" }, [{ kind: "mcp", name: "x", on: true }])).toMatch(/mcp extension is not loaded/);
  });
});

/**
 * The modelRequest tap: a prompt's MCP tools are fixed at its first request; a server that connected
 * mid-prompt reaches the model on the next prompt (turn); failed servers are named once per prompt in
 * the system prompt and noticed once per session; a sub-agent never waits.
 */
import os from "node:os";
import { afterEach, describe, expect, it } from "vitest";
import type { EngineService, ModelRequest, StepContext } from "../../engine/api.js";
import { Tools } from "../../engine/registries.js";
import type { ServerEntry } from "../api.js";
import { McpManager } from "../client/manager.js";
import { promptTools, registerTools, type ToolIndex } from "../client/tools.js";
import { fixtureEntry as entry } from "./helpers.js";

let mgr: McpManager | undefined;
afterEach(async () => mgr?.close());

function harness(entries: ServerEntry[], env: Record<string, string>) {
  const tools = new Tools();
  const notices: string[] = [];
  const engine = { tools, notice: (_s: string, _l: string, t: string) => notices.push(t) } as unknown as EngineService;
  mgr = new McpManager(entries, { env: process.env, cwd: os.tmpdir() });
  const index: ToolIndex = new Map();
  const m = mgr;
  const tap = promptTools({ engine, manager: m, index, env, register: () => registerTools(engine, m, index, "mcp", () => undefined) });
  const session = { info: { id: "s1", cwd: os.tmpdir(), overrides: {} }, ext: new Map<string, unknown>() };
  const step = (turn: number, sub = false) => ({ session: sub ? { ...session, info: { ...session.info, parentId: "p" } } : session, turn, step: 1 }) as unknown as StepContext;
  const req = { tools: [{ name: "bash", description: "", inputSchema: {} }], system: ["base"] } as unknown as ModelRequest;
  return { tap, step, req, notices, manager: m };
}
const mcpNames = (r: ModelRequest) => r.tools.map((t) => t.name).filter((n) => n.startsWith("mcp__"));

describe("promptTools", () => {
  it("fixed for the prompt; the slow server's tools arrive with the next prompt; a failure is named each prompt, noticed once", async () => {
    const h = harness([entry("fast"), entry("slow", ["--delay-ms", "2500"]), { ...entry("gone"), config: { type: "stdio", command: "/nonexistent/bin", args: [], env: {} } }], { OC_MCP_WAIT_SECONDS: "0" });
    h.manager.start();
    // fast (and gone) settled, slow not yet
    for (let i = 0; i < 200 && h.manager.rows().some((r) => r.name !== "slow" && r.status === "connecting"); i++) await new Promise((r) => setTimeout(r, 20));
    const first = await h.tap(h.req, h.step(1));
    expect(mcpNames(first)).toContain("mcp__fast__add");
    expect(mcpNames(first).some((n) => n.startsWith("mcp__slow__"))).toBe(false);
    expect(first.system.at(-1)).toMatch(/MCP server "slow" is still connecting/);
    expect(first.system.at(-1)).toMatch(/MCP server "gone" is unavailable: .*ENOENT/);
    await h.manager.settle(10_000);
    const again = await h.tap(h.req, { ...h.step(1), step: 2 } as StepContext);
    expect(mcpNames(again)).toEqual(mcpNames(first));
    expect(again.system).toEqual(first.system);
    const next = await h.tap(h.req, h.step(2));
    expect(mcpNames(next)).toContain("mcp__slow__add");
    expect(next.system.at(-1)).toBe(`MCP server "gone" is unavailable: ${h.manager.rows().find((r) => r.name === "gone")!.reason}`);
    expect(h.notices.filter((n) => n.includes('"gone"'))).toHaveLength(1);
    expect(next.tools[0]!.name).toBe("bash");
  });

  it("tools/list_changed mid-prompt: the new tool reaches the model on the next prompt, not this one", async () => {
    const h = harness([entry("g")], { OC_MCP_WAIT_SECONDS: "10" });
    h.manager.start();
    const first = await h.tap(h.req, h.step(1));
    expect(mcpNames(first)).toContain("mcp__g__grow");
    expect(await h.manager.call("g", "grow", {}, new AbortController().signal)).toEqual({ content: "grown_0" });
    for (let i = 0; i < 100 && !h.manager.connectedTools().some((t) => t.tool.name === "grown_0"); i++) await new Promise((r) => setTimeout(r, 20));
    const same = await h.tap(h.req, { ...h.step(1), step: 2 } as StepContext);
    expect(mcpNames(same)).toEqual(mcpNames(first));
    const next = await h.tap(h.req, h.step(2));
    expect(mcpNames(next)).toContain("mcp__g__grown_0");
  });

  it("a sub-agent never waits for a server still connecting", async () => {
    const h = harness([entry("slow", ["--delay-ms", "1500"])], {});
    h.manager.start();
    const t0 = Date.now();
    const r = await h.tap(h.req, h.step(1, true));
    expect(Date.now() - t0).toBeLessThan(300);
    expect(mcpNames(r)).toEqual([]);
  });
});

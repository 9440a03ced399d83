/**
 * Resources over real stdio servers (the fixture with --resources): list_resources follows pages up to
 * its cap, read_resource returns text / a blob note / errors, and the two tools are offered in a prompt
 * only when a connected server declares resources.
 */
import os from "node:os";
import { afterEach, describe, expect, it } from "vitest";
import type { EngineService, ModelRequest, StepContext } from "../../engine/api.js";
import { Tools } from "../../engine/registries.js";
import type { ServerEntry } from "../api.js";
import { McpManager } from "../client/manager.js";
import { promptTools, registerTools, type ToolIndex } from "../client/tools.js";
import { listResources, readResource, resourceTools } from "../client/resources.js";
import { fixtureEntry as entry } from "./helpers.js";

let mgr: McpManager | undefined;
afterEach(async () => mgr?.close());

async function started(entries: ServerEntry[]): Promise<McpManager> {
  mgr = new McpManager(entries, { env: process.env, cwd: os.tmpdir() });
  mgr.start();
  await mgr.settle(15_000);
  return mgr;
}
const signal = new AbortController().signal;

async function offered(m: McpManager): Promise<string[]> {
  const tools = new Tools();
  for (const t of resourceTools(m)) tools.register(t);
  const engine = { tools, notice: () => undefined } as unknown as EngineService;
  const index: ToolIndex = new Map();
  const tap = promptTools({ engine, manager: m, index, env: { OC_MCP_WAIT_SECONDS: "0" }, register: () => registerTools(engine, m, index, "mcp", () => undefined) });
  const session = { info: { id: "s1", cwd: os.tmpdir(), overrides: {} }, ext: new Map<string, unknown>() };
  const req = { tools: tools.list().map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema })), system: [] } as unknown as ModelRequest;
  const out = await tap(req, { session, turn: 1, step: 1 } as unknown as StepContext);
  return out.tools.map((t) => t.name).filter((n) => !n.startsWith("mcp__"));
}

describe("MCP resources", () => {
  it("offered only when a connected server declares resources", async () => {
    expect(await offered(await started([entry("plain")]))).toEqual([]);
    await mgr!.close();
    expect(await offered(await started([entry("plain"), entry("docs", ["--resources", "2"])]))).toEqual(["list_resources", "read_resource"]);
  }, 30_000);

  it("list_resources follows every page, per server or for all; read_resource reads text, names a blob, errors otherwise", async () => {
    const m = await started([entry("plain"), entry("docs", ["--resources", "5"])]);
    const all = JSON.parse((await listResources(m, undefined, signal)).content) as Record<string, Array<{ uri: string; mimeType?: string; description?: string }>>;
    expect(Object.keys(all)).toEqual(["docs"]);
    expect(all.docs!.map((r) => r.uri)).toEqual(["res://blob", "res://0", "res://1", "res://2", "res://3", "res://4"]);
    expect(all.docs![1]).toEqual({ name: "r0", uri: "res://0", mimeType: "text/plain", description: "resource number 0" });
    expect(JSON.parse((await listResources(m, "docs", signal)).content)).toEqual(all);
    expect(await listResources(m, "plain", signal)).toEqual({ content: 'MCP server "plain" offers no resources', isError: true });
    expect(await readResource(m, "docs", "res://3", signal)).toEqual({ content: "resource 3" });
    expect((await readResource(m, "docs", "res://blob", signal)).content).toBe("[res://blob: application/octet-stream, 6 bytes, not shown]");
    const missing = await readResource(m, "docs", "res://99", signal);
    expect(missing.isError).toBe(true);
    expect(missing.content).toMatch(/MCP server "docs": cannot read res:\/\/99: .*no resource res:\/\/99/);
    expect(await readResource(m, "nope", "res://0", signal)).toEqual({ content: 'MCP server "nope" is not connected', isError: true });
  }, 30_000);

  it("a long list stops at 10 pages and says it was cut", async () => {
    const m = await started([entry("big", ["--resources", "100"])]);
    const out = JSON.parse((await listResources(m, "big", signal)).content) as { big: unknown[]; truncated?: string };
    expect(out.big).toHaveLength(30);
    expect(out.truncated).toMatch(/more resources/);
  }, 30_000);
});

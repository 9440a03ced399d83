/**
 * The capabilities picker's MCP tab in a real terminal against the fake Anthropic server and the
 * reference server (server-everything, stdio, in the fixture HOME's ~/.claude.json): /mcps shows
 * `everything` connected, Space disables it (trust.json disabled_mcp), and the next request carries no
 * MCP tool, without a restart.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT, type Sandbox } from "../../../test/kit/cli.js";
import { hasTmux, type Pty, askRecorded } from "../../../test/kit/pty.js";
import type { AnthropicRecorded, FakeAnthropicServer } from "../../../test/kit/fakes/anthropic-server.js";
import { pagerTests } from "../../../test/kit/pager-tests.js";

const EVERYTHING = path.join(REPO_ROOT, "node_modules/@modelcontextprotocol/server-everything/dist/index.js");
const mcpTools = (req: AnthropicRecorded): string[] => (req.body.tools ?? []).map((t) => String(t.name)).filter((n) => n.startsWith("mcp__"));

const { makeSandbox, openPagerOnFake, startFakeAnthropic } = pagerTests();
let sb: Sandbox | undefined;
let t: Pty | undefined;
let fake: FakeAnthropicServer | undefined;

const ask = (p: Pty, text: string, n: number): Promise<AnthropicRecorded> => askRecorded(p, fake!.requests, text, n, /done here/, 60_000);

/** The pager on the fake (answering "done here") with the reference server in the HOME's ~/.claude.json, at its prompt. */
async function openOnEverything(): Promise<Pty> {
  sb = makeSandbox("oc-pty-mcps-");
  sb.write(".claude.json", JSON.stringify({ mcpServers: { everything: { command: process.execPath, args: [EVERYTHING, "stdio"] } } }), "home");
  fake = await startFakeAnthropic();
  fake.respond(() => ({ text: "done here" }));
  const p = openPagerOnFake(sb, fake.url, { OC_MCP_WAIT_SECONDS: "30" });
  await p.waitFor("❯");
  return p;
}

describe.skipIf(!hasTmux())("pager: the MCP tab", () => {
  it("/mcps: everything connected; Space disables it and the next request has no MCP tool", async () => {
    t = await openOnEverything();
    expect(mcpTools(await ask(t, "first", 1))).toContain("mcp__everything__echo");
    t.send("/mcps");
    t.key("Enter");
    await t.waitFor(/\[x\] everything\s+connected \(\d+ tools\)\s+user/, 20_000);
    await t.waitFor("mcp 1/1");
    // rows: Everything, everything
    t.key("Down");
    t.send(" ");
    await t.waitFor(/\[ \] everything\s+disabled/, 20_000);
    await t.waitFor("mcp 0/1", 20_000);
    t.key("Escape");
    await t.waitGone("mcp 0/1", 20_000);
    expect(mcpTools(await ask(t, "second", 2))).toEqual([]);
    const trust = JSON.parse(fs.readFileSync(path.join(sb!.home, ".oceancode", "trust.json"), "utf8")) as Record<string, { disabled_mcp?: string[] }>;
    expect(Object.values(trust)[0]?.disabled_mcp).toEqual(["everything"]);
  }, 180_000);

  it("/mcps: Space on Everything turns MCP off too (servers stay connected), Space again restores it", async () => {
    t = await openOnEverything();
    expect(mcpTools(await ask(t, "first", 1))).toContain("mcp__everything__echo");
    t.send("/mcps");
    t.key("Enter");
    await t.waitFor("mcp 1/1", 20_000);
    t.send(" ");
    await t.waitFor("EVERYTHING OFF", 20_000);
    expect(t.screen()).toMatch(/everything\s+connected/);
    t.key("Escape");
    await t.waitGone("mcp 1/1", 20_000);
    expect(mcpTools(await ask(t, "second", 2))).toEqual([]);
    t.send("/mcps");
    t.key("Enter");
    await t.waitFor("EVERYTHING OFF", 20_000);
    t.send(" ");
    await t.waitGone("EVERYTHING OFF", 20_000);
    t.key("Escape");
    await t.waitGone("mcp 1/1", 20_000);
    expect(mcpTools(await ask(t, "third", 3))).toContain("mcp__everything__echo");
  }, 180_000);
});

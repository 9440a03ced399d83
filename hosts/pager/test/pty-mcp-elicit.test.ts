/**
 * An MCP server's elicitation in the pager, in a real terminal: the model calls the fixture server's `ask`
 * tool, the server sends elicitation/create, the pager shows a form (the server, its message, one row per
 * field with its default filled in); typing edits the selected field, ↓ moves, enter sends the values
 * (converted to the fields' types), esc declines. The tool result (read back from the request the fake
 * Anthropic server recorded) carries the server's view of the answer.
 */
import path from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../../../test/kit/cli.js";
import { hasTmux } from "../../../test/kit/pty.js";
import type { AnthropicRecorded } from "../../../test/kit/fakes/anthropic-server.js";
import { pagerTests } from "../../../test/kit/pager-tests.js";

const FIXTURE = path.join(REPO_ROOT, "extensions/mcp/test/fixtures/tools-server.mjs");

const { makeSandbox, openPagerOnFake, startFakeAnthropic } = pagerTests();

type Block = { type: string; tool_use_id?: string; content?: unknown; text?: string };
const resultText = (req: AnthropicRecorded | undefined, id: string): string => {
  const b = (req?.body.messages ?? []).flatMap((m) => (typeof m.content === "string" ? [] : (m.content as Block[]))).find((x) => x.type === "tool_result" && x.tool_use_id === id);
  return !b ? "" : typeof b.content === "string" ? b.content : ((b.content as Block[] | undefined) ?? []).map((c) => c.text ?? "").join("");
};

describe.skipIf(!hasTmux())("pager: MCP elicitation", () => {
  it("the form shows the server's message and fields; typed values are sent, esc declines", async () => {
    const fake = await startFakeAnthropic();
    let n = 0;
    fake.respond(() => {
      n += 1;
      if (n === 1) return { text: "asking", toolCalls: [{ id: "t_ask1", name: "mcp__fx__ask", input: {} }] };
      if (n === 3) return { text: "asking again", toolCalls: [{ id: "t_ask2", name: "mcp__fx__ask", input: {} }] };
      return { text: `answered ${n}` };
    });
    const sb = makeSandbox("oc-pty-elicit-");
    sb.write(".claude.json", JSON.stringify({ mcpServers: { fx: { command: process.execPath, args: [FIXTURE, "--name", "fx", "--elicit"] } } }), "home");
    // the tool itself is allowed, so the only question is the server's
    sb.write(".oceancode/oceancode.json", JSON.stringify({ permission: ["mcp__fx__ask * allow"] }));
    const t = openPagerOnFake(sb, fake.url, { OC_MCP_WAIT_SECONDS: "20" });
    await t.waitFor("❯");
    t.send("ask me");
    t.key("Enter");
    const s = await t.waitFor(/MCP server "fx" asks: Pick a colour[\s\S]*enter send/, 30_000);
    expect(s).toMatch(/❯ color \(string, required\): blue/);
    expect(s).toMatch(/your colour/);
    expect(s).toMatch(/ {2}size \(integer\): 2/);
    t.key("BSpace", "BSpace", "BSpace", "BSpace");
    t.send("green");
    t.key("Down", "BSpace");
    t.send("5");
    await t.waitFor(/❯ size \(integer\): 5/, 10_000);
    t.key("Enter");
    await t.waitFor("answered 2", 20_000, { inHistory: true });
    expect(resultText(fake.requests[1], "t_ask1")).toBe('action=accept content={"color":"green","size":5}');
    await t.waitGone("working…", 20_000);
    t.send("again");
    t.key("Enter");
    await t.waitFor(/MCP server "fx" asks: Pick a colour[\s\S]*enter send/, 30_000);
    t.key("Escape");
    await t.waitFor("answered 4", 20_000, { inHistory: true });
    expect(resultText(fake.requests[3], "t_ask2")).toBe("action=decline content=null");
  }, 90_000);
});

/**
 * The editor's MCP servers (`session/new` `mcpServers`) go to the MCP extension: a stdio server the client
 * names (our fixture, with an env var passed as ACP's name/value list) is started for the session, its
 * tools reach the model's first request as mcp__<server>__<tool>, and a call runs through the permission
 * request like any MCP tool. A config file's copy of the same name is shadowed by the client's.
 */
import path from "node:path";
import { describe, expect, it } from "vitest";
import { methods } from "@agentclientprotocol/sdk";
import { REPO_ROOT } from "../../../test/kit/cli.js";
import { systemOf } from "../../../test/kit/fakes/anthropic-server.js";
import { updatesOf } from "./client.js";
import { acpTests } from "./acp-tests.js";

const FIXTURE = path.join(REPO_ROOT, "extensions/mcp/test/fixtures/tools-server.mjs");
const { fake, sb, start } = acpTests("oc-acp-mcp-", (s) => {
  // the user's own copy of the name: the client's wins and this one is never spawned
  s.write(".claude.json", JSON.stringify({ mcpServers: { editorfx: { command: "/never/spawned" } } }), "home");
});

describe("acp: the client's MCP servers", () => {
  it("are started for the session; their tools reach the model and run after the permission request", async () => {
    const c = start([], { OC_MCP_WAIT_SECONDS: "20" });
    await c.initialize();
    const pidFile = path.join(sb.home, "editorfx.pid");
    const { sessionId } = await c.conn.agent.request(methods.agent.session.new, {
      cwd: sb.project,
      mcpServers: [{ name: "editorfx", command: process.execPath, args: [FIXTURE, "--name", "editorfx", "--pid-file", pidFile], env: [{ name: "FROM_EDITOR", value: "1" }] }],
    });
    fake.enqueue({ text: "adding", toolCalls: [{ id: "toolu_m1", name: "mcp__editorfx__add", input: { a: 2, b: 3 } }] }, { text: "the sum is in" });
    const res = await c.conn.agent.request(methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: "add 2 and 3" }] });
    expect(res.stopReason).toBe("end_turn");
    const offered = (fake.requests[0]!.body.tools ?? []).map((t) => String(t.name));
    expect(offered).toContain("mcp__editorfx__add");
    // the config file's copy (a command that does not exist) was shadowed, so nothing failed
    expect(systemOf(fake.requests[0]!)).not.toMatch(/MCP server "editorfx" is unavailable/);
    expect(c.permissions.map((p) => p.toolCall.toolCallId)).toEqual(["toolu_m1"]);
    const end = updatesOf(c, sessionId, "tool_call_update").find((u) => u.toolCallId === "toolu_m1" && u.status === "completed");
    expect(JSON.stringify(end?.content)).toContain("sum=5");
    expect(JSON.stringify(fake.requests[1]!.body.messages)).toContain("sum=5");
  }, 90_000);
});

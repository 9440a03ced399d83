/**
 * What the model learns about MCP besides the tools (findings 43, 44, 46): the compiled CLI `run` against the
 * fake Anthropic server, with real MCP servers (the fixture, over stdio) in ~/.claude.json and a project
 * .mcp.json that came with the checkout (held: untrusted). Under meta-dispatch the system prompt names every
 * deferred tool by server; a connected server's instructions arrive bounded and marked as the server's text;
 * a held server's never do, and the hold is said once to the user and once to the model. Then the same
 * notice through `oceancode acp` (an agent_thought_chunk), and the list's bound on a huge setup.
 */
import fs from "node:fs";
import path from "node:path";
import { spawnSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { methods, PROTOCOL_VERSION } from "@agentclientprotocol/sdk";
import { anthropicEnv, makeSandbox, runCliAsync, type RunResult, type Sandbox } from "../../../test/kit/cli.js";
import { startFakeAnthropic, systemOf, type AnthropicRecorded, type FakeAnthropicServer } from "../../../test/kit/fakes/anthropic-server.js";
import { startAcp, updatesOf } from "../../acp/test/client.js";
import { deferredToolList, MAX_DEFERRED_CHARS, MAX_INSTRUCTIONS_CHARS } from "../client/context.js";
import { FIXTURE } from "./helpers.js";

const MODEL = "anthropic/claude-sonnet-4-5";
type Block = { type: string; text?: string; tool_use_id?: string; content?: unknown };
const resultText = (req: AnthropicRecorded, id: string): string => {
  const b = (req.body.messages ?? []).flatMap((m) => (typeof m.content === "string" ? [] : (m.content as Block[]))).find((x) => x.type === "tool_result" && x.tool_use_id === id);
  return !b ? "" : typeof b.content === "string" ? b.content : ((b.content as Block[] | undefined) ?? []).map((c) => c.text ?? "").join("");
};

const LONG = `Big server guide. ${"x".repeat(5000)} END-OF-LONG`;
const HELD_MARK = "HELD-SERVER-INSTRUCTIONS-canary";

let fake: FakeAnthropicServer;
let sb: Sandbox;
let result: RunResult;
let heldPid = "";

beforeAll(async () => {
  fake = await startFakeAnthropic();
  sb = makeSandbox("oc-mcp-context-");
  heldPid = path.join(sb.home, "held.pid");
  sb.write(
    ".claude.json",
    JSON.stringify({
      mcpServers: {
        big: { command: process.execPath, args: [FIXTURE, "--name", "big", "--tools", "130", "--instructions", LONG] },
        guide: { command: process.execPath, args: [FIXTURE, "--name", "guide", "--instructions", "Use add for sums.\u001b]52;c;aGk=\u0007 Never guess."] },
      },
    }),
    "home",
  );
  // the checkout's own .mcp.json (tracked: the repo tier), not trusted
  sb.write(".mcp.json", JSON.stringify({ mcpServers: { repo_srv: { command: process.execPath, args: [FIXTURE, "--name", "repo_srv", "--pid-file", heldPid, "--instructions", HELD_MARK] } } }));
  const git = (...a: string[]) => spawnSync("git", ["-C", sb.project, "-c", "user.email=t@t", "-c", "user.name=t", ...a], { encoding: "utf8" });
  git("add", ".mcp.json");
  git("commit", "-qm", "checkout");
  let i = 0;
  fake.respond(() => (i++ === 0 ? { text: "looking", toolCalls: [{ id: "t_find", name: "search_tool", input: { query: "mcp__big__tool_77" } }] } : { text: "done" }));
  result = await runCliAsync(["run", "--auto", "--model", MODEL, "go"], { cwd: sb.project, env: anthropicEnv(sb, fake.url, { OC_MCP_WAIT_SECONDS: "30" }), timeoutMs: 90_000 });
}, 120_000);

afterAll(async () => {
  await fake.close();
  sb.cleanup();
});

describe("MCP in the system prompt", () => {
  it("the run ends normally, with meta-dispatch in place", () => {
    expect(result.code, result.stderr).toBe(0);
    const names = (fake.requests[0]!.body.tools ?? []).map((t) => String(t.name));
    expect(names).toContain("search_tool");
    expect(names.filter((n) => n.startsWith("mcp__"))).toEqual([]);
  });

  it("43: every deferred tool is named, by server, in one bounded block; search_tool takes an id", () => {
    const system = systemOf(fake.requests[0]!);
    const big = system.split("\n").find((l) => l.startsWith("mcp__big__:"))!;
    expect(big).toBeDefined();
    for (const n of ["add", "crash", "grow", "tool_0", "tool_77", "tool_129"]) expect(big.split(/[:,] /)).toContain(n);
    expect(system.split("\n").find((l) => l.startsWith("mcp__guide__:"))).toMatch(/\badd\b/);
    expect(system).toMatch(/146 tools on 2 servers/);
    // the same block in every request of the prompt (fixed with the tool set)
    expect(systemOf(fake.requests[1]!)).toBe(system);
    const hits = JSON.parse(resultText(fake.requests[1]!, "t_find")) as Array<{ id: string }>;
    expect(hits[0]!.id).toBe("mcp__big__tool_77");
  });

  it("44: a connected server's instructions reach the model, marked as its text, control characters shown, cut at the bound", () => {
    const system = systemOf(fake.requests[0]!);
    expect(system).toContain("# MCP server instructions");
    expect(system).toMatch(/not the user's/);
    expect(system).toContain('## MCP server "guide"\nUse add for sums.');
    expect(system).not.toContain("\u001b]52");
    expect(system).toContain("␛]52;c;aGk=␇ Never guess.");
    expect(system).toContain('## MCP server "big"\nBig server guide.');
    expect(system).not.toContain("END-OF-LONG");
    expect(system).toContain(`[cut at ${MAX_INSTRUCTIONS_CHARS} characters]`);
  });

  it("44/46: nothing of a held server reaches the model, and it is never spawned", () => {
    for (const r of fake.requests) expect(JSON.stringify(r.body)).not.toContain(HELD_MARK);
    expect(fs.existsSync(heldPid)).toBe(false);
  });

  it("46: the hold is said once on stderr and in one line to the model, with the trust command", () => {
    const notices = result.stderr.split("\n").filter((l) => l.includes("MCP servers held until you trust them"));
    expect(notices, result.stderr).toHaveLength(1);
    expect(notices[0]).toContain("repo_srv");
    expect(notices[0]).toContain("oceancode trust repo on");
    const lines = systemOf(fake.requests[0]!).split("\n").filter((l) => l.includes("held until the user trusts the project"));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain("repo_srv");
    expect(lines[0]).toContain("`oceancode trust repo on`");
  });
});

describe("46 through ACP", () => {
  it("the hold reaches the editor as a thought chunk, once", async () => {
    fake.reset();
    fake.respond(() => ({ text: "hello" }));
    const c = startAcp(anthropicEnv(sb, fake.url, { OC_MODEL: MODEL, OC_MCP_WAIT_SECONDS: "30" }), [], sb.project);
    try {
      await c.conn.agent.request(methods.agent.initialize, { protocolVersion: PROTOCOL_VERSION, clientCapabilities: {} });
      const { sessionId } = await c.conn.agent.request(methods.agent.session.new, { cwd: sb.project, mcpServers: [] });
      for (let i = 0; i < 2; i++) await c.conn.agent.request(methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: `hi ${i}` }] });
      const thoughts = updatesOf(c, sessionId, "agent_thought_chunk").map((u) => (u.content.type === "text" ? u.content.text : ""));
      expect(thoughts.filter((t) => t.includes("MCP servers held until you trust them") && t.includes("repo_srv"))).toHaveLength(1);
      expect(systemOf(fake.requests[0]!)).toContain("`oceancode trust repo on`");
    } finally {
      c.kill();
    }
  }, 90_000);
});

describe("43: the deferred list's bound", () => {
  it("thousands of tools on many servers stay within the bound, each server's rest counted", () => {
    const servers = new Map<string, string[]>();
    for (let s = 0; s < 12; s++) servers.set(`srv${s}`, Array.from({ length: 400 }, (_, i) => `mcp__srv${s}__operation_number_${i}`));
    const text = deferredToolList(servers);
    expect(text.length).toBeLessThanOrEqual(MAX_DEFERRED_CHARS);
    for (let s = 0; s < 12; s++) expect(text).toMatch(new RegExp(`^mcp__srv${s}__: operation_number_0, .* … and \\d+ more`, "m"));
    expect(text).toContain("4800 tools on 12 servers");
  });

  it("hundreds of servers: the lines past the bound become a count", () => {
    const servers = new Map<string, string[]>();
    for (let s = 0; s < 600; s++) servers.set(`server_${s}`, [`mcp__server_${s}__a`, `mcp__server_${s}__b`]);
    const text = deferredToolList(servers);
    expect(text.length).toBeLessThanOrEqual(MAX_DEFERRED_CHARS);
    expect(text).toMatch(/… and \d+ more servers/);
    expect(text).toContain("mcp__server_0__: a, b");
  });
});

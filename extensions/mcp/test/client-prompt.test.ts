/**
 * MCP through `run`, the timing side: the tool list is fixed for a prompt (a slow server with
 * OC_MCP_WAIT_SECONDS=0 is in none of that prompt's requests, even after it connected), the first
 * request waits (default) for a slow server, meta-dispatch past 128 tools (search_tool / use_tool), and
 * a SIGTERM'd run leaves no server behind.
 */
import fs from "node:fs";
import path from "node:path";
import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import { anthropicEnv, CLI, runCliAsync, type Sandbox } from "../../../test/kit/cli.js";
import { type FakeToolCall, toolNames, toolResultOf as resultOf, blockText as textOf } from "../../../test/kit/fakes/anthropic-server.js";
import { alive, FIXTURE } from "./helpers.js";
import { fakeAnthropicForFile, perTest } from "../../../test/kit/file-fixtures.js";

const fake = fakeAnthropicForFile();
const { makeSandbox } = perTest();

function setup(servers: Record<string, string[]>): Sandbox {
  const sb = makeSandbox("oc-mcp-prompt-");
  const mcpServers = Object.fromEntries(Object.entries(servers).map(([name, args]) => [name, { command: process.execPath, args: [FIXTURE, "--name", name, ...args] }]));
  sb.write(".claude.json", JSON.stringify({ mcpServers }), "home");
  return sb;
}
function script(calls: FakeToolCall[], final: string): void {
  fake.reset();
  let i = 0;
  fake.respond(() => {
    const c = calls[i++];
    return c ? { text: `calling ${c.name}`, toolCalls: [c] } : { text: final };
  });
}
const run = (sb: Sandbox, env: Record<string, string> = {}) =>
  runCliAsync(["run", "--auto", "--model", "anthropic/claude-sonnet-4-5", "go"], {
    cwd: sb.project,
    env: anthropicEnv(sb, fake.url, env),
    timeoutMs: 60_000,
  });

describe("the MCP tool list of a prompt", () => {
  it("OC_MCP_WAIT_SECONDS=0: a server still connecting is in none of the prompt's requests, even once connected", async () => {
    const sb = setup({ slow: ["--delay-ms", "1000"] });
    // step 1 sleeps past the slow server's handshake; step 2 must still not offer its tools
    script([{ id: "t_sleep", name: "bash", input: { command: "sleep 1.5" } }], "done");
    const r = await run(sb, { OC_MCP_WAIT_SECONDS: "0" });
    expect(r.code, r.stderr).toBe(0);
    expect(fake.requests.length).toBe(2);
    for (const req of fake.requests) expect(toolNames(req).filter((n) => n.startsWith("mcp__"))).toEqual([]);
    expect(toolNames(fake.requests[0]!)).toContain("bash");
    expect(toolNames(fake.requests[1]!)).toEqual(toolNames(fake.requests[0]!));
  }, 60_000);

  it("by default the first request waits for a slow server, so its tools are there", async () => {
    const sb = setup({ slow: ["--delay-ms", "1000"] });
    script([], "done");
    const r = await run(sb);
    expect(r.code, r.stderr).toBe(0);
    expect(toolNames(fake.requests[0]!)).toContain("mcp__slow__add");
  }, 60_000);

  it("past 128 MCP tools: search_tool and use_tool replace them", async () => {
    const sb = setup({ big: ["--tools", "130"] });
    script(
      [
        { id: "t_search", name: "search_tool", input: { query: "gamma", limit: 3 } },
        { id: "t_use", name: "use_tool", input: { id: "mcp__big__add", arguments: { a: 1, b: 2 } } },
        { id: "t_miss", name: "use_tool", input: { id: "mcp__big__nope", arguments: {} } },
      ],
      "done",
    );
    const r = await run(sb);
    expect(r.code, r.stderr).toBe(0);
    const names = toolNames(fake.requests[0]!);
    expect(names).toContain("search_tool");
    expect(names).toContain("use_tool");
    expect(names.filter((n) => n.startsWith("mcp__"))).toEqual([]);
    const last = fake.requests[fake.requests.length - 1]!;
    const hits = JSON.parse(textOf(resultOf(last, "t_search"))) as Array<{ id: string; inputSchema: unknown }>;
    expect(hits).toHaveLength(3);
    expect(hits[0]!.id).toMatch(/^mcp__big__tool_\d+$/);
    expect(hits[0]!.inputSchema).toMatchObject({ type: "object" });
    expect(textOf(resultOf(last, "t_use"))).toBe("sum=3");
    expect(resultOf(last, "t_miss")!.is_error).toBe(true);
    // use_tool asks as the tool it runs
    expect(r.stderr).toMatch(/use_tool asks \(MCP tool mcp__big__add\)/);
  }, 60_000);

  it("permission rules: Claude Code's server-wide allow lets MCP tools run without --auto; a denied tool is not offered", async () => {
    const sb = setup({ s: [] });
    sb.write(".claude/settings.json", JSON.stringify({ permissions: { allow: ["mcp__s"], deny: ["mcp__s__fail"] } }), "home");
    script(
      [
        { id: "t_add", name: "mcp__s__add", input: { a: 4, b: 5 } },
        { id: "t_fail", name: "mcp__s__fail", input: {} },
      ],
      "done",
    );
    const r = await runCliAsync(["run", "--model", "anthropic/claude-sonnet-4-5", "go"], {
      cwd: sb.project,
      env: anthropicEnv(sb, fake.url),
      timeoutMs: 60_000,
    });
    expect(r.code, r.stderr).toBe(0);
    const names = toolNames(fake.requests[0]!);
    expect(names).toContain("mcp__s__add");
    expect(names).not.toContain("mcp__s__fail");
    const last = fake.requests[fake.requests.length - 1]!;
    expect(textOf(resultOf(last, "t_add"))).toBe("sum=9");
    expect(resultOf(last, "t_fail")!.is_error).toBe(true);
    expect(textOf(resultOf(last, "t_fail"))).toMatch(/denied|unknown tool/i);
  }, 60_000);

  for (const [sig, count] of [["SIGTERM", 1], ["SIGINT", 1], ["SIGINT", 2]] as const) {
    it(`a run stopped by ${count} ${sig} leaves no server process behind`, async () => {
      const sb = setup({});
      const pidFile = path.join(sb.home, "s.pid");
      sb.write(".claude.json", JSON.stringify({ mcpServers: { s: { command: process.execPath, args: [FIXTURE, "--pid-file", pidFile, "--linger"] } } }), "home");
      // the pid the server writes must be a host pid for the lifetime check: no PID namespace here
      sb.write(".config/oceancode/oceancode.jsonc", JSON.stringify({ sandbox: { pid_namespace: false } }), "home");
      // the model's request hangs: the run is mid-prompt when it is signalled
      fake.reset();
      fake.respond(() => ({ type: "drop", holdMs: 30_000 }));
      const child = spawn(process.execPath, [CLI, "run", "--model", "anthropic/claude-sonnet-4-5", "go"], {
        cwd: sb.project,
        env: { ...sb.env, ANTHROPIC_API_KEY: "sk-test", ANTHROPIC_BASE_URL: fake.url },
        stdio: "ignore",
      });
      for (let i = 0; i < 400 && !(fs.existsSync(pidFile) && fake.requests.length > 0); i++) await new Promise((r) => setTimeout(r, 25));
      const pid = Number(fs.readFileSync(pidFile, "utf8"));
      expect(alive(pid)).toBe(true);
      const exited = new Promise((r) => child.once("exit", r));
      for (let i = 0; i < count; i++) {
        child.kill(sig);
        await new Promise((r) => setTimeout(r, 50));
      }
      await exited;
      await new Promise((r) => setTimeout(r, 200));
      expect(alive(pid)).toBe(false);
    }, 60_000);
  }
});

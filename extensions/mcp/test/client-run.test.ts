/**
 * MCP tools end to end: the compiled CLI `run --auto` against the fake Anthropic server, with the
 * fixture HOME's ~/.claude.json naming the reference server (@modelcontextprotocol/server-everything,
 * stdio), our fixture server over stdio and over Streamable HTTP, and a missing command. The scripted
 * model calls the tools; the test reads what each request carried, and that no server outlives the run.
 */
import fs from "node:fs";
import path from "node:path";
import { spawn, type ChildProcess } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { anthropicEnv, makeSandbox, REPO_ROOT, runCliAsync, type Sandbox } from "../../../test/kit/cli.js";
import { systemOf, startFakeAnthropic, type FakeAnthropicServer, type FakeToolCall, toolNames, toolResultOf as resultOf, blockText as textOf } from "../../../test/kit/fakes/anthropic-server.js";
import { alive, FIXTURE } from "./helpers.js";

type Block = { type: string; text?: string; tool_use_id?: string; content?: unknown; is_error?: boolean; source?: { type: string; media_type: string; data: string } };

const EVERYTHING = path.join(REPO_ROOT, "node_modules/@modelcontextprotocol/server-everything/dist/index.js");

async function httpFixture(dir: string, children: ChildProcess[]): Promise<string> {
  const urlFile = path.join(dir, "web.url");
  children.push(spawn(process.execPath, [FIXTURE, "--http", urlFile, "--name", "web"], { stdio: "ignore" }));
  for (let i = 0; i < 200 && !fs.existsSync(urlFile); i++) await new Promise((r) => setTimeout(r, 25));
  return fs.readFileSync(urlFile, "utf8");
}

function scripted(fake: FakeAnthropicServer, calls: FakeToolCall[], final: string): void {
  let i = 0;
  fake.respond(() => {
    const c = calls[i++];
    return c ? { text: `calling ${c.name}`, toolCalls: [c] } : { text: final };
  });
}

describe("MCP tools through run", () => {
  let fake: FakeAnthropicServer;
  let sb: Sandbox;
  let result: { code: number | null; stdout: string; stderr: string };
  const children: ChildProcess[] = [];
  let pidFile = "";
  let envFile = "";
  const CALLS: FakeToolCall[] = [
    { id: "t_echo", name: "mcp__everything__echo", input: { message: "hello mcp" } },
    { id: "t_sum", name: "mcp__everything__get-sum", input: { a: 2, b: 40 } },
    { id: "t_img", name: "mcp__everything__get-tiny-image", input: {} },
    { id: "t_bad", name: "mcp__everything__get-sum", input: { a: "x" } },
    { id: "t_unknown", name: "mcp__everything__no-such-tool", input: {} },
    { id: "t_mixed", name: "mcp__fx__mixed", input: {} },
    { id: "t_struct", name: "mcp__fx__structured", input: {} },
    { id: "t_crash", name: "mcp__fx__crash", input: {} },
    { id: "t_pid", name: "mcp__fx__pid", input: {} },
    { id: "t_web", name: "mcp__web__add", input: { a: 20, b: 22 } },
  ];

  beforeAll(async () => {
    fake = await startFakeAnthropic();
    scripted(fake, CALLS, "all MCP tools called");
    sb = makeSandbox("oc-mcp-run-");
    pidFile = path.join(sb.home, "fx.pid");
    envFile = path.join(sb.home, "fx.env.json");
    const url = await httpFixture(sb.home, children);
    // the pids the servers report must be host pids for the lifetime check: no PID namespace here
    sb.write(".config/oceancode/oceancode.jsonc", JSON.stringify({ sandbox: { pid_namespace: false } }), "home");
    sb.write(
      ".claude.json",
      JSON.stringify({
        mcpServers: {
          everything: { command: process.execPath, args: [EVERYTHING, "stdio"] },
          fx: { command: process.execPath, args: [FIXTURE, "--name", "fx", "--pid-file", pidFile, "--dump-env", envFile], env: { GIVEN_TOKEN: "kept", FROM_VAR: "${OC_TEST_PLAIN}" } },
          broken: { command: "/nonexistent/bin", args: [] },
          web: { type: "http", url },
        },
      }),
      "home",
    );
    result = await runCliAsync(["run", "--auto", "--model", "anthropic/claude-sonnet-4-5", "use the MCP tools"], {
      cwd: sb.project,
      env: anthropicEnv(sb, fake.url, { OC_MCP_BACKOFF_MS: "100,200,400", OC_MCP_WAIT_SECONDS: "30", OC_TEST_SECRET_TOKEN: "s3cret", OC_TEST_PLAIN: "plain" }),
      timeoutMs: 90_000,
    });
  }, 120_000);

  afterAll(async () => {
    for (const c of children) c.kill("SIGKILL");
    await fake.close();
    sb.cleanup();
  });

  it("the run ends normally after every call", () => {
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain("all MCP tools called");
    expect(fake.requests.length).toBe(CALLS.length + 1);
    expect(result.stderr).not.toMatch(/MaxListenersExceeded/);
  });

  it("MCP tools go through the permission path: they ask by default (and --auto approves)", () => {
    expect(result.stderr).toMatch(/mcp__everything__echo asks \(MCP tool mcp__everything__echo\): approved by --auto/);
  });

  it("the first request offers the connected servers' tools with their schemas, not the failed one's", () => {
    const names = toolNames(fake.requests[0]!);
    for (const n of ["mcp__everything__echo", "mcp__everything__get-sum", "mcp__everything__get-tiny-image", "mcp__fx__add", "mcp__web__add"]) expect(names).toContain(n);
    expect(names.some((n) => n.startsWith("mcp__broken__"))).toBe(false);
    const echo = (fake.requests[0]!.body.tools ?? []).find((t) => t.name === "mcp__everything__echo")!;
    expect(echo.input_schema).toMatchObject({ type: "object", properties: { message: { type: "string" } }, required: ["message"] });
    // fixed for the prompt: every step offers the same list
    for (const r of fake.requests) expect(toolNames(r)).toEqual(names);
  });

  it("the first request names the failed server in one line; the user gets a notice", () => {
    const lines = systemOf(fake.requests[0]!).split("\n").filter((l) => l.startsWith("MCP server "));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^MCP server "broken" is unavailable: .*ENOENT/);
    expect(result.stderr).toMatch(/MCP server "broken" failed: /);
  });

  it("tool results carry the answers: text, the image as an image block, errors as errors", () => {
    const last = fake.requests[fake.requests.length - 1]!;
    expect(textOf(resultOf(last, "t_echo"))).toBe("Echo: hello mcp");
    expect(textOf(resultOf(last, "t_sum"))).toMatch(/42/);
    const img = resultOf(last, "t_img")!;
    const blocks = img.content as Block[];
    expect(blocks.find((b) => b.type === "image")?.source).toMatchObject({ type: "base64", media_type: "image/png" });
    expect(img.is_error).toBeUndefined();
    expect(resultOf(last, "t_bad")!.is_error).toBe(true);
    expect(textOf(resultOf(last, "t_bad"))).toMatch(/Input validation error|expected number/);
    expect(resultOf(last, "t_unknown")!.is_error).toBe(true);
    expect(textOf(resultOf(last, "t_unknown"))).toMatch(/unknown tool 'mcp__everything__no-such-tool'/);
    const mixed = resultOf(last, "t_mixed")!;
    expect(textOf(mixed)).toContain("see below");
    expect(textOf(mixed)).toContain("resource body");
    expect((mixed.content as Block[]).some((b) => b.type === "image")).toBe(true);
    expect(textOf(resultOf(last, "t_struct"))).toBe('{"temperature":21,"unit":"C"}');
    expect(textOf(resultOf(last, "t_web"))).toBe("sum=42");
  });

  it("a server that dies mid-call: an error result, the turn goes on, the restart is reported", () => {
    const last = fake.requests[fake.requests.length - 1]!;
    const crash = resultOf(last, "t_crash")!;
    expect(crash.is_error).toBe(true);
    expect(textOf(crash)).toMatch(/MCP server "fx" stopped during the call/);
    expect(result.stderr).toMatch(/MCP server "fx" stopped; restarting/);
    expect(result.stderr).toMatch(/MCP server "fx" restarted/);
    // the restarted server answers
    expect(textOf(resultOf(last, "t_pid"))).toMatch(/^\d+$/);
  });

  it("a stdio server gets the stripped child env (as bash does) plus its entry's env, ${VAR} expanded", () => {
    const env = JSON.parse(fs.readFileSync(envFile, "utf8")) as Record<string, string>;
    expect(env.OC_TEST_SECRET_TOKEN).toBeUndefined();
    expect(env.ANTHROPIC_API_KEY).toBeUndefined();
    expect(env.OC_TEST_PLAIN).toBe("plain");
    expect(env.GIVEN_TOKEN).toBe("kept");
    expect(env.FROM_VAR).toBe("plain");
  });

  it("no server process outlives the run", async () => {
    const last = fake.requests[fake.requests.length - 1]!;
    const first = Number(fs.readFileSync(pidFile, "utf8")); // the restart rewrote it: the second process
    const second = Number(textOf(resultOf(last, "t_pid")));
    expect(first).toBe(second);
    await new Promise((r) => setTimeout(r, 200));
    expect(alive(second)).toBe(false);
  });
});

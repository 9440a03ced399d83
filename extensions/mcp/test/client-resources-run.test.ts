/**
 * MCP resources, prompts, elicitation and sampling end to end: the compiled CLI `run --auto` against the
 * fake Anthropic server with @modelcontextprotocol/server-everything (stdio) in the fixture HOME's
 * ~/.claude.json. The model lists and reads resources, triggers an elicitation (declined: no interactive
 * user) and a sampling request (refused); typed `/mcp__everything__<prompt>` forms become the first user
 * message.
 */
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { anthropicEnv, makeSandbox, REPO_ROOT, runCliAsync, type Sandbox } from "../../../test/kit/cli.js";
import { startFakeAnthropic, type AnthropicRecorded, type FakeAnthropicServer, type FakeToolCall, toolNames, toolResultOf as resultOf, blockText as textOf } from "../../../test/kit/fakes/anthropic-server.js";

type Block = { type: string; text?: string; tool_use_id?: string; content?: unknown; is_error?: boolean; source?: { type: string; media_type: string } };

const EVERYTHING = path.join(REPO_ROOT, "node_modules/@modelcontextprotocol/server-everything/dist/index.js");
const MODEL = "anthropic/claude-sonnet-4-5";

const blocksOf = (req: AnthropicRecorded): Block[] => (req.body.messages ?? []).flatMap((m) => (typeof m.content === "string" ? [{ type: "text", text: m.content }] : (m.content as Block[])));
const firstUserText = (req: AnthropicRecorded): string => {
  const m = (req.body.messages ?? [])[0]!;
  return typeof m.content === "string" ? m.content : (m.content as Block[]).map((b) => b.text ?? "").join("");
};

describe("MCP resources, prompts, elicitation and sampling through run", () => {
  let fake: FakeAnthropicServer;
  let sb: Sandbox;
  const run = (prompt: string) =>
    runCliAsync(["run", "--auto", "--model", MODEL, prompt], {
      cwd: sb.project,
      env: anthropicEnv(sb, fake.url, { OC_MCP_WAIT_SECONDS: "30" }),
      timeoutMs: 90_000,
    });

  beforeAll(async () => {
    fake = await startFakeAnthropic();
    sb = makeSandbox("oc-mcp-res-");
    sb.write(".claude.json", JSON.stringify({ mcpServers: { everything: { command: process.execPath, args: [EVERYTHING, "stdio"] } } }), "home");
  }, 60_000);

  afterAll(async () => {
    await fake.close();
    sb.cleanup();
  });

  describe("tools: resources, elicitation, sampling", () => {
    let result: { code: number | null; stdout: string; stderr: string };
    let requests: AnthropicRecorded[] = [];
    const CALLS: FakeToolCall[] = [
      { id: "t_list", name: "list_resources", input: {} },
      { id: "t_list1", name: "list_resources", input: { server: "everything" } },
      { id: "t_read", name: "read_resource", input: { server: "everything", uri: "demo://resource/static/document/architecture.md" } },
      { id: "t_blob", name: "read_resource", input: { server: "everything", uri: "demo://resource/dynamic/blob/1" } },
      { id: "t_nores", name: "read_resource", input: { server: "nope", uri: "demo://x" } },
      { id: "t_elicit", name: "mcp__everything__trigger-elicitation-request", input: {} },
      { id: "t_sample", name: "mcp__everything__trigger-sampling-request", input: { prompt: "hi", maxTokens: 10 } },
    ];

    beforeAll(async () => {
      const start = fake.requests.length;
      let i = 0;
      fake.respond(() => {
        const c = CALLS[i++];
        return c ? { text: `calling ${c.name}`, toolCalls: [c] } : { text: "resources done" };
      });
      result = await run("use the MCP resources");
      requests = fake.requests.slice(start);
    }, 120_000);

    it("the run ends normally after every call", () => {
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toContain("resources done");
      expect(requests.length).toBe(CALLS.length + 1);
    });

    it("list_resources and read_resource are offered (a server has resources), the same every step", () => {
      const names = toolNames(requests[0]!);
      expect(names).toContain("list_resources");
      expect(names).toContain("read_resource");
      for (const r of requests) expect(toolNames(r)).toEqual(names);
    });

    it("the tool results carry the resources", () => {
      const last = requests[requests.length - 1]!;
      const listed = JSON.parse(textOf(resultOf(last, "t_list"))) as Record<string, Array<{ uri: string; name: string; mimeType?: string }>>;
      expect(listed.everything!.some((r) => r.uri === "demo://resource/static/document/architecture.md" && r.mimeType === "text/markdown")).toBe(true);
      expect(JSON.parse(textOf(resultOf(last, "t_list1")))).toEqual(listed);
      const read = resultOf(last, "t_read")!;
      expect(read.is_error).toBeUndefined();
      expect(textOf(read).length).toBeGreaterThan(50);
      expect(textOf(resultOf(last, "t_blob"))).toMatch(/bytes, not shown|image/);
      expect(resultOf(last, "t_nores")!.is_error).toBe(true);
      expect(textOf(resultOf(last, "t_nores"))).toMatch(/MCP server "nope" is not connected/);
    });

    it("an elicitation under run --auto is declined with a notice, and the tool call still returns", () => {
      expect(result.stderr).toMatch(/elicitation from everything declined: no interactive user/);
      const r = resultOf(requests[requests.length - 1]!, "t_elicit")!;
      expect(textOf(r)).toMatch(/decline/i);
    });

    it("a sampling request is refused: sampling is not enabled", () => {
      const r = resultOf(requests[requests.length - 1]!, "t_sample")!;
      expect(textOf(r)).toMatch(/sampling is not enabled/);
    });
  });

  describe("prompts as slash commands", () => {
    const lone = async (prompt: string) => {
      const start = fake.requests.length;
      fake.respond(() => ({ text: "ok" }));
      const result = await run(prompt);
      return { result, req: fake.requests[start] };
    };

    it("/mcp__everything__simple-prompt sends the prompt's text as the first user message", async () => {
      const { result, req } = await lone("/mcp__everything__simple-prompt");
      expect(result.code, result.stderr).toBe(0);
      expect(firstUserText(req!)).toContain("This is a simple prompt without arguments.");
      expect(result.stderr).not.toMatch(/sent as text/);
    }, 120_000);

    it("the args prompt takes key=value and positional arguments", async () => {
      const keyed = await lone("/mcp__everything__args-prompt city=Paris state=Texas");
      expect(keyed.result.code, keyed.result.stderr).toBe(0);
      expect(firstUserText(keyed.req!)).toMatch(/Paris/);
      expect(firstUserText(keyed.req!)).toMatch(/Texas/);
      expect(firstUserText(keyed.req!)).not.toContain("/mcp__");
      const positional = await lone('/mcp__everything__args-prompt "New York" NY');
      expect(firstUserText(positional.req!)).toMatch(/New York/);
      expect(firstUserText(positional.req!)).toMatch(/NY/);
    }, 180_000);

    it("an unknown /mcp__x__y and a missing required argument are sent as text with one warning", async () => {
      const unknown = await lone("/mcp__everything__no-such-prompt hello");
      expect(unknown.result.code, unknown.result.stderr).toBe(0);
      expect(firstUserText(unknown.req!)).toBe("/mcp__everything__no-such-prompt hello");
      expect(unknown.result.stderr).toMatch(/\/mcp__everything__no-such-prompt is not a prompt of a connected MCP server; sent as text/);
      expect(unknown.result.stderr).not.toMatch(/is not a skill or command/);
      const missing = await lone("/mcp__everything__args-prompt");
      expect(missing.result.stderr).toMatch(/missing required argument city/);
    }, 180_000);
  });
});

/**
 * `oceancode -p --output-format stream-json|json` against the fake Anthropic API, real tools: the lines
 * compared field by field with Claude Code's shapes, ids and usage checked against what the server sent,
 * `run --resume <id>` continuing the session, a failing provider's error result.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { anthropicEnv, makeSandbox, runCli, runCliAsync, type Sandbox } from "../../../test/kit/cli.js";
import { startFakeAnthropic, type FakeAnthropicServer } from "../../../test/kit/fakes/anthropic-server.js";
import { ASSISTANT, ASSISTANT_MESSAGE, expectShape, INIT, lines, RESULT, USAGE, USER, type Line } from "./shapes.js";

let fake: FakeAnthropicServer;
let sb: Sandbox;
beforeAll(async () => {
  fake = await startFakeAnthropic();
  sb = makeSandbox("oc-print-");
});
afterAll(async () => {
  await fake.close();
  sb.cleanup();
});

const MODEL = "anthropic/claude-sonnet-4-6";
const u1 = { input_tokens: 120, output_tokens: 9, cache_read_input_tokens: 30, cache_creation_input_tokens: 40 };
const u2 = { input_tokens: 15, output_tokens: 6, cache_read_input_tokens: 160, cache_creation_input_tokens: 0 };
const cli = (args: string[], extra: NodeJS.ProcessEnv = {}) => runCliAsync(["--dir", sb.project, ...args], { env: anthropicEnv(sb, fake.url, { OC_MAX_RETRIES: "0", ...extra }) });

describe("oceancode -p --output-format stream-json", () => {
  let id = "";
  let streamResult: Line | undefined;

  it("emits init, assistant, user and result lines in Claude Code's shapes, with the server's ids and usage", async () => {
    fake.enqueue(
      {
        text: "Looking.",
        toolCalls: [
          { id: "toolu_a1", name: "bash", input: { command: "echo NEEDLE-1" } },
          // the shell guard's ask, which nobody answers in a headless run: a permission denial
          { id: "toolu_a2", name: "bash", input: { command: 'eval "$X"' } },
        ],
        usage: u1,
      },
      { text: "DONE after 1 step", usage: u2 },
    );
    // flags on both sides of -p and of the prompt, as claude -p takes them
    const r = await cli(["--model", MODEL, "-p", "run the needle", "--output-format", "stream-json", "--verbose"]);
    expect(r.code, r.stderr).toBe(0);
    const out = lines(r.stdout);
    expect(out.map((l) => l.type)).toEqual(["system", "assistant", "user", "user", "assistant", "result"]);

    const [init, a1, t1, t2, a2, result] = out as [Line, Line, Line, Line, Line, Line];
    expectShape(init, INIT, "init");
    expect(init.subtype).toBe("init");
    expect(init.cwd).toBe(sb.project);
    expect(init.model).toBe("claude-sonnet-4-6");
    expect(init.tools).toEqual(expect.arrayContaining(["bash", "read", "write", "edit"]));
    expect(init.apiKeySource).toBe("ANTHROPIC_API_KEY");
    expect(typeof init.oceancode_version).toBe("string");
    id = init.session_id as string;
    expect(id).toMatch(/^ses_/);

    for (const [m, what] of [[a1, "assistant 1"], [a2, "assistant 2"]] as const) {
      expectShape(m, ASSISTANT, what);
      expectShape(m.message, ASSISTANT_MESSAGE, `${what}.message`);
      expectShape((m.message as Line).usage, USAGE, `${what}.message.usage`);
      expect(m.session_id).toBe(id);
    }
    const msg1 = a1.message as { content: Array<Record<string, unknown>>; usage: unknown; stop_reason: string };
    expect(msg1.content).toEqual([
      { type: "text", text: "Looking." },
      { type: "tool_use", id: "toolu_a1", name: "bash", input: { command: "echo NEEDLE-1" } },
      { type: "tool_use", id: "toolu_a2", name: "bash", input: { command: 'eval "$X"' } },
    ]);
    expect(msg1.stop_reason).toBe("tool_use");
    // the step's usage is what the server reported for that request
    expect(msg1.usage).toEqual(u1);
    expect((a2.message as { usage: unknown }).usage).toEqual(u2);
    expect((a2.message as { content: unknown }).content).toEqual([{ type: "text", text: "DONE after 1 step" }]);

    // each tool_use id of the assistant message has its tool_result in the user messages that follow
    for (const t of [t1, t2]) expectShape(t, USER, "user");
    const results = [t1, t2].map((t) => (t.message as { role: string; content: Array<{ type: string; tool_use_id: string; content: string; is_error: boolean }> }).content[0]!);
    expect(results.map((b) => [b.type, b.tool_use_id])).toEqual([["tool_result", "toolu_a1"], ["tool_result", "toolu_a2"]]);
    expect(results[0]!.content).toContain("NEEDLE-1");
    expect(results[0]!.is_error).toBe(false);
    expect(results[1]!.is_error).toBe(true);
    // nobody was asked (#36): the denial says the run refused it, never that a user did
    expect(results[1]!.content).not.toMatch(/user rejected/);
    expect(results[1]!.content).toContain("Permission denied by oceancode run");

    expectShape(result, RESULT, "result");
    expectShape(result.usage, USAGE, "result.usage");
    expect(result).toMatchObject({ subtype: "success", is_error: false, result: "DONE after 1 step", session_id: id, num_turns: 2, stop_reason: "end_turn" });
    expect(result.usage).toMatchObject({
      input_tokens: u1.input_tokens + u2.input_tokens,
      output_tokens: u1.output_tokens + u2.output_tokens,
      cache_read_input_tokens: u1.cache_read_input_tokens + u2.cache_read_input_tokens,
      cache_creation_input_tokens: u1.cache_creation_input_tokens + u2.cache_creation_input_tokens,
    });
    expect(result.total_cost_usd as number).toBeGreaterThan(0);
    expect(result.permission_denials).toEqual([{ tool_name: "bash", tool_use_id: "toolu_a2", tool_input: { command: 'eval "$X"' } }]);
    expect(Object.keys(result.modelUsage as object)).toEqual(["claude-sonnet-4-6"]);
    streamResult = result;

    // the session the stream names is a real, stored one
    const list = runCli(["--dir", sb.project, "sessions", "--json"], { env: sb.env });
    const stored = (JSON.parse(list.stdout) as Array<{ id: string; turns: number }>).find((s) => s.id === id);
    expect(stored, list.stdout + list.stderr).toBeDefined();
    expect(stored!.turns).toBe(1);
  });

  it("run --resume <id> --output-format json continues that session and prints one result object of the same shape", async () => {
    expect(id).not.toBe("");
    fake.enqueue({ text: "second answer", usage: u2 });
    const before = fake.requests.length;
    const r = await cli(["run", "--resume", id, "--output-format", "json", "and now?"]);
    expect(r.code, r.stderr).toBe(0);
    const out = lines(r.stdout);
    expect(out).toHaveLength(1);
    const res = out[0]!;
    expectShape(res, RESULT, "json result");
    // the same keys as the stream's result line
    expect(Object.keys(res).sort()).toEqual(Object.keys(streamResult!).sort());
    expect(res).toMatchObject({ type: "result", subtype: "success", is_error: false, result: "second answer", session_id: id, num_turns: 1 });
    expect(res.usage).toMatchObject(u2);
    // the request carried the first turn: it is the same conversation
    const sent = JSON.stringify(fake.requests[before]!.body.messages);
    expect(sent).toContain("run the needle");
    expect(sent).toContain("DONE after 1 step");
  });

  it("a failing provider: an error result (is_error true) and run's exit code 1", async () => {
    fake.enqueue({ type: "error", status: 500, message: "the backend fell over" });
    const r = await cli(["-p", "--output-format", "json", "--model", MODEL, "try"]);
    expect(r.code).toBe(1);
    const out = lines(r.stdout);
    expect(out).toHaveLength(1);
    expectShape(out[0], RESULT, "error result");
    expect(out[0]).toMatchObject({ type: "result", subtype: "error_during_execution", is_error: true, num_turns: 0 });
    expect(out[0]!.result as string).toContain("the backend fell over");
    expect(r.stderr).toContain("the backend fell over");
  });
});

/**
 * `oceancode acp` end to end: the compiled CLI as a child process, driven by the ACP SDK's own client
 * side over stdio, the model played by the fake Anthropic server (the real Anthropic SDK talks to it).
 */
import fs from "node:fs";
import path from "node:path";
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { methods, PROTOCOL_VERSION } from "@agentclientprotocol/sdk";
import { anthropicEnv, makeSandbox } from "../../../test/kit/cli.js";
import { startAcp, updatesOf, type AcpChild } from "./client.js";
import { acpTests } from "./acp-tests.js";
import { signRequirements } from "../../../test/kit/requirements.js";

const { fake, sb, start } = acpTests("oc-acp-", (s) => {
  // file edits ask in default mode (the base rule allows them), so a write makes a permission request
  s.write(".config/oceancode/oceancode.json", JSON.stringify({ permission: ["edit * ask"] }), "home");
});

describe("oceancode acp", () => {
  it("initialize answers protocol 1 with loadSession, prompt capabilities and session list", async () => {
    const c = start();
    const init = (await c.initialize()) as { protocolVersion: number; agentCapabilities: Record<string, unknown> };
    expect(init.protocolVersion).toBe(PROTOCOL_VERSION);
    expect(init.protocolVersion).toBe(1);
    expect(init.agentCapabilities.loadSession).toBe(true);
    expect(init.agentCapabilities.promptCapabilities).toMatchObject({ embeddedContext: true });
    expect(init.agentCapabilities.sessionCapabilities).toMatchObject({ list: {} });
  }, 30_000);

  it("new + prompt: streams text and a write tool call, asks permission (allow_once), the tool runs", async () => {
    const c = start();
    await c.initialize();
    const { sessionId, modes } = await c.conn.agent.request(methods.agent.session.new, { cwd: sb.project, mcpServers: [] });
    expect(modes?.currentModeId).toBe("default");
    expect(modes?.availableModes.map((m) => m.id)).toEqual(["default", "acceptEdits", "dontAsk", "bypassPermissions", "plan"]);
    const file = path.join(sb.project, "made-by-acp.txt");
    fake.enqueue({ text: "writing it", toolCalls: [{ id: "toolu_w1", name: "write", input: { file_path: file, content: "hello\n" } }] }, { text: "done writing" });
    const res = await c.conn.agent.request(methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: "make a file" }] });
    expect(res.stopReason).toBe("end_turn");
    expect(fs.readFileSync(file, "utf8")).toBe("hello\n");
    expect(c.permissions).toHaveLength(1);
    expect(c.permissions[0]!.toolCall.toolCallId).toBe("toolu_w1");
    expect(c.permissions[0]!.options.map((o) => o.kind)).toEqual(["allow_once", "allow_always", "reject_once", "reject_always"]);
    const text = updatesOf(c, sessionId, "agent_message_chunk").map((u) => (u.content.type === "text" ? u.content.text : "")).join("");
    expect(text).toContain("writing it");
    expect(text).toContain("done writing");
    const call = updatesOf(c, sessionId, "tool_call").find((u) => u.toolCallId === "toolu_w1");
    expect(call).toMatchObject({ kind: "edit", status: "pending", locations: [{ path: file }], content: [{ type: "diff", path: file, oldText: null, newText: "hello\n" }] });
    // the permission request shows the same diff
    expect(c.permissions[0]!.toolCall.content).toEqual([{ type: "diff", path: file, oldText: null, newText: "hello\n" }]);
    const ups = updatesOf(c, sessionId, "tool_call_update").filter((u) => u.toolCallId === "toolu_w1");
    expect(ups.map((u) => u.status)).toEqual(["in_progress", "completed"]);
    // in the order they happened: announced, then running, then done
    const order = c.updates.filter((u) => "toolCallId" in u.update && u.update.toolCallId === "toolu_w1").map((u) => `${u.update.sessionUpdate}:${"status" in u.update ? u.update.status : ""}`);
    expect(order).toEqual(["tool_call:pending", "tool_call_update:in_progress", "tool_call_update:completed"]);
    // the end keeps the diff (an update's content replaces the call's) and adds the result text
    expect(ups[1]!.content?.[0]).toMatchObject({ type: "diff", path: file });
    expect(JSON.stringify(ups[1]!.content?.[1])).toContain("made-by-acp.txt");
    const usage = updatesOf(c, sessionId, "usage_update");
    expect(usage.length).toBe(2); // one per step
    expect(usage[1]).toMatchObject({ size: expect.any(Number), cost: { currency: "USD" } });
    expect(usage[1]!.used).toBeGreaterThan(0);
    // the configured model ($OC_MODEL) is the session's
    expect(fake.requests[0]!.body.model).toBe("claude-sonnet-4-5");
  }, 60_000);

  it("the todo list reaches the editor as plan updates: the whole plan each time, cancelled sent as completed", async () => {
    const c = start();
    await c.initialize();
    const { sessionId } = await c.conn.agent.request(methods.agent.session.new, { cwd: sb.project, mcpServers: [] });
    const todos = (...rows: Array<[string, string]>) => ({ todos: rows.map(([content, status]) => ({ content, status, activeForm: content })) });
    fake.enqueue(
      { toolCalls: [{ id: "toolu_t1", name: "todo_write", input: todos(["Read", "in_progress"], ["Fix", "pending"], ["Polish", "pending"]) }] },
      { toolCalls: [{ id: "toolu_t2", name: "todo_write", input: todos(["Read", "completed"], ["Fix", "completed"], ["Polish", "cancelled"]) }] },
      { text: "done" },
    );
    const res = await c.conn.agent.request(methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: "read, fix, polish" }] });
    expect(res.stopReason).toBe("end_turn");
    // the floor (the prompt, before the model planned) is no plan: only the model's two lists are sent
    expect(updatesOf(c, sessionId, "plan").map((u) => u.entries)).toEqual([
      [
        { content: "Read", priority: "medium", status: "in_progress" },
        { content: "Fix", priority: "medium", status: "pending" },
        { content: "Polish", priority: "medium", status: "pending" },
      ],
      [
        { content: "Read", priority: "medium", status: "completed" },
        { content: "Fix", priority: "medium", status: "completed" },
        { content: "Polish (cancelled)", priority: "medium", status: "completed" },
      ],
    ]);
  }, 60_000);

  it("reject_once: the tool does not run, its update fails, the model is told", async () => {
    const c = start();
    c.answer = () => ({ outcome: { outcome: "selected", optionId: "reject_once" } });
    await c.initialize();
    const { sessionId } = await c.conn.agent.request(methods.agent.session.new, { cwd: sb.project, mcpServers: [] });
    const file = path.join(sb.project, "never.txt");
    fake.enqueue({ toolCalls: [{ id: "toolu_r1", name: "write", input: { file_path: file, content: "no\n" } }] }, { text: "ok, not written" });
    const res = await c.conn.agent.request(methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: "write never.txt" }] });
    expect(res.stopReason).toBe("end_turn");
    expect(fs.existsSync(file)).toBe(false);
    const end = updatesOf(c, sessionId, "tool_call_update").find((u) => u.toolCallId === "toolu_r1" && u.status);
    expect(end?.status).toBe("failed");
    expect(JSON.stringify(fake.requests[1]!.body.messages)).toContain("Permission denied");
  }, 60_000);

  it("cancel during a long bash sleep: the prompt ends cancelled within ~1 s and the sleep is gone", async () => {
    const c = start();
    await c.initialize();
    const { sessionId } = await c.conn.agent.request(methods.agent.session.new, { cwd: sb.project, mcpServers: [] });
    await c.conn.agent.request(methods.agent.session.setMode, { sessionId, modeId: "bypassPermissions" });
    const marker = `acp-sleep-${process.pid}-${Date.now() % 100000}`;
    fake.enqueue({ toolCalls: [{ id: "toolu_s1", name: "bash", input: { command: `sleep 30; echo ${marker}` } }] }, { text: "after" });
    const prompt = c.conn.agent.request(methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: "sleep" }] });
    // wait until the tool is running
    for (let i = 0; i < 200 && !updatesOf(c, sessionId, "tool_call_update").some((u) => u.toolCallId === "toolu_s1" && u.status === "in_progress"); i++) await new Promise((r) => setTimeout(r, 25));
    await new Promise((r) => setTimeout(r, 300));
    expect(pgrep(marker)).toBe(true);
    const t0 = Date.now();
    await c.conn.agent.notify(methods.agent.session.cancel, { sessionId });
    const res = await prompt;
    expect(res.stopReason).toBe("cancelled");
    expect(Date.now() - t0).toBeLessThan(1500);
    await new Promise((r) => setTimeout(r, 200));
    expect(pgrep(marker)).toBe(false);
  }, 60_000);

  it("set_mode switches the permission mode and sends current_mode_update; unknown modes are refused", async () => {
    const c = start();
    await c.initialize();
    const { sessionId } = await c.conn.agent.request(methods.agent.session.new, { cwd: sb.project, mcpServers: [] });
    await c.conn.agent.request(methods.agent.session.setMode, { sessionId, modeId: "acceptEdits" });
    await new Promise((r) => setTimeout(r, 100));
    expect(updatesOf(c, sessionId, "current_mode_update").map((u) => u.currentModeId)).toEqual(["acceptEdits"]);
    await expect(c.conn.agent.request(methods.agent.session.setMode, { sessionId, modeId: "nonsense" })).rejects.toThrow(/unknown mode/);
    // in acceptEdits a write in the project runs without a permission request
    const file = path.join(sb.project, "accepted.txt");
    fake.enqueue({ toolCalls: [{ id: "toolu_m1", name: "write", input: { file_path: file, content: "x\n" } }] }, { text: "ok" });
    await c.conn.agent.request(methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: "write" }] });
    expect(fs.existsSync(file)).toBe(true);
    expect(c.permissions).toHaveLength(0);
  }, 60_000);

  it("load in a second process replays the history before it answers; list shows the session (--db for both)", async () => {
    const db = path.join(sb.home, "acp-load.db");
    const a = start(["--db", db]);
    await a.initialize();
    const { sessionId } = await a.conn.agent.request(methods.agent.session.new, { cwd: sb.project, mcpServers: [] });
    await a.conn.agent.request(methods.agent.session.setMode, { sessionId, modeId: "bypassPermissions" });
    fake.enqueue({ text: "let me look", toolCalls: [{ id: "toolu_l1", name: "bash", input: { command: "echo replayed-output" } }] }, { text: "the answer is 42" });
    await a.conn.agent.request(methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: "what is the answer" }] });
    a.child.stdin.end();
    expect(await a.exited).toBe(0);

    expect(fs.existsSync(db)).toBe(true);
    const b = start(["--db", db]);
    await b.initialize();
    const list = await b.conn.agent.request(methods.agent.session.list, { cwd: sb.project });
    expect(list.sessions.map((s) => s.sessionId)).toContain(sessionId);
    let seenBeforeAnswer = -1;
    const load = b.conn.agent.request(methods.agent.session.load, { sessionId, cwd: sb.project, mcpServers: [] }).then((r) => {
      seenBeforeAnswer = b.updates.length;
      return r;
    });
    await load;
    const kinds = b.updates.slice(0, seenBeforeAnswer).map((u) => u.update.sessionUpdate);
    expect(kinds).toEqual(["user_message_chunk", "agent_message_chunk", "tool_call", "tool_call_update", "agent_message_chunk"]);
    const end = updatesOf(b, sessionId, "tool_call_update")[0]!;
    expect(end.status).toBe("completed");
    expect(JSON.stringify(end.content)).toContain("replayed-output");
    // the loaded session takes prompts
    fake.enqueue({ text: "still here" });
    const res = await b.conn.agent.request(methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: "again" }] });
    expect(res.stopReason).toBe("end_turn");
  }, 60_000);

  it("a session held by another process is refused; after session/close there, resume takes it without a replay", async () => {
    const a = start();
    await a.initialize();
    const { sessionId } = await a.conn.agent.request(methods.agent.session.new, { cwd: sb.project, mcpServers: [] });
    fake.enqueue({ text: "first answer" });
    await a.conn.agent.request(methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: "one" }] });
    const b = start();
    await b.initialize();
    await expect(b.conn.agent.request(methods.agent.session.resume, { sessionId, cwd: sb.project })).rejects.toThrow();
    await a.conn.agent.request(methods.agent.session.close, { sessionId });
    const resumed = await b.conn.agent.request(methods.agent.session.resume, { sessionId, cwd: sb.project });
    expect(resumed.modes?.currentModeId).toBe("default");
    expect(b.updates).toHaveLength(0);
    fake.enqueue({ text: "second answer" });
    expect((await b.conn.agent.request(methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: "two" }] })).stopReason).toBe("end_turn");
    // the model saw the whole history
    expect(JSON.stringify(fake.requests[fake.requests.length - 1]!.body.messages)).toContain("first answer");
  }, 60_000);

  it("stdin closing during a running prompt: the process exits within a few seconds and the tool's process is gone", async () => {
    const c = start();
    await c.initialize();
    const { sessionId } = await c.conn.agent.request(methods.agent.session.new, { cwd: sb.project, mcpServers: [] });
    await c.conn.agent.request(methods.agent.session.setMode, { sessionId, modeId: "bypassPermissions" });
    const marker = `acp-eof-${process.pid}-${Date.now() % 100000}`;
    fake.enqueue({ toolCalls: [{ id: "toolu_e1", name: "bash", input: { command: `sleep 30; echo ${marker}` } }] }, { text: "after" });
    void c.conn.agent.request(methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: "sleep" }] }).catch(() => undefined);
    for (let i = 0; i < 200 && !pgrep(marker); i++) await new Promise((r) => setTimeout(r, 25));
    expect(pgrep(marker)).toBe(true);
    const t0 = Date.now();
    c.child.stdin.end();
    expect(await c.exited).toBe(0);
    expect(Date.now() - t0).toBeLessThan(4000);
    // a confined tool's process dies with its sandbox's PID namespace, a moment after the sandbox itself
    // (gone within ~10 ms on a quiet machine; a fresh-clone CI once still saw it after 3 s of polling, so the
    // bound is 10 s: the effect, not the speed, is what this asserts)
    for (let i = 0; i < 400 && pgrep(marker); i++) await new Promise((r) => setTimeout(r, 25));
    expect(pgrep(marker)).toBe(false);
  }, 60_000);

  it("a provider error fails the prompt with the engine's message; an unknown session is -32002; the session takes the next prompt", async () => {
    const c = start();
    await c.initialize();
    const { sessionId } = await c.conn.agent.request(methods.agent.session.new, { cwd: sb.project, mcpServers: [] });
    fake.enqueue({ type: "error", status: 400, message: "bad request from the fake" });
    await expect(c.conn.agent.request(methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: "fail" }] })).rejects.toThrow(/bad request from the fake/);
    await expect(c.conn.agent.request(methods.agent.session.prompt, { sessionId: "no-such-session", prompt: [{ type: "text", text: "x" }] })).rejects.toMatchObject({ code: -32002 });
    fake.enqueue({ text: "fine now" });
    expect((await c.conn.agent.request(methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: "again" }] })).stopReason).toBe("end_turn");
  }, 60_000);

  it("a malformed line gets a JSON-RPC error and the agent keeps answering; stdout carries JSON-RPC only (-v logs to stderr); exits when stdin closes", async () => {
    const c = start(["-v"]);
    await c.initialize();
    c.child.stdin.write("this is not json\n");
    await new Promise((r) => setTimeout(r, 200));
    const { sessionId } = await c.conn.agent.request(methods.agent.session.new, { cwd: sb.project, mcpServers: [] });
    expect(sessionId).toBeTruthy();
    fake.enqueue({ text: "hi there" });
    await c.conn.agent.request(methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: "hi" }] });
    c.child.stdin.end();
    const t0 = Date.now();
    expect(await c.exited).toBe(0);
    expect(Date.now() - t0).toBeLessThan(5000);
    const parsed = c.stdoutLines.filter((l) => l.trim()).map((l) => JSON.parse(l) as { jsonrpc?: string; error?: { code: number } });
    expect(parsed.every((m) => m.jsonrpc === "2.0")).toBe(true);
    expect(parsed.some((m) => m.error?.code === -32700)).toBe(true);
    expect(c.stderr()).toContain("acp: serving on stdio");
  }, 60_000);
});

describe("oceancode acp under managed requirements", () => {
  it("set_mode bypassPermissions is downgraded to default when signed requirements disable it", async () => {
    const locked = makeSandbox("oc-acp-req-");
    let c: AcpChild | undefined;
    try {
      const key = signRequirements(locked, { permissions: { disableBypassPermissionsMode: true } });
      c = startAcp(anthropicEnv(locked, fake.url, { OC_REQUIREMENTS_PUBKEY: key }), [], locked.project);
      await c.initialize();
      const { sessionId } = await c.conn.agent.request(methods.agent.session.new, { cwd: locked.project, mcpServers: [] });
      await c.conn.agent.request(methods.agent.session.setMode, { sessionId, modeId: "bypassPermissions" });
      await new Promise((r) => setTimeout(r, 100));
      expect(updatesOf(c, sessionId, "current_mode_update").map((u) => u.currentModeId)).toEqual(["default"]);
      expect(c.stderr()).toContain("bypassPermissions is disabled");
    } finally {
      c?.kill();
      locked.cleanup();
    }
  }, 60_000);
});

/** Is a process whose command line holds `marker` alive? */
function pgrep(marker: string): boolean {
  return spawnSync("pgrep", ["-f", marker], { encoding: "utf8" }).status === 0;
}

/**
 * `oceancode acp` with a client that offers fs and terminal: reads, writes and bash go through the
 * editor; "reject always" holds for the session; a cancel while a permission request is open ends the
 * turn cancelled. The compiled CLI as a child process, the SDK's own client side, the fake Anthropic server.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { methods, type RequestPermissionResponse } from "@agentclientprotocol/sdk";
import { updatesOf, type AcpChild } from "./client.js";
import { acpTests } from "./acp-tests.js";

const { fake, sb, start } = acpTests("oc-acp-tools-", (s) => {
  s.write(".config/oceancode/oceancode.json", JSON.stringify({ permission: ["edit * ask"] }), "home");
});

async function session(c: AcpChild, caps: Parameters<AcpChild["initialize"]>[0] = {}): Promise<string> {
  await c.initialize(caps);
  return (await c.conn.agent.request(methods.agent.session.new, { cwd: sb.project, mcpServers: [] })).sessionId;
}
const prompt = (c: AcpChild, sessionId: string, text: string) => c.conn.agent.request(methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text }] });

describe("oceancode acp: the client's fs and terminal", () => {
  it("read, edit and write go through fs/read_text_file and fs/write_text_file when both are offered", async () => {
    const c = start();
    const sessionId = await session(c, { fs: { readTextFile: true, writeTextFile: true } });
    const src = sb.write("src.txt", "one\ntwo\nthree\n");
    const dst = path.join(sb.project, "dst.txt");
    fake.enqueue(
      { toolCalls: [{ id: "toolu_fr", name: "read", input: { file_path: "src.txt" } }] },
      { toolCalls: [{ id: "toolu_fe", name: "edit", input: { file_path: "src.txt", old_string: "two", new_string: "TWO" } }] },
      { toolCalls: [{ id: "toolu_fw", name: "write", input: { file_path: dst, content: "via editor\n" } }] },
      { text: "done" },
    );
    const res = await prompt(c, sessionId, "copy it");
    expect(res.stopReason).toBe("end_turn");
    expect(c.clientCalls).toEqual([`fs/read_text_file ${src}`, `fs/read_text_file ${src}`, `fs/write_text_file ${src}`, `fs/write_text_file ${dst}`]);
    expect(fs.readFileSync(src, "utf8")).toBe("one\nTWO\nthree\n");
    expect(fs.readFileSync(dst, "utf8")).toBe("via editor\n");
    expect(JSON.stringify(fake.requests[1]!.body.messages)).toContain("     2\\ttwo"); // numbered as the native read numbers lines
    expect(JSON.stringify(fake.requests[2]!.body.messages)).toContain("Edited");
    expect(updatesOf(c, sessionId, "tool_call_update").filter((u) => u.status === "failed")).toEqual([]);
  }, 60_000);

  it("an edit through the editor keeps the native rules: a missing old_string fails and writes nothing", async () => {
    const c = start();
    const sessionId = await session(c, { fs: { readTextFile: true, writeTextFile: true } });
    sb.write("keep.txt", "alpha\n");
    fake.enqueue({ toolCalls: [{ id: "toolu_fx", name: "edit", input: { file_path: "keep.txt", old_string: "beta", new_string: "gamma" } }] }, { text: "ok" });
    await prompt(c, sessionId, "edit");
    expect(c.clientCalls.filter((x) => x.startsWith("fs/write"))).toEqual([]);
    const end = updatesOf(c, sessionId, "tool_call_update").find((u) => u.toolCallId === "toolu_fx" && u.status === "failed");
    expect(JSON.stringify(end?.content)).toContain("old_string was not found");
  }, 60_000);

  it("bash runs in the client's terminal (shown in the tool call) when terminal is offered", async () => {
    const c = start();
    const sessionId = await session(c, { terminal: true });
    await c.conn.agent.request(methods.agent.session.setMode, { sessionId, modeId: "bypassPermissions" });
    fake.enqueue({ toolCalls: [{ id: "toolu_t1", name: "bash", input: { command: "echo from-terminal; exit 3" } }] }, { text: "seen" });
    await prompt(c, sessionId, "run it");
    // bypassPermissions approves automatically, so the command the terminal gets is the confined one (issue 27)
    expect(c.clientCalls[0]).toMatch(/^terminal\/create .*--unshare-net.* -- bash -c echo from-terminal; exit 3$/);
    expect(c.clientCalls.some((x) => x.startsWith("terminal/release"))).toBe(true);
    const ups = updatesOf(c, sessionId, "tool_call_update").filter((u) => u.toolCallId === "toolu_t1");
    expect(ups.some((u) => u.content?.some((x) => x.type === "terminal"))).toBe(true);
    expect(ups[ups.length - 1]!.status).toBe("failed");
    expect(ups[ups.length - 1]!.content?.[0]?.type).toBe("terminal"); // the editor keeps showing the terminal
    const sent = JSON.stringify(fake.requests[1]!.body.messages);
    expect(sent).toContain("from-terminal");
    expect(sent).toContain("exit code: 3");
  }, 60_000);

  it("reject_always: the same call is rejected later in the session without a second request", async () => {
    const c = start();
    c.answer = () => ({ outcome: { outcome: "selected", optionId: "reject_always" } });
    const sessionId = await session(c);
    const file = path.join(sb.project, "nope.txt");
    const call = (id: string) => ({ toolCalls: [{ id, name: "write", input: { file_path: file, content: "x" } }] });
    fake.enqueue(call("toolu_ra1"), { text: "no" }, call("toolu_ra2"), { text: "still no" });
    await prompt(c, sessionId, "first");
    await prompt(c, sessionId, "second");
    expect(c.permissions).toHaveLength(1);
    expect(fs.existsSync(file)).toBe(false);
    expect(JSON.stringify(fake.requests[3]!.body.messages)).toContain("rejected always for this session");
  }, 60_000);

  it("a cancel while a permission request is open ends the prompt cancelled and the tool never runs", async () => {
    const c = start();
    let release: ((r: RequestPermissionResponse) => void) | undefined;
    c.answer = () => new Promise<RequestPermissionResponse>((resolve) => (release = resolve));
    const sessionId = await session(c);
    const file = path.join(sb.project, "pending.txt");
    fake.enqueue({ toolCalls: [{ id: "toolu_p1", name: "write", input: { file_path: file, content: "x" } }] }, { text: "after" });
    const p = prompt(c, sessionId, "write");
    for (let i = 0; i < 200 && c.permissions.length === 0; i++) await new Promise((r) => setTimeout(r, 25));
    expect(c.permissions).toHaveLength(1);
    const t0 = Date.now();
    await c.conn.agent.notify(methods.agent.session.cancel, { sessionId });
    // the agent stops waiting at once: the prompt ends before the client answers its open request
    expect((await p).stopReason).toBe("cancelled");
    expect(Date.now() - t0).toBeLessThan(1500);
    release?.({ outcome: { outcome: "cancelled" } });
    expect(fs.existsSync(file)).toBe(false);
  }, 60_000);
});

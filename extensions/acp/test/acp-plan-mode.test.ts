/**
 * Plan mode over ACP (the compiled CLI's `oceancode acp`, the SDK's client side, the fake Anthropic server):
 * "plan" is one more session mode (the plan agent); set_mode plan turns it on, a write outside
 * .oceancode/plans/ is refused without a permission request, plan_exit asks through
 * session/request_permission and, allowed, flips the session to the build agent: the editor gets a
 * current_mode_update with the permission mode that holds; set_mode to a permission mode leaves plan mode.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { methods } from "@agentclientprotocol/sdk";
import { updatesOf } from "./client.js";
import { acpTests } from "./acp-tests.js";

const { fake, sb, start } = acpTests("oc-acp-plan-", (s) => {
  s.write(".config/oceancode/oceancode.json", JSON.stringify({ permission_mode: "acceptEdits" }), "home");
});

type Block = { type: string; tool_use_id?: string; content?: unknown; text?: string };
const resultOf = (id: string): string => {
  for (const r of fake.requests) {
    const b = (r.body.messages ?? []).flatMap((m) => (typeof m.content === "string" ? [] : (m.content as Block[]))).find((x) => x.type === "tool_result" && x.tool_use_id === id);
    if (b) return typeof b.content === "string" ? b.content : ((b.content as Block[] | undefined) ?? []).map((c) => c.text ?? "").join("");
  }
  return "";
};

describe("oceancode acp: plan mode", () => {
  it("set_mode plan; edits refused without asking; plan_exit allowed flips to build and sends current_mode_update", async () => {
    const c = start();
    await c.initialize();
    const { sessionId, modes } = await c.conn.agent.request(methods.agent.session.new, { cwd: sb.project, mcpServers: [] });
    expect(modes?.currentModeId).toBe("acceptEdits");
    expect(modes?.availableModes.find((m) => m.id === "plan")?.name).toBe("Plan");
    await c.conn.agent.request(methods.agent.session.setMode, { sessionId, modeId: "plan" });
    const outside = path.join(sb.project, "outside.txt");
    fake.enqueue(
      { toolCalls: [{ id: "toolu_p1", name: "write", input: { file_path: outside, content: "x\n" } }] },
      { toolCalls: [{ id: "toolu_p2", name: "plan_exit", input: { plan: "1. write outside.txt" } }] },
      { toolCalls: [{ id: "toolu_p3", name: "write", input: { file_path: outside, content: "built\n" } }] },
      { text: "done" },
    );
    await c.conn.agent.request(methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: "plan it" }] });
    expect(resultOf("toolu_p1")).toMatch(/^Permission denied by plan-mode: plan mode: editing is off/);
    // the only permission request is plan_exit's
    expect(c.permissions).toHaveLength(1);
    expect(c.permissions[0]!.toolCall.toolCallId).toBe("toolu_p2");
    expect(resultOf("toolu_p2")).toContain("The user approved the plan");
    expect(fs.readFileSync(outside, "utf8")).toBe("built\n");
    await new Promise((r) => setTimeout(r, 100));
    expect(updatesOf(c, sessionId, "current_mode_update").map((u) => u.currentModeId)).toEqual(["plan", "acceptEdits"]);
  }, 60_000);

  it("plan_exit rejected keeps plan mode; set_mode to a permission mode leaves it", async () => {
    const c = start();
    await c.initialize();
    c.answer = () => ({ outcome: { outcome: "selected", optionId: "reject_once" } });
    const { sessionId } = await c.conn.agent.request(methods.agent.session.new, { cwd: sb.project, mcpServers: [] });
    await c.conn.agent.request(methods.agent.session.setMode, { sessionId, modeId: "plan" });
    const file = path.join(sb.project, "rejected.txt");
    fake.enqueue({ toolCalls: [{ id: "toolu_r1", name: "plan_exit", input: { plan: "p" } }] }, { toolCalls: [{ id: "toolu_r2", name: "write", input: { file_path: file, content: "x\n" } }] }, { text: "ok" });
    await c.conn.agent.request(methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: "plan" }] });
    expect(resultOf("toolu_r1")).toContain("did not approve");
    expect(resultOf("toolu_r2")).toMatch(/^Permission denied by plan-mode/);
    expect(fs.existsSync(file)).toBe(false);
    await c.conn.agent.request(methods.agent.session.setMode, { sessionId, modeId: "default" });
    fake.enqueue({ toolCalls: [{ id: "toolu_r3", name: "write", input: { file_path: file, content: "y\n" } }] }, { text: "ok" });
    await c.conn.agent.request(methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: "write" }] });
    expect(fs.readFileSync(file, "utf8")).toBe("y\n");
    await new Promise((r) => setTimeout(r, 100));
    expect(updatesOf(c, sessionId, "current_mode_update").map((u) => u.currentModeId)).toEqual(["plan", "default"]);
  }, 60_000);
});

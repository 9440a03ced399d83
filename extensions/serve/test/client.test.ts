/**
 * The typed client (`oceancode/client`, generated from GET /doc) against a real `oceancode serve`: the
 * committed client is what the server's document generates (no drift); a session's life through it
 * (create, prompt, its event stream to turn_done, messages, export, permission mode, 404 as
 * ClientHttpError); the MCP routes (GET /mcp, tools, disconnect/connect, enable) on a user-tier fixture
 * server; and an MCP elicitation answered over HTTP with a form's values.
 */
import path from "node:path";
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../../../test/kit/cli.js";
import { ClientHttpError } from "../client/index.js";
import { servedOnFake } from "./serve-tests.js";

const FIXTURE = path.join(REPO_ROOT, "extensions/mcp/test/fixtures/tools-server.mjs");
const MODEL = "anthropic/claude-sonnet-4-5";

const { fake, sb, srv, api } = servedOnFake({
  prefix: "oc-serve-client-",
  env: { OC_MCP_WAIT_SECONDS: "20" },
  setup(sb) {
    sb.write(".claude.json", JSON.stringify({ mcpServers: { fx: { command: process.execPath, args: [FIXTURE, "--name", "fx", "--elicit"] } } }), "home");
    // the elicitation tool itself is allowed: the only question is the server's form
    sb.write(".oceancode/oceancode.json", JSON.stringify({ permission: ["mcp__fx__ask * allow"] }));
  },
});

/** Prompt and follow the session's stream to this turn's turn_done; the events seen on the way. */
async function promptToDone(id: string, text: string): Promise<Array<{ event: string; data: Record<string, unknown> }>> {
  const stop = new AbortController();
  const seen: Array<{ event: string; data: Record<string, unknown> }> = [];
  const stream = api.sessionEventStream({ id }, { signal: stop.signal });
  const { turnId } = await api.sessionPrompt({ id, body: { text } });
  for await (const ev of stream) {
    seen.push({ event: ev.event, data: ev.data as Record<string, unknown> });
    if (ev.event === "turn_done" && (ev.data as { turnId: string }).turnId === turnId) break;
  }
  stop.abort();
  return seen;
}

describe("the typed client", () => {
  it("the committed client is what the server's OpenAPI document generates", () => {
    const r = spawnSync(process.execPath, [path.join(REPO_ROOT, "dist/extensions/serve/client/write.js"), "--check"], { encoding: "utf8", timeout: 60_000 });
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
  }, 60_000);

  it("a session's life through the client: create, prompt, stream, messages, export, permission mode, errors", async () => {
    expect((await api.health()).ok).toBe(true);
    fake.enqueue({ text: "hello from the client test" });
    const s = await api.sessionCreate({ body: { model: MODEL } });
    const events = await promptToDone(s.id, "hi");
    expect(events.some((e) => e.event === "text_delta")).toBe(true);
    expect(events.find((e) => e.event === "turn_end")?.data).toMatchObject({ reason: "end_turn", text: "hello from the client test" });
    const msgs = await api.sessionMessages({ id: s.id, limit: 100 });
    expect(msgs.messages.length).toBeGreaterThanOrEqual(2);
    const md = await api.sessionExport({ id: s.id, format: "md" });
    expect(String(md)).toContain("hello from the client test");
    expect((await api.permissionModeGet({ id: s.id })).mode).toBe("default");
    await expect(api.sessionGet({ id: "no-such-session" })).rejects.toMatchObject({ status: 404, code: "session_not_found" });
    await expect(api.sessionGet({ id: "no-such-session" })).rejects.toBeInstanceOf(ClientHttpError);
  }, 60_000);

  it("MCP routes: list with status and provenance, tools, disconnect and connect, enable off and on", async () => {
    // the servers start with the first session (above); wait until fx is up
    let fx;
    for (let i = 0; i < 200; i++) {
      fx = (await api.mcpList()).servers.find((x) => x.name === "fx");
      if (fx?.status === "connected") break;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(fx).toMatchObject({ name: "fx", status: "connected", kind: "stdio", trusted: true, enabled: true, provenance: { tier: "user" } });
    expect(fx!.provenance.source).toContain(".claude.json");
    const tools = (await api.mcpTools({ name: "fx" })) as { tools: Array<{ name: string }> };
    expect(tools.tools.map((t) => t.name)).toContain("mcp__fx__add");
    expect((await api.mcpDisconnect({ name: "fx" })).status).toBe("disabled");
    await expect(api.mcpTools({ name: "fx" })).rejects.toMatchObject({ status: 409, code: "mcp_server_not_connected" });
    expect((await api.mcpConnect({ name: "fx" })).status).toMatch(/connecting|connected/);
    expect((await api.mcpEnable({ name: "fx", body: { on: false } })).enabled).toBe(false);
    expect((await api.mcpEnable({ name: "fx", body: { on: true } })).enabled).toBe(true);
    await expect(api.mcpTools({ name: "nope" })).rejects.toMatchObject({ status: 404, code: "mcp_server_not_found" });
    for (let i = 0; i < 200 && (await api.mcpList()).servers.find((x) => x.name === "fx")?.status !== "connected"; i++) await new Promise((r) => setTimeout(r, 50));
  }, 60_000);

  it("an MCP elicitation is a form question over HTTP; answered with values, the server gets them typed", async () => {
    fake.enqueue({ text: "asking", toolCalls: [{ id: "toolu_ask", name: "mcp__fx__ask", input: {} }] }, { text: "got the colour" });
    const s = await api.sessionCreate({ body: { model: MODEL } });
    const stop = new AbortController();
    const stream = api.sessionEventStream({ id: s.id }, { signal: stop.signal });
    await api.sessionPrompt({ id: s.id, body: { text: "ask me" } });
    for await (const ev of stream) {
      if (ev.event === "question_asked") {
        const d = ev.data as { questionId: string; question: { fields?: Array<{ name: string; default?: unknown }> } };
        expect(d.question.fields?.map((f) => [f.name, f.default])).toEqual([
          ["color", "blue"],
          ["size", 2],
        ]);
        await api.questionAnswer({ id: s.id, questionId: d.questionId, body: { answer: "once", values: { color: "green", size: "5" } } });
      }
      if (ev.event === "turn_done") break;
    }
    stop.abort();
    const last = JSON.stringify(fake.requests.at(-1)!.body.messages);
    expect(last).toContain('action=accept content={\\"color\\":\\"green\\",\\"size\\":5}');
  }, 60_000);
});

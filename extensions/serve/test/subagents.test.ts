/**
 * A session's stream and its sub-agents: GET /session/:id/event carries the session's own events only (as
 * before); with ?subagents=true it also carries the events of the sub-agent sessions it starts (each with
 * its own sessionId), live and in a Last-Event-ID replay. The fake Anthropic server plays the parent (its
 * system prompt lists the agents) and the child through the real SDK.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { anthropicEnv, makeSandbox, type Sandbox } from "../../../test/kit/cli.js";
import { startFakeAnthropic, type FakeAnthropicServer } from "../../../test/kit/fakes/anthropic-server.js";
import { isParent, hasToolResult } from "../../agents/test/helpers.js";
import { SseReader, startServe, turnEndOf, type Served } from "./serve-helpers.js";

let fake: FakeAnthropicServer;
let sb: Sandbox | undefined;
let srv: Served | undefined;
beforeAll(async () => {
  fake = await startFakeAnthropic();
});
afterAll(async () => {
  await fake.close();
});
afterEach(async () => {
  await srv?.stop("SIGKILL");
  srv = undefined;
  sb?.cleanup();
});

const MODEL = "anthropic/claude-sonnet-4-5";

describe("oceancode serve: a session's sub-agents on its stream", () => {
  it("?subagents=true carries the child's events with the child's sessionId; the plain stream does not; a replay does too", async () => {
    sb = makeSandbox("oc-serve-sub-");
    sb.write("notes.txt", "first line of notes\n");
    fake.respond((req) => {
      if (isParent(req)) {
        return hasToolResult(req)
          ? { text: "parent done" }
          : { text: "delegating", toolCalls: [{ id: "toolu_task", name: "agent", input: { subagent_type: "general-purpose", description: "read", prompt: "Read notes.txt." } }] };
      }
      return hasToolResult(req) ? { text: "CHILD DONE" } : { text: "child reading", toolCalls: [{ id: "toolu_child_read", name: "read", input: { file_path: "notes.txt" } }] };
    });
    srv = await startServe(["--directory", sb.project], { env: anthropicEnv(sb, fake.url) });
    const id = (await srv.api<{ id: string }>("POST", "/session", { model: MODEL })).body.id;
    const plain = await SseReader.open(`${srv.url}/session/${id}/event`);
    const withSubs = await SseReader.open(`${srv.url}/session/${id}/event?subagents=true`);
    expect(withSubs.status).toBe(200);
    expect((await srv.api("POST", `/session/${id}/prompt`, { text: "delegate the reading" })).status).toBe(202);
    await withSubs.waitFor((e) => turnEndOf(id)(e) && e.data.text === "parent done", 30_000);
    await plain.waitFor((e) => turnEndOf(id)(e) && e.data.text === "parent done", 30_000);

    const childEvents = withSubs.events.filter((e) => typeof e.data.sessionId === "string" && e.data.sessionId !== id);
    const childId = childEvents[0]?.data.sessionId as string | undefined;
    expect(childId, JSON.stringify(withSubs.events.map((e) => [e.event, e.data.sessionId]))).toMatch(/^ses_/);
    const kinds = childEvents.map((e) => e.event);
    expect(kinds).toContain("tool_call_start");
    expect(childEvents.find((e) => e.event === "tool_call_start")!.data).toMatchObject({ call: { name: "read" } });
    expect(childEvents.some((e) => turnEndOf(childId!)(e) && e.data.text === "CHILD DONE")).toBe(true);
    // the child's events come between the parent's agent call and its end, in order
    const order = withSubs.events.map((e) => `${e.data.sessionId === id ? "parent" : "child"}:${e.event}`);
    expect(order.indexOf("child:turn_end")).toBeLessThan(order.lastIndexOf("parent:turn_end"));
    // the plain stream is the parent's alone, as before
    expect(plain.events.every((e) => e.data.sessionId === undefined || e.data.sessionId === id)).toBe(true);
    expect(plain.events.length).toBeLessThan(withSubs.events.length);

    // a replay from before the prompt carries the child's events too (and only on the sub-agents stream)
    const first = Math.min(...withSubs.events.map((e) => Number(e.id)).filter((n) => Number.isFinite(n)));
    const again = await SseReader.open(`${srv.url}/session/${id}/event?subagents=true`, { "last-event-id": String(first - 1) });
    await again.waitFor((e) => turnEndOf(childId!)(e), 10_000);
    const replain = await SseReader.open(`${srv.url}/session/${id}/event`, { "last-event-id": String(first - 1) });
    await replain.waitFor((e) => turnEndOf(id)(e) && e.data.text === "parent done", 10_000);
    expect(replain.events.some((e) => e.data.sessionId === childId)).toBe(false);
    for (const r of [plain, withSubs, again, replain]) r.close();
  }, 60_000);
});

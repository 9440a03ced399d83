/** Permission questions of a served session, answered over HTTP; the fake Anthropic server plays the model through the real SDK. */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { anthropicEnv } from "../../../test/kit/cli.js";
import { startFakeAnthropic, type FakeAnthropicServer } from "../../../test/kit/fakes/anthropic-server.js";
import { SseReader, turnEndOf, type Served } from "./serve-helpers.js";
import { serveTests } from "./serve-tests.js";

let fake: FakeAnthropicServer;
const { sb, startServe } = serveTests("oc-serve-q-");
let srv: Served | undefined;
beforeAll(async () => {
  fake = await startFakeAnthropic();
});
afterAll(async () => {
  await fake.close();
});
beforeEach(() => {
  // every bash command asks (a project rule may add asks even in an untrusted checkout)
  sb.write(".oceancode/oceancode.json", JSON.stringify({ permission: ["bash * ask"] }));
  fake.reset();
});

type Pending = { id: string; question: { tool: string; subject: string; autoApprove?: boolean } };
const MODEL = "anthropic/claude-sonnet-4-5";

describe("oceancode serve: permission questions", () => {
  it("a bash call that asks (rule bash * ask) waits as a pending question; answered 'once' over HTTP, the command runs", async () => {
    fake.enqueue({ text: "writing", toolCalls: [{ id: "toolu_w1", name: "bash", input: { command: "touch made-by-serve" } }] }, { text: "done" });
    srv = await startServe(["--directory", sb.project], { env: anthropicEnv(sb, fake.url) });
    const id = (await srv.api<{ id: string }>("POST", "/session", { model: MODEL })).body.id;
    const sse = await SseReader.open(`${srv.url}/session/${id}/event`);
    await srv.api("POST", `/session/${id}/prompt`, { text: "make the file" });
    const asked = await sse.waitFor((e) => e.event === "question_asked");
    const qid = asked.data.questionId as string;
    const pending = await srv.api<Pending[]>("GET", `/session/${id}/question`);
    expect(pending.body).toHaveLength(1);
    expect(pending.body[0]).toMatchObject({ id: qid, question: { tool: "bash" } });
    expect(pending.body[0]!.question.subject).toContain("touch made-by-serve");
    expect(fs.existsSync(path.join(sb.project, "made-by-serve"))).toBe(false);

    const bad = await srv.api<{ error: { code: string; path: string } }>("POST", `/session/${id}/question/${qid}`, { answer: "sure" });
    expect(bad.status).toBe(400);
    expect(bad.body.error.path).toBe("body/answer");
    const ok = await srv.api("POST", `/session/${id}/question/${qid}`, { answer: "once" });
    expect(ok.status).toBe(200);
    const end = await sse.waitFor(turnEndOf(id));
    expect(end.data.reason).toBe("end_turn");
    expect(fs.existsSync(path.join(sb.project, "made-by-serve"))).toBe(true);
    const toolEnd = sse.events.find((e) => e.event === "tool_call_end");
    expect((toolEnd!.data.result as { isError: boolean }).isError).toBe(false);
    expect(sse.events.some((e) => e.event === "question_settled" && e.data.answer === "once")).toBe(true);
    expect((await srv.api<Pending[]>("GET", `/session/${id}/question`)).body).toEqual([]);
    sse.close();
  });

  it("a reject with a reason reaches the model; aborting a turn rejects its pending question", async () => {
    fake.enqueue({ text: "writing", toolCalls: [{ id: "toolu_w2", name: "bash", input: { command: "touch nope-1" } }] }, { text: "ok, not writing" });
    srv = await startServe(["--directory", sb.project], { env: anthropicEnv(sb, fake.url) });
    const id = (await srv.api<{ id: string }>("POST", "/session", { model: MODEL })).body.id;
    const sse = await SseReader.open(`${srv.url}/session/${id}/event`);
    await srv.api("POST", `/session/${id}/prompt`, { text: "one" });
    const q1 = (await sse.waitFor((e) => e.event === "question_asked")).data.questionId as string;
    await srv.api("POST", `/session/${id}/question/${q1}`, { answer: "reject", reason: "not in this directory" });
    await sse.waitFor(turnEndOf(id));
    expect(fs.existsSync(path.join(sb.project, "nope-1"))).toBe(false);
    const sent = JSON.stringify(fake.requests[1]!.body.messages);
    expect(sent).toContain("not in this directory");

    fake.enqueue({ text: "writing", toolCalls: [{ id: "toolu_w3", name: "bash", input: { command: "touch nope-2" } }] }, { text: "stopped" });
    await srv.api("POST", `/session/${id}/prompt`, { text: "two" });
    const q2 = (await sse.waitFor((e) => e.event === "question_asked" && e.data.questionId !== q1)).data.questionId as string;
    const aborted = await srv.api<{ aborted: boolean; turnId: string }>("POST", `/session/${id}/abort`);
    expect(aborted.body.aborted).toBe(true);
    await sse.waitFor((e) => e.event === "question_settled" && e.data.questionId === q2 && e.data.answer === "reject");
    const end2 = await sse.waitFor((e) => e.event === "turn_end" && e.data.turn === 2);
    expect(end2.data.reason).toBe("aborted");
    expect(fs.existsSync(path.join(sb.project, "nope-2"))).toBe(false);
    expect((await srv.api<Pending[]>("GET", `/session/${id}/question`)).body).toEqual([]);
    sse.close();
  });
});

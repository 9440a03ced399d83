/** Unit: an MCP server's elicitation/create routed to a (fake) host question handler; sampling's refusal text. */
import { describe, expect, it } from "vitest";
import type { Question, QuestionReply } from "../../engine/api.js";
import { describeFields, elicitHandler, formFields, samplingRefusal, type ElicitParams } from "../client/elicit.js";

const FORM: ElicitParams = {
  message: "Your preferences?",
  requestedSchema: {
    properties: { color: { type: "string", description: "favourite colour", default: "blue" }, count: { type: "integer", default: 3 }, note: { type: "string" } },
    required: ["color"],
  },
};

function setup(reply: QuestionReply | undefined | "throw", opts: { noHost?: boolean } = {}) {
  const asked: Question[] = [];
  const notices: string[] = [];
  const handler = elicitHandler({
    ...(opts.noHost
      ? {}
      : {
          ask: async (q: Question) => {
            asked.push(q);
            if (reply === "throw") throw new Error("boom");
            return reply;
          },
        }),
    sessionId: () => "s1",
    notice: (_level, text) => notices.push(text),
  });
  return { asked, notices, handler };
}

describe("elicitation", () => {
  it("asks the host with the server, its message and the fields; only a person may accept", async () => {
    const { asked, handler } = setup("once");
    await handler("everything", FORM, new AbortController().signal);
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({ sessionId: "s1", tool: "mcp__everything", reason: 'MCP server "everything" asks: Your preferences?', autoApprove: false });
    expect(asked[0]!.subject).toContain("color (string, required): favourite colour [default: \"blue\"]");
  });

  it("yes accepts with the schema's defaults", async () => {
    const { handler } = setup("once");
    expect(await handler("everything", FORM, new AbortController().signal)).toEqual({ action: "accept", content: { color: "blue", count: 3 } });
  });

  it("no declines; an interruption or a throwing handler cancels", async () => {
    expect(await setup("reject").handler("s", FORM, new AbortController().signal)).toEqual({ action: "decline" });
    expect(await setup("throw").handler("s", FORM, new AbortController().signal)).toEqual({ action: "cancel" });
    const ac = new AbortController();
    ac.abort();
    expect(await setup("once").handler("s", FORM, ac.signal)).toEqual({ action: "cancel" });
  });

  it("no person to answer (no host, or a host's Rejection as run gives): declined with a notice", async () => {
    for (const s of [setup(undefined, { noHost: true }), setup(undefined), setup({ answer: "reject", by: "oceancode run --auto", reason: "needs a person" })]) {
      expect(await s.handler("everything", FORM, new AbortController().signal)).toEqual({ action: "decline" });
      expect(s.notices).toEqual(["elicitation from everything declined: no interactive user"]);
    }
  });

  it("a required field without a default cannot be filled: declined with a notice naming it", async () => {
    const { handler, notices } = setup("once");
    const form: ElicitParams = { message: "name?", requestedSchema: { properties: { name: { type: "string" } }, required: ["name"] } };
    expect(await handler("x", form, new AbortController().signal)).toEqual({ action: "decline" });
    expect(notices[0]).toMatch(/elicitation from x declined: it needs name, which have no default/);
  });

  it("the question carries the fields, so a host can show a form", async () => {
    const { asked, handler } = setup("once");
    await handler("everything", FORM, new AbortController().signal);
    expect(asked[0]!.fields?.map((f) => f.name)).toEqual(["color", "count", "note"]);
    expect(asked[0]!.fields?.[0]).toMatchObject({ type: "string", required: true, default: "blue" });
  });

  it("a form answer's values are converted to their fields' types; empty ones take the default", async () => {
    const { handler } = setup({ answer: "once", values: { color: "red", count: "7", note: "" } });
    expect(await handler("everything", FORM, new AbortController().signal)).toEqual({ action: "accept", content: { color: "red", count: 7 } });
  });

  it("a bad form value or a missing required one declines with a notice naming the field", async () => {
    const bad = setup({ answer: "once", values: { color: "red", count: "seven" } });
    expect(await bad.handler("x", FORM, new AbortController().signal)).toEqual({ action: "decline" });
    expect(bad.notices[0]).toBe("elicitation from x declined: count must be a whole number, not 'seven'");
    const form: ElicitParams = { message: "name?", requestedSchema: { properties: { name: { type: "string" }, ok: { type: "boolean" }, size: { type: "string", enum: ["s", "m"] } }, required: ["name"] } };
    const missing = setup({ answer: "once", values: { name: " " } });
    expect(await missing.handler("x", form, new AbortController().signal)).toEqual({ action: "decline" });
    expect(missing.notices[0]).toBe("elicitation from x declined: it needs name");
    const typed = setup({ answer: "once", values: { name: "Ada", ok: "yes", size: "m" } });
    expect(await typed.handler("x", form, new AbortController().signal)).toEqual({ action: "accept", content: { name: "Ada", ok: true, size: "m" } });
    const off = setup({ answer: "once", values: { name: "Ada", size: "xl" } });
    expect(await off.handler("x", form, new AbortController().signal)).toEqual({ action: "decline" });
    expect(off.notices[0]).toBe("elicitation from x declined: size must be one of s, m, not 'xl'");
  });

  it("fields: types, required and defaults", () => {
    expect(formFields(FORM.requestedSchema).map((f) => [f.name, f.type, f.required])).toEqual([
      ["color", "string", true],
      ["count", "integer", false],
      ["note", "string", false],
    ]);
    expect(describeFields(formFields(undefined))).toBe("");
  });

  it("sampling's refusal says it is not enabled", () => {
    expect(samplingRefusal("everything")).toMatch(/^sampling is not enabled in oceancode: MCP server "everything"/);
  });
});

/**
 * GET /metrics on a real serve child (off loopback, with a password), two turns played by the fake Anthropic
 * server through the real SDK: one with an allowed tool call, one whose bash call asks and is answered over
 * HTTP. The text is read with a real Prometheus parser: every family has HELP and TYPE, the expected families
 * and labels are there, counters only rise and histogram counts grow across a turn; 401 without the password.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { FAMILIES, formProblems, parseProm, rising, sample, type PromFamily } from "../../../test/kit/prom.js";
import { SseReader, turnEndOf } from "./serve-helpers.js";
import { servedOnFake } from "./serve-tests.js";

const PASSWORD = "metrics-pw";
const AUTH = { authorization: `Basic ${Buffer.from(`oceancode:${PASSWORD}`).toString("base64")}` };
const MODEL = "anthropic/claude-sonnet-4-5";

const { fake, sb, srv } = servedOnFake({
  prefix: "oc-serve-metrics-",
  // off loopback: serve's guard needs the password, and every route (GET /metrics too) asks for it
  args: ["--host", "0.0.0.0"],
  env: { OC_SERVER_PASSWORD: PASSWORD },
  setup(sb) {
    sb.write("notes.txt", "hello\n");
    sb.write(".oceancode/oceancode.json", JSON.stringify({ permission: ["bash * ask"] }));
  },
});

async function scrape(): Promise<{ text: string; families: PromFamily[]; type: string | null }> {
  const res = await fetch(`${srv.url.replace("0.0.0.0", "127.0.0.1")}/metrics`, { headers: AUTH });
  expect(res.status).toBe(200);
  const text = await res.text();
  return { text, families: parseProm(text), type: res.headers.get("content-type") };
}

/** every series of `before` is in `after`, none lower */
function expectRose(before: Map<string, number>, after: Map<string, number>): void {
  for (const [k, v] of before) {
    expect(after.has(k), `${k} vanished`).toBe(true);
    expect(after.get(k)!, k).toBeGreaterThanOrEqual(v);
  }
}

describe("serve: GET /metrics", () => {
  it("needs the server's password (401 without it, off loopback)", async () => {
    const url = `${srv.url.replace("0.0.0.0", "127.0.0.1")}/metrics`;
    const anon = await fetch(url);
    expect(anon.status).toBe(401);
    expect(anon.headers.get("www-authenticate")).toContain("Basic");
    expect(await anon.text()).not.toContain("oceancode_steps_total");
    const wrong = await fetch(url, { headers: { authorization: `Basic ${Buffer.from("oceancode:nope").toString("base64")}` } });
    expect(wrong.status).toBe(401);
  });

  it("answers the Prometheus text format; counters only rise and histograms count across turns", async () => {
    const base = srv.url.replace("0.0.0.0", "127.0.0.1");
    const s0 = await scrape();
    expect(s0.type).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(formProblems(s0.text, s0.families)).toEqual([]);
    for (const name of FAMILIES) expect(s0.families.map((f) => f.name), name).toContain(name);
    // it is no JSON string: the exposition starts with a HELP line
    expect(s0.text.startsWith("# HELP ")).toBe(true);

    const id = (await srv.api<{ id: string }>("POST", "/session", { model: MODEL }, AUTH)).body.id;
    const sse = await SseReader.open(`${base}/session/${id}/event`, AUTH);
    // turn 1: an allowed read, then the answer
    fake.enqueue({ text: "reading", toolCalls: [{ id: "toolu_r1", name: "read", input: { file_path: path.join(sb.project, "notes.txt") } }] }, { text: "done" });
    expect((await srv.api("POST", `/session/${id}/prompt`, { text: "read the notes" }, AUTH)).status).toBe(202);
    await sse.waitFor(turnEndOf(id));
    const s1 = await scrape();
    expect(formProblems(s1.text, s1.families)).toEqual([]);
    expect(sample(s1.text, s1.families, "oceancode_tool_calls_total", { tool: "read", outcome: "ok" })).toBe(1);
    expect(sample(s1.text, s1.families, "oceancode_tool_duration_seconds", { tool: "read" })).toBe(1);
    expect(sample(s1.text, s1.families, "oceancode_model_call_duration_seconds", { provider: "anthropic", outcome: "ok" })).toBe(2);
    expect(sample(s1.text, s1.families, "oceancode_model_time_to_first_token_seconds", { provider: "anthropic" })).toBe(2);
    expect(sample(s1.text, s1.families, "oceancode_steps_total")).toBe(2);
    expect(sample(s1.text, s1.families, "oceancode_turns_total", { reason: "end_turn" })).toBe(1);
    // the fake answers from its prompt cache, as a warm Anthropic session does
    expect(sample(s1.text, s1.families, "oceancode_tokens_total", { provider: "anthropic", kind: "input" })).toBeGreaterThanOrEqual(0);
    expect(sample(s1.text, s1.families, "oceancode_tokens_total", { provider: "anthropic", kind: "cache_read" })).toBeGreaterThan(0);
    expect(sample(s1.text, s1.families, "oceancode_tokens_total", { provider: "anthropic", kind: "cache_write" })).toBeGreaterThan(0);
    expect(sample(s1.text, s1.families, "oceancode_tokens_total", { provider: "anthropic", kind: "output" })).toBeGreaterThan(0);
    expect(sample(s1.text, s1.families, "oceancode_cost_usd_total", { provider: "anthropic" })).toBeGreaterThan(0);
    expect(sample(s1.text, s1.families, "oceancode_permission_decisions_total", { decision: "allow" })).toBe(1);
    expect(sample(s1.text, s1.families, "oceancode_open_sessions")).toBe(1);
    expect(sample(s1.text, s1.families, "oceancode_sse_clients")).toBe(1);
    expect(sample(s1.text, s1.families, "oceancode_writer_lag_ms")).toBeGreaterThanOrEqual(0);
    expect(sample(s1.text, s1.families, "oceancode_writer_committed_total")).toBeGreaterThan(0);
    expectRose(rising(s0.text, s0.families), rising(s1.text, s1.families));

    // turn 2: bash asks (rule bash * ask); a person answers over HTTP
    fake.enqueue({ text: "running", toolCalls: [{ id: "toolu_b1", name: "bash", input: { command: "echo metrics > made.txt" } }] }, { text: "ran it" });
    await srv.api("POST", `/session/${id}/prompt`, { text: "run it" }, AUTH);
    const asked = await sse.waitFor((e) => e.event === "question_asked");
    expect((await srv.api("POST", `/session/${id}/question/${asked.data.questionId as string}`, { answer: "once" }, AUTH)).status).toBe(200);
    await sse.waitFor((e) => turnEndOf(id)(e) && e !== sse.events.find(turnEndOf(id)));
    expect(fs.readFileSync(path.join(sb.project, "made.txt"), "utf8")).toBe("metrics\n");
    const s2 = await scrape();
    expect(formProblems(s2.text, s2.families)).toEqual([]);
    expect(sample(s2.text, s2.families, "oceancode_permission_decisions_total", { decision: "ask" })).toBe(1);
    expect(sample(s2.text, s2.families, "oceancode_permission_answers_total", { answered_by: "person", verdict: "allow" })).toBe(1);
    expect(sample(s2.text, s2.families, "oceancode_tool_calls_total", { tool: "bash", outcome: "ok" })).toBe(1);
    expect(sample(s2.text, s2.families, "oceancode_turns_total", { reason: "end_turn" })).toBe(2);
    const r1 = rising(s1.text, s1.families);
    const r2 = rising(s2.text, s2.families);
    expectRose(r1, r2);
    // the turn moved the step counter and every histogram it touched
    for (const k of ["oceancode_steps_total{}", "oceancode_step_duration_seconds_count{}", 'oceancode_model_call_duration_seconds_count{outcome="ok",provider="anthropic"}']) {
      expect(r2.get(k)!, k).toBeGreaterThan(r1.get(k)!);
    }
    sse.close();
  });
});

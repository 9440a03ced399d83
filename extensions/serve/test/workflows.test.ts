/**
 * Workflow and goal runs over `oceancode serve` (one real server child on the fake Anthropic server): launch a
 * pipeline and follow its SSE to the terminal body, list and read it; pause, resume and stop a live script;
 * 400 / 404 / 409 answers (a run of another process, an ended one); POST /goal converging; the routes in /doc.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lastUserText, startFakeAnthropic, type FakeAnthropicServer } from "../../../test/kit/fakes/anthropic-server.js";
import { anthropicEnv, makeSandbox, type Sandbox } from "../../../test/kit/cli.js";
import { fenced, roleOf, script } from "../../goal/test/helpers.js";
import { SseReader, startServe, type Served, type SseEvent } from "./serve-helpers.js";

const MODEL = "anthropic/claude-haiku-4-5";
let sb: Sandbox;
let fake: FakeAnthropicServer;
let srv: Served;
type Err = { error: { code: string; message: string } };
const runsDir = () => path.join(sb.home, ".local", "share", "oceancode", "workflow-runs");

beforeAll(async () => {
  sb = makeSandbox("oc-serve-wf-");
  fake = await startFakeAnthropic();
  sb.write(".oceancode/workflows/ticker.mjs", 'export const meta = { name: "ticker", description: "ticks" };\nexport default async function main(api) { for (let i = 1; ; i++) { await api.progress("tick " + i); await api.sleep(20); } }\n');
  srv = await startServe(["--directory", sb.project], { env: anthropicEnv(sb, fake.url), cwd: sb.project });
}, 30_000);

afterAll(async () => {
  if (srv) expect(await srv.stop("SIGTERM")).toBe(0);
  await fake?.close();
  sb?.cleanup();
});

/** Follow a run's SSE to its terminal body (the server ends the stream after it). */
async function follow(runId: string): Promise<SseEvent[]> {
  const sse = await SseReader.open(`${srv.url}/workflow/runs/${runId}/event`);
  expect(sse.status).toBe(200);
  await sse.waitFor((e) => e.data.terminal === true);
  await sse.closed;
  return sse.events;
}

describe("workflow runs over serve", () => {
  it("launches a pipeline (202), streams its bodies to the terminal one, lists and reads it", async () => {
    fake.reset();
    fake.respond((req) => ({ text: `answer to <${lastUserText(req.body)}>` }));
    const launched = await srv.api<{ run_id: string }>("POST", "/workflow/run", { workflow: "pipeline", model: MODEL, args: { steps: [{ prompt: "say A" }, { prompt: "then {{previous}}" }, { prompt: "last" }] } });
    expect(launched.status, JSON.stringify(launched.body)).toBe(202);
    const id = launched.body.run_id;
    expect(id).toMatch(/^wf-[0-9a-z]+-[0-9a-f]{4}$/);
    const events = await follow(id);
    expect(events.map((e) => e.event).every((t) => t === "workflow_updated")).toBe(true);
    expect(events.map((e) => e.id)).toEqual([1, 2, 3, 4, 5]);
    expect(events.at(-1)!.data).toMatchObject({ run_id: id, status: "complete", terminal: true, budget: { limit: null, spent: 3 } });
    expect(lastUserText(fake.requests[1]!.body)).toBe("then answer to <say A>");

    // the same bodies as the store keeps them, and a late reader gets the replay and the end
    const one = await srv.api<{ meta: Record<string, unknown>; bodies: unknown[]; live: boolean }>("GET", `/workflow/runs/${id}`);
    expect(one.status).toBe(200);
    expect(one.body.meta).toMatchObject({ run_id: id, workflow: "pipeline", kind: "workflow", project: sb.project });
    expect(one.body.bodies).toEqual(events.map((e) => e.data));
    expect(one.body.live).toBe(false);
    expect((await follow(id)).map((e) => e.data)).toEqual(one.body.bodies);
    const list = await srv.api<Array<Record<string, unknown>>>("GET", "/workflow/runs");
    expect(list.body.find((r) => r.run_id === id)).toMatchObject({ workflow: "pipeline", status: "complete", terminal: true, live: false });

    // an ended run cannot be controlled; an unknown one is 404; bad launches are 400 and start nothing
    const ended = await srv.api<Err>("POST", `/workflow/runs/${id}/pause`);
    expect(ended.status).toBe(409);
    expect(ended.body.error).toMatchObject({ code: "run_ended" });
    expect(ended.body.error.message).toContain("already ended (complete)");
    for (const [verb, p] of [["GET", "/workflow/runs/wf-nope-0000"], ["GET", "/workflow/runs/wf-nope-0000/event"], ["POST", "/workflow/runs/wf-nope-0000/stop"]] as const) {
      const r = await srv.api<Err>(verb, p);
      expect(r.status, p).toBe(404);
      expect(r.body.error.code).toBe("run_not_found");
    }
    const before = fs.readdirSync(runsDir()).length;
    const unknown = await srv.api<Err>("POST", "/workflow/run", { workflow: "no-such-flow" });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.message).toContain("no workflow named 'no-such-flow'");
    const badArgs = await srv.api<Err>("POST", "/workflow/run", { workflow: "pipeline", args: { steps: [] } });
    expect(badArgs.status).toBe(400);
    expect(badArgs.body.error.code).toBe("workflow_usage");
    const aPath = await srv.api<Err>("POST", "/workflow/run", { workflow: "../elsewhere/evil.mjs" });
    expect(aPath.status).toBe(400);
    expect(aPath.body.error.message).toContain("looks like a path");
    expect(fs.readdirSync(runsDir()).length).toBe(before);
  }, 30_000);

  it("pauses, resumes and stops a live script run; a run of another process is 409", async () => {
    const { body } = await srv.api<{ run_id: string }>("POST", "/workflow/run", { workflow: "ticker" });
    const id = body.run_id;
    const sse = await SseReader.open(`${srv.url}/workflow/runs/${id}/event`);
    await sse.waitFor((e) => e.data.progress === "tick 2");
    expect((await srv.api("POST", `/workflow/runs/${id}/pause`)).status).toBe(200);
    const paused = await sse.waitFor((e) => e.data.status === "user_paused");
    // held: reads go on while no tick passes the gate (at most the one already past it)
    for (let i = 0; i < 5; i++) expect((await srv.api<{ live: boolean }>("GET", `/workflow/runs/${id}`)).body.live).toBe(true);
    expect((await srv.api<Err>("POST", `/workflow/runs/${id}/resume`, { budget: -1 })).body.error.code).toBe("invalid_request");
    expect((await srv.api("POST", `/workflow/runs/${id}/resume`, { budget: 5 })).status).toBe(200);
    const resumed = await sse.waitFor((e) => e.data.progress === "resumed");
    expect(resumed.data.budget).toMatchObject({ limit: 5 });
    expect(sse.events.filter((e) => e.id! > paused.id! && e.id! < resumed.id! && String(e.data.progress).startsWith("tick")).length).toBeLessThanOrEqual(1);
    await sse.waitFor((e) => e.id! > resumed.id! + 1 && String(e.data.progress).startsWith("tick"));
    expect((await srv.api("POST", `/workflow/runs/${id}/stop`)).status).toBe(200);
    const end = await sse.waitFor((e) => e.data.terminal === true);
    expect(end.data).toMatchObject({ status: "cancelled" });
    await sse.closed;
    expect((await srv.api<Err>("POST", `/workflow/runs/${id}/resume`)).body.error.code).toBe("run_ended");

    // a run another (live) process writes: listed, readable, but not this server's to control
    const foreign = "wf-foreign-beef";
    fs.mkdirSync(path.join(runsDir(), foreign), { recursive: true });
    fs.writeFileSync(path.join(runsDir(), foreign, "run.json"), JSON.stringify({ run_id: foreign, workflow: "pipeline", kind: "workflow", project: sb.project, started_at: new Date().toISOString(), pid: process.pid }));
    fs.writeFileSync(path.join(runsDir(), foreign, "updates.jsonl"), `${JSON.stringify({ type: "workflow_updated", run_id: foreign, workflow: "pipeline", seq: 1, at: new Date().toISOString(), status: "running", terminal: false, budget: { limit: null, spent: 0 } })}\n`);
    const other = await srv.api<Err>("POST", `/workflow/runs/${foreign}/stop`);
    expect(other.status).toBe(409);
    expect(other.body.error.code).toBe("run_not_live");
    expect(other.body.error.message).toContain(`process ${process.pid}`);
    // its stream follows the file: a terminal body written there ends it
    const tail = await SseReader.open(`${srv.url}/workflow/runs/${foreign}/event`);
    await tail.waitFor((e) => e.id === 1);
    fs.appendFileSync(path.join(runsDir(), foreign, "updates.jsonl"), `${JSON.stringify({ type: "workflow_updated", run_id: foreign, workflow: "pipeline", seq: 2, at: new Date().toISOString(), status: "failed", terminal: true, budget: { limit: null, spent: 0 }, error: "x" })}\n`);
    await tail.waitFor((e) => e.id === 2);
    await tail.closed;
    const all = await srv.api<Array<Record<string, unknown>>>("GET", "/workflow/runs?all=true");
    expect(all.body.map((r) => r.run_id)).toEqual(expect.arrayContaining([id, foreign]));
  }, 30_000);

  it("POST /goal converges: goal_updated bodies through plan, work and verify to complete", async () => {
    fake.reset();
    script(fake, { skeptic: () => ({ text: fenced({ refuted: [], upheld: ["d1", "d2"], evidence: ["read hello.txt: hi", "grep hello README.md: 1 match"] }) }) });
    const r = await srv.api<{ run_id: string }>("POST", "/goal", { objective: "make hello.txt say hi", model: MODEL, budget: 20 });
    expect(r.status, JSON.stringify(r.body)).toBe(202);
    const events = await follow(r.body.run_id);
    expect(events.every((e) => e.event === "goal_updated")).toBe(true);
    expect(new Set(events.map((e) => e.data.phase).filter(Boolean))).toEqual(new Set(["plan", "work", "verify"]));
    expect(events.at(-1)!.data).toMatchObject({ workflow: "goal", status: "complete", terminal: true, budget: { limit: 20 } });
    expect(fake.requests.some((q) => roleOf(q) === "skeptic")).toBe(true);
    const missing = await srv.api<Err>("POST", "/goal", {});
    expect(missing.status).toBe(400);
  }, 30_000);

  it("the routes are in the OpenAPI document", async () => {
    const doc = await srv.api<{ paths: Record<string, Record<string, { operationId?: string }>> }>("GET", "/doc");
    const ops = Object.entries(doc.body.paths).flatMap(([p, m]) => Object.entries(m).map(([verb, op]) => `${verb.toUpperCase()} ${p} ${op.operationId}`));
    for (const want of [
      "POST /workflow/run workflowRun",
      "POST /goal goalRun",
      "GET /workflow/runs workflowRuns",
      "GET /workflow/runs/{id} workflowRunGet",
      "GET /workflow/runs/{id}/event workflowRunEvents",
      "POST /workflow/runs/{id}/pause workflowRunPause",
      "POST /workflow/runs/{id}/resume workflowRunResume",
      "POST /workflow/runs/{id}/stop workflowRunStop",
    ])
      expect(ops).toContain(want);
  });
});

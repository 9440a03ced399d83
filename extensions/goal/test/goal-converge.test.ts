/** `oceancode goal` converging: one refutation in round 1, upheld in round 2; the panel is cold; the run store matches stdout. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lastUserText, startFakeAnthropic, type FakeAnthropicServer } from "../../../test/kit/fakes/anthropic-server.js";
import { makeSandbox, type Sandbox } from "../../../test/kit/cli.js";
import { fenced, readStore, roleOf, roundOf, runGoal, script, type GoalRun } from "./helpers.js";

let sb: Sandbox;
let fake: FakeAnthropicServer;
let run: GoalRun;

beforeAll(async () => {
  sb = makeSandbox("oc-goal-");
  fake = await startFakeAnthropic();
  script(fake, {
    // round 1: the first skeptic to answer refutes d1 with evidence, the other upholds all; round 2: both uphold
    skeptic: (req, n) => {
      if (roundOf(req) === 1 && n === 1) return { text: fenced({ refuted: [{ id: "d1", why: "hello.txt says bye", evidence: "read hello.txt: bye" }], upheld: ["d2"], evidence: ["read hello.txt"] }) };
      return { text: fenced({ refuted: [], upheld: ["d1", "d2"], evidence: ["read hello.txt: hi", "grep hello README.md: 1 match"] }) };
    },
  });
  run = await runGoal(sb, fake, ["make", "hello.txt", "say", "hi"]);
}, 60_000);

afterAll(async () => {
  await fake?.close();
  sb?.cleanup();
});

describe("oceancode goal: converging", () => {
  it("exits 0 with bodies in order and a terminal complete after two rounds", () => {
    expect(run.code, run.stderr).toBe(0);
    const b = run.bodies;
    expect(b.map((x) => x.seq)).toEqual(b.map((_, i) => i + 1));
    expect(b.every((x) => x.type === "goal_updated" && x.workflow === "goal" && x.run_id === b[0]!.run_id)).toBe(true);
    expect(String(b[0]!.run_id)).toMatch(/^wf-[0-9a-z]+-[0-9a-f]{4}$/);
    expect(b.slice(0, -1).every((x) => x.status === "running" && x.terminal === false)).toBe(true);
    const last = b.at(-1)!;
    expect(last).toMatchObject({ status: "complete", terminal: true, round: 2, gaps: [], objective: "make hello.txt say hi" });
    expect(last.result).toEqual({ rounds: 2, deliverables: ["d1", "d2"] });
    // the phases in order: plan, then work/verify per round
    const phases = b.map((x) => `${x.phase}${x.round}`);
    expect(phases.filter((p, i) => p !== phases[i - 1])).toEqual(["plan0", "work1", "verify1", "work2", "verify2"]);
    // round 1's refutation is the gap round 2 works on
    const r1 = b.find((x) => x.round === 1 && Array.isArray(x.gaps) && (x.gaps as string[]).length > 0)!;
    expect(r1.gaps).toEqual(["d1: hello.txt says bye"]);
    expect(last.deliverables).toEqual([
      { id: "d1", text: "hello.txt says hi", check: "read hello.txt" },
      { id: "d2", text: "README mentions hello.txt", check: "grep hello README.md" },
    ]);
    // planner 1 + worker 2 + skeptics 2x2: every request counted, no limit
    expect(last.budget).toEqual({ limit: null, spent: 7 });
    expect(fake.requests.length).toBe(7);
    const sessions = last.sessions as { planner: string; worker: string; skeptics: string[] };
    expect(sessions.skeptics).toHaveLength(4);
    expect(new Set([sessions.planner, sessions.worker, ...sessions.skeptics]).size).toBe(6);
    expect(run.stderr).toContain(`run: ${String(b[0]!.run_id)}`);
  });

  it("resumes one worker session and sends it the gaps; the skeptics see none of the worker's history", () => {
    const worker = fake.requests.filter((r) => roleOf(r) === "worker");
    expect(worker).toHaveLength(2);
    // round 2 is the same session: its request carries round 1's prompt and answer
    expect(worker[1]!.raw).toContain("WORKER-MARK-1");
    expect(lastUserText(worker[1]!.body)).toContain("d1: hello.txt says bye");
    const skeptics = fake.requests.filter((r) => roleOf(r) === "skeptic");
    expect(skeptics).toHaveLength(4);
    for (const s of skeptics) {
      expect(s.raw).not.toContain("WORKER-MARK");
      expect(s.raw).not.toContain("Do the work now");
      expect(s.raw).not.toContain("Close these gaps");
      // a fresh session: one user message, no earlier turns
      expect(s.body.messages).toHaveLength(1);
      // read-only: plan mode offers no bash and no edit
      const tools = (s.body.tools ?? []).map((t) => String(t.name));
      expect(tools).toContain("read");
      expect(tools).not.toContain("bash");
    }
    const worker1Tools = (worker[0]!.body.tools ?? []).map((t) => String(t.name));
    expect(worker1Tools).toContain("bash");
  });

  it("writes run.json and an updates.jsonl equal to the stdout lines", () => {
    const runId = String(run.bodies[0]!.run_id);
    const { meta, lines } = readStore(sb, runId);
    expect(meta).toMatchObject({ run_id: runId, workflow: "goal", kind: "goal", project: sb.project });
    expect(typeof meta.pid).toBe("number");
    expect(Number.isNaN(Date.parse(String(meta.started_at)))).toBe(false);
    expect(lines).toEqual(run.stdout.trim().split("\n"));
    // the key the sessions used is nowhere in what the run stored
    expect(JSON.stringify({ meta, lines })).not.toContain("sk-test");
  });
});

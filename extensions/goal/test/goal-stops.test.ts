/** `oceancode goal` stopping: identical gaps pause, the budget ends the run, a bad plan or a provider failure fails, ctrl+c interrupts. */
import { spawn } from "node:child_process";
import { afterAll, describe, expect, it } from "vitest";
import { lastUserText, startFakeAnthropic, type FakeAnthropicServer } from "../../../test/kit/fakes/anthropic-server.js";
import { anthropicEnv, CLI, makeSandbox, runCliAsync, type Sandbox } from "../../../test/kit/cli.js";
import { fenced, roleOf, runGoal, script, type GoalRun, type Script } from "./helpers.js";

const open: Array<{ sb: Sandbox; fake: FakeAnthropicServer }> = [];
afterAll(async () => {
  for (const o of open) {
    await o.fake.close();
    o.sb.cleanup();
  }
});

async function setup(s: Script): Promise<{ sb: Sandbox; fake: FakeAnthropicServer }> {
  const o = { sb: makeSandbox("oc-goal-stop-"), fake: await startFakeAnthropic() };
  open.push(o);
  script(o.fake, s);
  return o;
}

const refuteD1 = { text: fenced({ refuted: [{ id: "d1", why: "hello.txt is missing", evidence: "read hello.txt: no such file" }], upheld: ["d2"], evidence: ["ls"] }) };
const upholdAll = { text: fenced({ refuted: [], upheld: ["d1", "d2"], evidence: ["read hello.txt"] }) };

describe("oceancode goal: stops", () => {
  it("pauses (exit 3, no_progress_paused) when two rounds end with the same gaps; an evidence-free verdict refutes too", async () => {
    // the same refutation every round, with the why spelled differently (the gap set is normalised)
    const same = await setup({ skeptic: (_r, n) => (n % 2 ? refuteD1 : { text: fenced({ refuted: [{ id: "d1", why: "hello.txt  is MISSING", evidence: "ls" }], upheld: ["d2"], evidence: ["ls"] }) }) });
    // skeptics that uphold everything but cite nothing: "no evidence" on every deliverable, every round
    const bare = await setup({ skeptic: () => ({ text: fenced({ refuted: [], upheld: ["d1", "d2"] }) }) });
    const [a, b] = await Promise.all([runGoal(same.sb, same.fake, ["fix", "it"]), runGoal(bare.sb, bare.fake, ["fix", "it"])]);
    for (const r of [a, b]) {
      expect(r.code, r.stderr).toBe(3);
      expect(r.bodies.at(-1)).toMatchObject({ status: "no_progress_paused", terminal: true, round: 2 });
      expect(r.stderr).toContain("no_progress_paused: two rounds ended with the same");
    }
    expect(b.bodies.at(-1)!.gaps).toEqual(["d1: no evidence", "d2: no evidence"]);
    // round 2's worker prompt carried round 1's gaps
    const w2 = same.fake.requests.filter((q) => roleOf(q) === "worker")[1]!;
    expect(lastUserText(w2.body)).toContain("d1: hello.txt is missing");
  });

  it("ends budget_limited (exit 2) at the budget: before a panel it cannot pay for, and mid-turn at a step", async () => {
    const panel = await setup({ skeptic: () => upholdAll });
    // the worker keeps calling a tool: the third model call spends the budget and the turn stops there
    const steps = await setup({ worker: () => ({ toolCalls: [{ name: "ls", input: { path: "." } }] }), skeptic: () => upholdAll });
    const [a, b] = await Promise.all([runGoal(panel.sb, panel.fake, ["--budget", "3", "fix", "it"]), runGoal(steps.sb, steps.fake, ["--budget=3", "fix", "it"])]);
    expect(a.code, a.stderr).toBe(2);
    // planner 1 + worker 1 = 2 spent; a panel of 2 does not fit in the 1 left: nothing more is sent
    expect(a.bodies.at(-1)).toMatchObject({ status: "budget_limited", terminal: true, budget: { limit: 3, spent: 2 } });
    expect(panel.fake.requests.length).toBe(2);
    expect(b.code, b.stderr).toBe(2);
    expect(b.bodies.at(-1)).toMatchObject({ status: "budget_limited", terminal: true, phase: "work", budget: { limit: 3, spent: 3 } });
    expect(steps.fake.requests.length).toBe(3);
    for (const r of [a, b]) expect(r.stderr).toContain("budget_limited: the budget of 3 model calls is spent");
  });

  it("fails (exit 2) on a plan that is malformed twice, and on a provider error; a provider that asks to back off pauses (exit 3)", async () => {
    const bad = await setup({ planner: () => ({ text: "no json here, sorry" }), skeptic: () => upholdAll });
    const err = await setup({ planner: () => ({ type: "error", status: 400, message: "bad request from fake" }), skeptic: () => upholdAll });
    const busy = await setup({ planner: () => ({ type: "error", status: 429 }), skeptic: () => upholdAll });
    // one skeptic's request fails while the other's is slow: the panel stops at once, the failure is the outcome
    const panel = await setup({ skeptic: (_r, n) => (n === 1 ? { type: "error", status: 400, message: "skeptic request refused" } : { ...upholdAll, pauseMs: 20_000 }) });
    const t0 = Date.now();
    const [a, b, c, d] = await Promise.all([runGoal(bad.sb, bad.fake, ["x"]), runGoal(err.sb, err.fake, ["x"]), runGoal(busy.sb, busy.fake, ["x"]), runGoal(panel.sb, panel.fake, ["x"])]);
    expect(d.code, d.stderr).toBe(2);
    expect(d.bodies.at(-1)).toMatchObject({ status: "failed", terminal: true, phase: "verify" });
    expect(String(d.bodies.at(-1)!.error)).toContain("skeptic request refused");
    expect(Date.now() - t0).toBeLessThan(15_000);
    expect(a.code, a.stderr).toBe(2);
    expect(a.bodies.at(-1)).toMatchObject({ status: "failed", terminal: true, phase: "plan" });
    expect(String(a.bodies.at(-1)!.error)).toContain("not a usable plan");
    // one retry, on the same planner session, that says what was wrong
    expect(bad.fake.requests.length).toBe(2);
    expect(lastUserText(bad.fake.requests[1]!.body)).toContain("could not be used (no JSON block");
    expect(b.code, b.stderr).toBe(2);
    expect(b.bodies.at(-1)).toMatchObject({ status: "failed", terminal: true });
    expect(String(b.bodies.at(-1)!.error)).toContain("bad request from fake");
    expect(c.code, c.stderr).toBe(3);
    expect(c.bodies.at(-1)).toMatchObject({ status: "back_off_paused", terminal: true });
  });

  it("runs goal.skeptics skeptics per round (config)", async () => {
    const o = await setup({ skeptic: () => upholdAll });
    o.sb.write(".config/oceancode/oceancode.json", JSON.stringify({ goal: { skeptics: 1 } }), "home");
    const r = await runGoal(o.sb, o.fake, ["x"]);
    expect(r.code, r.stderr).toBe(0);
    expect(o.fake.requests.map(roleOf)).toEqual(["planner", "worker", "skeptic"]);
    expect(r.bodies.at(-1)).toMatchObject({ status: "complete", round: 1, budget: { limit: null, spent: 3 } });
  });

  it("refuses bad usage with exit 2 before anything runs", async () => {
    const o = await setup({ skeptic: () => upholdAll });
    const env = anthropicEnv(o.sb, o.fake.url);
    const runs = await Promise.all([[], ["--budget", "0", "x"], ["--budget", "many", "x"], ["--bogus", "x"]].map((args) => runCliAsync(["--dir", o.sb.project, "goal", ...args], { env, timeoutMs: 30_000 })));
    expect(runs.map((r) => r.code)).toEqual([2, 2, 2, 2]);
    expect(runs[0]!.stderr).toContain("an objective is required");
    expect(runs[1]!.stderr).toContain("--budget must be a whole number");
    expect(runs[3]!.stderr).toContain("unknown flag '--bogus'");
    for (const r of runs) {
      expect(r.stderr).toContain("usage: oceancode goal");
      expect(r.stdout).toBe("");
    }
    expect(o.fake.requests.length).toBe(0);
  });

  it("ctrl+c stops the run: terminal cancelled, exit 2", async () => {
    const o = await setup({ worker: () => ({ text: "slow", pauseMs: 20_000 }), skeptic: () => upholdAll });
    const child = spawn(process.execPath, [CLI, "--dir", o.sb.project, "goal", "-m", "anthropic/claude-haiku-4-5", "x"], { env: anthropicEnv(o.sb, o.fake.url), stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    const code = new Promise<number | null>((resolve) => child.on("close", resolve));
    // wait (bounded) until the worker's request is in flight
    const deadline = Date.now() + 20_000;
    while (!o.fake.requests.some((r) => roleOf(r) === "worker") && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
    expect(o.fake.requests.some((r) => roleOf(r) === "worker")).toBe(true);
    child.kill("SIGINT");
    const timer = setTimeout(() => child.kill("SIGKILL"), 15_000);
    expect(await code, stderr).toBe(2);
    clearTimeout(timer);
    const last = JSON.parse(stdout.trim().split("\n").at(-1)!) as GoalRun["bodies"][number];
    expect(last).toMatchObject({ status: "cancelled", terminal: true, phase: "work", error: "interrupted" });
  });
});

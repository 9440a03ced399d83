/** `/orchestrate` (goal mode in a host's process) through `oceancode run "/orchestrate …"`: replies per change, the run store, the outcome. */
import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { startFakeAnthropic, type FakeAnthropicServer } from "../../../test/kit/fakes/anthropic-server.js";
import { anthropicEnv, makeSandbox, runCliAsync, type Sandbox } from "../../../test/kit/cli.js";
import { fenced, roleOf, roundOf, script } from "./helpers.js";

const open: Array<{ sb: Sandbox; fake: FakeAnthropicServer }> = [];
afterAll(async () => {
  for (const o of open) {
    await o.fake.close();
    o.sb.cleanup();
  }
});

const refute = { text: fenced({ refuted: [{ id: "d1", why: "hello.txt is missing", evidence: "ls: no hello.txt" }], upheld: ["d2"], evidence: ["ls"] }) };
const uphold = { text: fenced({ refuted: [], upheld: ["d1", "d2"], evidence: ["read hello.txt"] }) };

describe("/orchestrate", () => {
  it("runs the goal loop, replying phase, round and gaps; fails the command unless it completes", async () => {
    const good = { sb: makeSandbox("oc-orch-"), fake: await startFakeAnthropic() };
    const stuck = { sb: makeSandbox("oc-orch-"), fake: await startFakeAnthropic() };
    open.push(good, stuck);
    script(good.fake, { skeptic: (req, n) => (roundOf(req) === 1 && n === 1 ? refute : uphold) });
    script(stuck.fake, { skeptic: () => refute });
    const go = (o: typeof good) => runCliAsync(["--dir", o.sb.project, "run", "-m", "anthropic/claude-haiku-4-5", "/orchestrate --budget 20 make hello.txt say hi"], { env: anthropicEnv(o.sb, o.fake.url), timeoutMs: 30_000 });
    const [a, b] = await Promise.all([go(good), go(stuck)]);
    expect(a.code, a.stderr).toBe(0);
    const lines = a.stdout.trim().split("\n");
    expect(lines[0]).toMatch(/^goal plan: planning deliverables \(0\/20 calls\)$/);
    expect(lines).toContain("goal verify round 1: 1 gap(s) refuted; open gaps: d1: hello.txt is missing (4/20 calls)");
    expect(lines).toContain("goal work round 2: working; open gaps: d1: hello.txt is missing (4/20 calls)");
    expect(lines).toContain("goal complete: no skeptic refuted any deliverable (7/20 calls)");
    const runId = /goal run (wf-\S+)/.exec(a.stdout)?.[1];
    expect(runId).toBeDefined();
    const dir = path.join(good.sb.home, ".local", "share", "oceancode", "workflow-runs", runId!);
    const bodies = fs.readFileSync(path.join(dir, "updates.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(bodies.at(-1)).toMatchObject({ type: "goal_updated", status: "complete", terminal: true, round: 2 });
    expect(good.fake.requests.map(roleOf).filter((r) => r === "worker")).toHaveLength(2);

    expect(b.code, b.stderr).toBe(1);
    expect(b.stdout).toContain("goal no_progress_paused: two rounds ended with the same 1 gap(s); open gaps: d1: hello.txt is missing");
    expect(b.stderr).toContain("goal ended no_progress_paused");
  });
});

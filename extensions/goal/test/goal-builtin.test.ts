/**
 * Goal as the workflows service's built-in: `oceancode workflow run goal --args '{"objective":…}'` runs the same
 * loop (woken by onEvent:workflows), and both kinds of run are in one store: `workflow runs --all` lists a goal
 * launched by `oceancode goal` and one launched through `workflow run`.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeAnthropic, type FakeAnthropicServer } from "../../../test/kit/fakes/anthropic-server.js";
import { anthropicEnv, makeSandbox, runCliAsync, type Sandbox } from "../../../test/kit/cli.js";
import { fenced, runGoal, script } from "./helpers.js";

let sb: Sandbox;
let fake: FakeAnthropicServer;

beforeAll(async () => {
  sb = makeSandbox("oc-goal-builtin-");
  fake = await startFakeAnthropic();
  script(fake, { skeptic: () => ({ text: fenced({ refuted: [], upheld: ["d1", "d2"], evidence: ["read hello.txt: hi", "grep hello README.md: 1 match"] }) }) });
}, 60_000);

afterAll(async () => {
  await fake?.close();
  sb?.cleanup();
});

describe("goal through the workflows service", () => {
  it("workflow run goal converges like oceancode goal, and workflow runs --all lists both runs", async () => {
    const env = anthropicEnv(sb, fake.url);
    const viaWorkflow = await runCliAsync(["--dir", sb.project, "workflow", "run", "goal", "--args", JSON.stringify({ objective: "make hello.txt say hi" }), "-m", "anthropic/claude-haiku-4-5"], { cwd: sb.project, env, timeoutMs: 30_000 });
    expect(viaWorkflow.code, viaWorkflow.stderr).toBe(0);
    const bodies = viaWorkflow.stdout.trim().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>);
    const last = bodies.at(-1)!;
    expect(last).toMatchObject({ workflow: "goal", status: "complete", terminal: true });
    expect(bodies.some((b) => b.phase === "verify")).toBe(true);

    const viaGoal = await runGoal(sb, fake, ["make", "hello.txt", "say", "hi"]);
    expect(viaGoal.code, viaGoal.stderr).toBe(0);

    const runs = await runCliAsync(["--dir", sb.project, "workflow", "runs", "--all"], { cwd: sb.project, env, timeoutMs: 30_000 });
    expect(runs.code, runs.stderr).toBe(0);
    const listed = runs.stdout.trim().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>);
    const ids = listed.map((b) => b.run_id);
    expect(ids).toContain(last.run_id);
    expect(ids).toContain(viaGoal.bodies.at(-1)!.run_id);
    expect(listed.filter((b) => b.workflow === "goal").every((b) => b.status === "complete")).toBe(true);
  }, 90_000);
});

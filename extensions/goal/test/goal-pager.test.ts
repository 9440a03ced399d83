/**
 * `/orchestrate` in the real pager (compiled CLI in tmux, on the fake Anthropic server): the goal runs in the
 * background with its phase, round and gaps as reply lines, the composer keeps working, a bare
 * `/orchestrate` says where it is, and `/orchestrate stop` ends a goal cancelled.
 */
import { describe, expect, it } from "vitest";
import { hasTmux, pause, type Pty } from "../../../test/kit/pty.js";
import { fenced, roleOf, roundOf, script } from "./helpers.js";
import { pagerTests } from "../../../test/kit/pager-tests.js";

const { makeSandbox, openPagerOnFake, startFakeAnthropic } = pagerTests();

const type = async (p: Pty, text: string) => {
  p.send(text);
  await pause(120);
  p.key("Enter");
};

describe.skipIf(!hasTmux())("pager: /orchestrate", () => {
  it("runs a goal in the background to complete, then stops a second one", async () => {
    const sb = makeSandbox("oc-pty-goal-");
    const fake = await startFakeAnthropic();
    script(fake, {
      // the first goal's worker is quick; the second's holds its answer until it is stopped
      worker: (req) => (req.raw.includes("second goal") ? { text: "slow", pauseMs: 20_000 } : { text: "did it" }),
      skeptic: (req, n) =>
        roundOf(req) === 1 && n === 1
          ? { text: fenced({ refuted: [{ id: "d1", why: "hello.txt is missing", evidence: "ls" }], upheld: ["d2"], evidence: ["ls"] }) }
          : { text: fenced({ refuted: [], upheld: ["d1", "d2"], evidence: ["read hello.txt"] }) },
    });
    const t = openPagerOnFake(sb, fake.url);
    await t.waitFor("❯");
    await type(t, "/orchestrate make hello.txt say hi");
    await t.waitFor("open gaps: d1: hello.txt is missing", 20_000, { inHistory: true });
    const done = await t.waitFor("goal complete: no skeptic refuted any deliverable", 20_000, { inHistory: true });
    expect(done).toMatch(/goal run wf-[0-9a-z]+-[0-9a-f]{4}/);

    await type(t, "/orchestrate --budget 30 second goal");
    await t.waitFor("goal work round 1: working", 20_000, { inHistory: true });
    const deadline = Date.now() + 20_000;
    const slowWorker = () => fake.requests.some((r) => roleOf(r) === "worker" && r.raw.includes("second goal"));
    while (!slowWorker() && Date.now() < deadline) await pause(25);
    expect(slowWorker()).toBe(true);
    // the composer is free while the goal runs: a bare /orchestrate says where it is
    await type(t, "/orchestrate");
    await t.waitFor(/goal work round 1: working \(\d+\/30 calls\)[\s\S]*goal work round 1: working \(\d+\/30 calls\)/, 10_000, { inHistory: true });
    await type(t, "/orchestrate stop");
    expect(await t.waitFor("goal cancelled: interrupted", 15_000, { inHistory: true })).toContain("goal cancelled: interrupted");
    expect(t.alive()).toBe(true);
  }, 90_000);
});

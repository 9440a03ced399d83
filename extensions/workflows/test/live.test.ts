/**
 * The control seam in process (the real kernel, the bundled extensions, the scripted model): pause holds a
 * live run's host calls, resume lets them go (and can lift the budget), stop ends it cancelled; a run that
 * blew its time slice leaves the next run in the same process working.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Kernel } from "../../../kernel/kernel.js";
import type { RunBody, WorkflowsService } from "../api.js";
import { makeSandbox, type Sandbox } from "../../../test/kit/cli.js";
import { discoverKernel } from "../../../test/kit/kernel-boot.js";

let sb: Sandbox;
let kernel: Kernel;
let wf: WorkflowsService;

beforeAll(async () => {
  sb = makeSandbox("oc-wf-live-");
  kernel = await discoverKernel(sb);
  await kernel.activate("onCommand:workflow");
  wf = await kernel.service("workflows");
});
afterAll(async () => {
  await kernel.shutdown();
  sb.cleanup();
});

/** resolves when `pred` holds for a body seen so far (bounded) */
function waiter(bodies: RunBody[]) {
  const listeners: Array<() => void> = [];
  return {
    push(b: RunBody) {
      bodies.push(b);
      for (const l of listeners.splice(0)) l();
    },
    async until(pred: (b: RunBody) => boolean, ms = 10_000): Promise<RunBody> {
      const deadline = Date.now() + ms;
      for (;;) {
        const hit = bodies.find(pred);
        if (hit) return hit;
        if (Date.now() > deadline) throw new Error(`no such body in ${JSON.stringify(bodies)}`);
        await new Promise<void>((r) => {
          listeners.push(r);
          setTimeout(r, 200);
        });
      }
    },
  };
}

describe("live runs", () => {
  it("a paused built-in (pipeline) starts no next turn until resumed", async () => {
    const bodies: RunBody[] = [];
    let runId = "";
    const done = wf.launch("pipeline", sb.project, {
      model: "scripted/echo",
      args: { steps: [{ prompt: "one" }, { prompt: "two" }, { prompt: "three" }] },
      // paused from the body's own callback: before the pipeline can move on to step 2
      onBody: (b) => {
        bodies.push(b);
        runId = b.run_id;
        if (b.progress === "step 1/3 done") expect(wf.pause(b.run_id)).toBe(true);
      },
    });
    // while another run goes start to end here, the paused one starts no turn
    for (const t0 = Date.now(); !bodies.some((b) => b.status === "user_paused") && Date.now() - t0 < 10_000; ) await new Promise((r) => setTimeout(r, 10));
    const other = await wf.launch("pipeline", sb.project, { model: "scripted/echo", args: { steps: [{ prompt: "a" }, { prompt: "b" }] } });
    expect(other.status).toBe("complete");
    expect(bodies.some((b) => String(b.progress).startsWith("step 2"))).toBe(false);
    expect(wf.resume(runId, {})).toBe(true);
    const last = await done;
    expect(last).toMatchObject({ status: "complete", terminal: true });
    expect(bodies.filter((b) => String(b.progress).match(/^step \d\/3 done$/)).length).toBe(3);
  });

  it("pause holds host calls, resume releases them, stop ends the run cancelled", async () => {
    const file = sb.write("ticker.mjs", 'export const meta = { name: "ticker" };\nexport default async function main(api) { for (let i = 1; ; i++) { await api.progress("tick " + i); await api.sleep(20); } }\n');
    const bodies: RunBody[] = [];
    const w = waiter(bodies);
    const done = wf.launch(file, sb.project, { onBody: (b) => w.push(b) });
    const first = await w.until((b) => b.progress === "tick 1");
    expect(wf.pause(first.run_id)).toBe(true);
    const paused = await w.until((b) => b.status === "user_paused");
    expect(paused.terminal).toBe(false);
    // held: while another run goes start to end here, at most the call already past the gate lands
    const other = await wf.launch("pipeline", sb.project, { model: "scripted/echo", args: { steps: [{ prompt: "a" }, { prompt: "b" }] } });
    expect(other.status).toBe("complete");
    const ticksWhilePaused = bodies.filter((b) => b.seq > paused.seq && String(b.progress).startsWith("tick")).length;
    expect(ticksWhilePaused).toBeLessThanOrEqual(1);
    expect(wf.resume(first.run_id, { budget: 7 })).toBe(true);
    const resumed = await w.until((b) => b.progress === "resumed");
    expect(resumed.budget.limit).toBe(7);
    await w.until((b) => b.seq > resumed.seq + 2);
    expect(wf.stop(first.run_id)).toBe(true);
    const last = await done;
    expect(last).toMatchObject({ status: "cancelled", terminal: true });
    expect(wf.stop(first.run_id)).toBe(false);
  });

  it("after a run ends on its time slice, the next run in this process completes", async () => {
    const loop = sb.write("loop.mjs", 'export const meta = { name: "loop" };\nexport default async function main(api) { while (true) {} }\n');
    const t0 = Date.now();
    const a = await wf.launch(loop, sb.project, {});
    expect(a.status).toBe("failed");
    expect(a.error).toMatch(/time slice/);
    expect(Date.now() - t0).toBeLessThan(10_000);
    const b = await wf.launch("pipeline", sb.project, { model: "scripted/echo", args: { steps: [{ prompt: "still here" }] } });
    expect(b).toMatchObject({ status: "complete", result: { text: "ok: still here" } });
  });
});

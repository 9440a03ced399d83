/** Task jobs (startTaskJob, published in api.ts): a job that is no process, read by job_output and stopped by job_kill. */
import { afterEach, describe, expect, it } from "vitest";
import { startTaskJob } from "../kit.js";
import { harness, type Harness } from "./helpers.js";

let h: Harness | undefined;
afterEach(() => h?.cleanup());

describe("task jobs", () => {
  it("take the next job id, and job_output reads what the owner wrote since the last read, then the exit", async () => {
    h = harness();
    const job = startTaskJob(h.state, { command: "agent explore: look around", cancel: () => undefined });
    expect(job.id).toBe("job_1");
    job.write("first part\n");
    const r1 = await h.call("job_output", { job_id: job.id });
    expect(r1.content).toMatch(/^job_1 status: running \(task, \d+s\)\nfirst part/);
    expect((await h.call("job_output", { job_id: job.id })).content).toContain("(no new output)");
    setTimeout(() => {
      job.write("the answer");
      job.end(0);
    }, 50);
    const r3 = await h.call("job_output", { job_id: job.id, wait_ms: 5000 });
    expect(r3.content).toContain("status: exited, exit code: 0");
    expect(r3.content).toContain("the answer");
    expect(r3.metadata?.exit_code).toBe(0);
  });

  it("job_kill calls cancel; the job stays killed and takes no more output", async () => {
    h = harness();
    let cancelled = 0;
    const job = startTaskJob(h.state, {
      command: "agent",
      cancel: () => {
        cancelled += 1;
        job.end(1);
      },
    });
    const r = await h.call("job_kill", { job_id: job.id });
    expect(cancelled).toBe(1);
    expect(job.cancelled).toBe(true);
    expect(r.content).toContain("killed");
    job.write("late");
    expect((await h.call("job_output", { job_id: job.id })).content).not.toContain("late");
    expect((await h.call("job_kill", { job_id: job.id })).content).toContain("already ended");
  });
});

/**
 * Background jobs die with the run only when the run has a wall clock (OC_MAX_MINUTES, --max-minutes,
 * /limits time): through a real kernel (compiled extensions, the real tools), a scripted model starts
 * `sleep 30` with bash run_in_background. Without a clock the job's process group is still running after
 * the prompt returns; with one (from the environment or stored on the session) it is gone, and a
 * sub-agent's job goes with its root's run. Through the CLI `run --max-minutes` too (an end-state check:
 * a `run` process kills what is left at exit either way).
 */
import { afterEach, describe, expect, it } from "vitest";
import { anthropicEnv, makeSandbox, runCliAsync, type Sandbox } from "../../../test/kit/cli.js";
import { startFakeAnthropic, type FakeAnthropicServer } from "../../../test/kit/fakes/anthropic-server.js";
import { hasToolResult, isParent } from "../../agents/test/helpers.js";
import type { SessionEvent } from "../../engine/api.js";
import { bootCompiled } from "../../../test/kit/kernel-boot.js";

interface KernelLike {
  activate(e: string): Promise<void>;
  service<T>(name: string): Promise<T>;
  shutdown(): Promise<void>;
}

let sb: Sandbox | undefined;
let kernel: KernelLike | undefined;
let fake: FakeAnthropicServer | undefined;
const pids: number[] = [];

afterEach(async () => {
  for (const pid of pids.splice(0)) {
    try {
      process.kill(-pid, "SIGKILL");
    } catch {
      // gone
    }
  }
  await kernel?.shutdown().catch(() => undefined);
  kernel = undefined;
  await fake?.close();
  fake = undefined;
  sb?.cleanup();
  sb = undefined;
});

/** Whether a process group still has a live member. */
/** true once the group is gone, polled (bounded): a killed group's last member is reaped a moment later on a loaded machine */
async function groupGone(pid: number, withinMs = 5_000): Promise<boolean> {
  for (const t0 = Date.now(); Date.now() - t0 < withinMs; await new Promise((r) => setTimeout(r, 20))) if (!groupAlive(pid)) return true;
  return !groupAlive(pid);
}

function groupAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

const START_JOB = { tool_calls: [{ name: "bash", input: { command: "sleep 30", run_in_background: true } }] };

async function boot(env: NodeJS.ProcessEnv = {}, script = { steps: [START_JOB, { text: "started" }] }) {
  sb = makeSandbox("oc-jobs-clock-");
  sb.write(".oceancode/oceancode.json", JSON.stringify({ permission_mode: "bypassPermissions" }));
  sb.write("script.json", JSON.stringify({ ...script, after: { text: "(script finished)" } }));
  kernel = await bootCompiled<KernelLike>(sb, { ...sb.env, ...env });
  await kernel.activate("onSession");
  const engine = await kernel.service("engine");
  const events: SessionEvent[] = [];
  engine.subscribe((e) => events.push(e));
  return { engine, events, jobs: await kernel.service("jobs") };
}

/** The pid the bash tool reported for its background job. */
function startedPid(events: SessionEvent[]): number {
  for (const e of events) {
    if (e.type !== "tool_call_end") continue;
    const m = /Started background job job_\d+ \(pid (\d+)\)/.exec(e.result.content);
    if (m) {
      pids.push(Number(m[1]));
      return Number(m[1]);
    }
  }
  throw new Error("no background job was started");
}

describe("background jobs and the run's clock", () => {
  it("without a clock the job outlives the prompt (it runs until it ends or job_kill)", async () => {
    const { engine, events, jobs } = await boot();
    const s = await engine.createSession({ cwd: sb!.project, model: "scripted/script.json" });
    const r = await engine.prompt(s, "start a watcher");
    expect(r.reason).toBe("end_turn");
    const pid = startedPid(events);
    await new Promise((res) => setTimeout(res, 300));
    expect(groupAlive(pid)).toBe(true);
    expect(jobs.running(s.info.id).map((j) => j.pid)).toEqual([pid]);
  }, 30_000);

  it("with OC_MAX_MINUTES the prompt's end kills the job's process group, with a notice", async () => {
    const { engine, events, jobs } = await boot({ OC_MAX_MINUTES: "5" });
    const s = await engine.createSession({ cwd: sb!.project, model: "scripted/script.json" });
    await engine.prompt(s, "start a watcher");
    const pid = startedPid(events);
    expect(await groupGone(pid)).toBe(true);
    expect(jobs.running(s.info.id)).toEqual([]);
    expect(events.some((e) => e.type === "notice" && e.text === "1 background job ended with the run (it has a 5 min clock)")).toBe(true);
  }, 30_000);

  it("a clock stored on the session (run --max-minutes, /limits time) does the same", async () => {
    const { engine, events } = await boot();
    const s = await engine.createSession({ cwd: sb!.project, model: "scripted/script.json", overrides: { max_minutes: 10 } });
    await engine.prompt(s, "start a watcher");
    expect(await groupGone(startedPid(events))).toBe(true);
  }, 30_000);

  it("a sub-agent's job dies with its root's run when the run has a clock", async () => {
    fake = await startFakeAnthropic();
    fake.respond((q) => {
      if (isParent(q)) return hasToolResult(q) ? { text: "done" } : { toolCalls: [{ id: "toolu_agent", name: "agent", input: { subagent_type: "general-purpose", description: "start a watcher", prompt: "start sleep 30 in the background" } }] };
      return hasToolResult(q) ? { text: "watcher started" } : { toolCalls: [{ id: "toolu_bg", name: "bash", input: { command: "sleep 30", run_in_background: true } }] };
    });
    const { engine, events } = await boot({ ...anthropicEnv({ env: {} }, fake.url), OC_MAX_MINUTES: "5" });
    const s = await engine.createSession({ cwd: sb!.project, model: "anthropic/claude-sonnet-4-6" });
    const r = await engine.prompt(s, "have a sub-agent start a watcher");
    expect(r.reason).toBe("end_turn");
    const pid = startedPid(events);
    expect(await groupGone(pid)).toBe(true);
  }, 30_000);

  // an end-state check only: `run` is a process that exits, and the tools' exit hook kills every job left
  // at process exit with or without a clock; the in-process tests above are the ones that tell them apart
  it("run --max-minutes: the job's process group is gone when the run has ended", async () => {
    sb = makeSandbox("oc-jobs-clock-");
    sb.write("script.json", JSON.stringify({ steps: [START_JOB, { text: "started" }] }));
    const r = await runCliAsync(["run", "--auto", "--format", "json", "--max-minutes", "5", "--model", "scripted/script.json", "start a watcher"], { cwd: sb.project, env: sb.env, timeoutMs: 60_000 });
    expect(r.code, r.stderr).toBe(0);
    const evs = r.stdout.trim().split("\n").map((l) => JSON.parse(l) as SessionEvent);
    const pid = startedPid(evs);
    expect(await groupGone(pid)).toBe(true);
  }, 60_000);
});

/**
 * A sub-agent's bounds end to end (compiled CLI `run`, fake Anthropic server): the step cap
 * (OC_MAX_SUBAGENT_STEPS) ends a child that keeps calling tools, a SIGINT to the parent run aborts a
 * child waiting on a slow response, and run_in_background returns a job id read back with job_output.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { anthropicEnv, CLI, makeSandbox, runCliAsync, type Sandbox } from "../../../test/kit/cli.js";
import { startFakeAnthropic, type FakeAnthropicServer } from "../../../test/kit/fakes/anthropic-server.js";
import { findDirs, isParent, resultOf, sessionOf, textOf } from "./helpers.js";

let fake: FakeAnthropicServer;
let sb: Sandbox;
const env = () => anthropicEnv(sb, fake.url);
const ARGS = ["run", "--auto", "--model", "anthropic/claude-sonnet-4-5"];

beforeEach(async () => {
  fake = await startFakeAnthropic();
  sb = makeSandbox("oc-agents-bounds-");
});

afterEach(async () => {
  await fake.close();
  sb.cleanup();
});

/** The child ledger folders under the parent's. */
function childDirs(stderr: string): string[] {
  const parentDir = findDirs(sb.home, sessionOf(stderr)!)[0]!;
  const sub = path.join(parentDir, "subagents");
  return fs.existsSync(sub) ? fs.readdirSync(sub).map((k) => path.join(sub, k)) : [];
}

const turnsOf = (dir: string) => (JSON.parse(fs.readFileSync(path.join(dir, "index.json"), "utf8")) as { turns: Array<{ reason?: string; interrupted?: string }> }).turns;

describe("sub-agent bounds", () => {
  it("a child that keeps calling tools stops cleanly at OC_MAX_SUBAGENT_STEPS and the tool result says so", async () => {
    let p = 0;
    fake.respond((req) => {
      if (!isParent(req)) return { text: "still looking", toolCalls: [{ name: "ls", input: {} }] };
      return p++ === 0 ? { toolCalls: [{ id: "toolu_gp", name: "agent", input: { subagent_type: "general-purpose", description: "loop", prompt: "Look forever." } }] } : { text: "parent done" };
    });
    const r = await runCliAsync([...ARGS, "go"], { cwd: sb.project, env: { ...env(), OC_MAX_SUBAGENT_STEPS: "2" }, timeoutMs: 60_000 });
    expect(r.code, r.stderr).toBe(0);
    expect(fake.requests.filter((q) => !isParent(q))).toHaveLength(2);
    const res = resultOf(fake.requests.filter(isParent)[1]!, "toolu_gp");
    expect(res?.is_error).toBeFalsy();
    expect(textOf(res)).toMatch(/stopped at its step cap \(2 steps\)[\s\S]*still looking/);
    const [child] = childDirs(r.stderr);
    expect(turnsOf(child!).map((t) => t.reason)).toEqual(["step_cap"]);
  }, 90_000);

  it("an invalid OC_MAX_SUBAGENT_STEPS is refused at the first prompt, naming the variable", async () => {
    for (const v of ["0", "abc"]) {
      const r = await runCliAsync([...ARGS, "go"], { cwd: sb.project, env: { ...env(), OC_MAX_SUBAGENT_STEPS: v }, timeoutMs: 60_000 });
      expect(r.code, r.stderr).toBe(1);
      expect(r.stderr).toMatch(/OC_MAX_SUBAGENT_STEPS must be a whole number above 0/);
      expect(fake.requests).toHaveLength(0);
    }
  }, 90_000);

  it("SIGINT to the parent aborts a child waiting on a slow response; the run exits cleanly (130) at once", async () => {
    fake.respond((req) => {
      if (!isParent(req)) return { type: "drop", text: "thinking slowly", holdMs: 30_000 };
      return { toolCalls: [{ id: "toolu_slow", name: "agent", input: { subagent_type: "general-purpose", description: "slow", prompt: "Take your time." } }] };
    });
    const child = spawn(process.execPath, [CLI, ...ARGS, "go"], { cwd: sb.project, env: env(), stdio: ["ignore", "pipe", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
    const deadline = Date.now() + 30_000;
    while (!fake.requests.some((q) => !isParent(q)) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(fake.requests.some((q) => !isParent(q))).toBe(true);
    await new Promise((r) => setTimeout(r, 300)); // the child is now waiting on the held stream
    const sent = Date.now();
    child.kill("SIGINT");
    const code = await exited;
    expect(code, stderr).toBe(130);
    // far sooner than the 30 s hold: the child's request was aborted, not waited out
    expect(Date.now() - sent).toBeLessThan(10_000);
    expect(fake.requests.filter((q) => !isParent(q))).toHaveLength(1);
    const [dir] = childDirs(stderr);
    expect(turnsOf(dir!).map((t) => t.reason)).toEqual(["aborted"]);
  }, 90_000);

  it("run_in_background returns a job id at once; job_output reads the child's answer", async () => {
    let p = 0;
    fake.respond((req) => {
      if (!isParent(req)) return { text: "BACKGROUND ANSWER" };
      p += 1;
      if (p === 1) return { toolCalls: [{ id: "toolu_bg", name: "agent", input: { subagent_type: "general-purpose", description: "bg", prompt: "In the background.", run_in_background: true } }] };
      if (p === 2) return { toolCalls: [{ id: "toolu_out", name: "job_output", input: { job_id: "job_1", wait_ms: 20_000 } }] };
      return { text: "parent done" };
    });
    const r = await runCliAsync([...ARGS, "go"], { cwd: sb.project, env: env(), timeoutMs: 60_000 });
    expect(r.code, r.stderr).toBe(0);
    const parents = fake.requests.filter(isParent);
    expect(textOf(resultOf(parents[1]!, "toolu_bg"))).toMatch(/^started sub-agent 'general-purpose' in the background as job_1/);
    const out = textOf(resultOf(parents[2]!, "toolu_out"));
    expect(out).toContain("status: exited, exit code: 0");
    expect(out).toContain("BACKGROUND ANSWER");
  }, 90_000);

  it("job_kill cancels a background child waiting on a slow response; it is recorded as killed", async () => {
    let p = 0;
    fake.respond((req) => {
      if (!isParent(req)) return { type: "drop", text: "slow", holdMs: 30_000 };
      p += 1;
      if (p === 1) return { toolCalls: [{ id: "toolu_bg", name: "agent", input: { subagent_type: "general-purpose", description: "bg", prompt: "Slowly.", run_in_background: true } }] };
      if (p === 2) return { toolCalls: [{ id: "toolu_kill", name: "job_kill", input: { job_id: "job_1" } }] };
      if (p === 3) return { toolCalls: [{ id: "toolu_out", name: "job_output", input: { job_id: "job_1" } }] };
      return { text: "parent done" };
    });
    const t0 = Date.now();
    const r = await runCliAsync([...ARGS, "go"], { cwd: sb.project, env: env(), timeoutMs: 60_000 });
    expect(r.code, r.stderr).toBe(0);
    expect(Date.now() - t0).toBeLessThan(20_000);
    const parents = fake.requests.filter(isParent);
    expect(textOf(resultOf(parents[2]!, "toolu_kill"))).toMatch(/^job_1 killed/);
    expect(textOf(resultOf(parents[3]!, "toolu_out"))).toMatch(/^job_1 status: killed/);
    const [dir] = childDirs(r.stderr);
    expect(turnsOf(dir!).map((t) => t.reason)).toEqual(["aborted"]);
  }, 90_000);

  it("a child's asks go to the same answerer as its parent's: rejected without --auto, approved with it, never left waiting", async () => {
    sb.write(".config/oceancode/oceancode.jsonc", JSON.stringify({ permission: ["bash * ask"] }), "home");
    const script = () => {
      let p = 0;
      fake.reset();
      fake.respond((req) => {
        if (!isParent(req)) {
          const asked = (req.body.messages ?? []).some((m) => typeof m.content !== "string" && m.content.some((b) => b.type === "tool_result"));
          return asked ? { text: "child saw the bash result" } : { toolCalls: [{ id: "toolu_child_bash", name: "bash", input: { command: "touch made-by-child" } }] };
        }
        return p++ === 0 ? { toolCalls: [{ id: "toolu_gp", name: "agent", input: { subagent_type: "general-purpose", description: "run", prompt: "Run it." } }] } : { text: "parent done" };
      });
    };
    const childResult = () => textOf(resultOf(fake.requests.filter((q) => !isParent(q)).at(-1)!, "toolu_child_bash"));
    script();
    const strict = await runCliAsync(["run", "--model", "anthropic/claude-sonnet-4-5", "go"], { cwd: sb.project, env: env(), timeoutMs: 60_000 });
    expect(strict.code, strict.stderr).toBe(0);
    expect(childResult()).toContain("rejected: run without --auto");
    expect(fs.existsSync(path.join(sb.project, "made-by-child"))).toBe(false);
    script();
    const auto = await runCliAsync([...ARGS, "go"], { cwd: sb.project, env: env(), timeoutMs: 60_000 });
    expect(auto.code, auto.stderr).toBe(0);
    expect(childResult()).toContain("exit code: 0");
    expect(fs.existsSync(path.join(sb.project, "made-by-child"))).toBe(true);
  }, 90_000);
});

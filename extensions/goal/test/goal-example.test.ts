/** examples/goal/prove.sh as a user runs it (oceancode on PATH, jq), on the fake Anthropic server: one line per change, the outcome, the exit code. */
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { startFakeAnthropic, type FakeAnthropicServer } from "../../../test/kit/fakes/anthropic-server.js";
import { anthropicEnv, CLI, makeSandbox, REPO_ROOT, type Sandbox } from "../../../test/kit/cli.js";
import { fenced, script } from "./helpers.js";

let sb: Sandbox;
let fake: FakeAnthropicServer;
afterAll(async () => {
  await fake?.close();
  sb?.cleanup();
});

function prove(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn("bash", [path.join(REPO_ROOT, "examples", "goal", "prove.sh"), ...args], { cwd: sb.project, env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill("SIGKILL"), 30_000);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

describe("examples/goal/prove.sh", () => {
  it("follows a goal to its outcome and exits with its code", async () => {
    sb = makeSandbox("oc-goal-example-");
    fake = await startFakeAnthropic();
    const bin = path.join(path.dirname(sb.project), "bin");
    fs.mkdirSync(bin);
    fs.writeFileSync(path.join(bin, "oceancode"), `#!/bin/sh\nexec "${process.execPath}" "${CLI}" -m anthropic/claude-haiku-4-5 "$@"\n`, { mode: 0o755 });
    const env = { ...anthropicEnv(sb, fake.url), PATH: `${bin}:${process.env.PATH}` };
    script(fake, { skeptic: () => ({ text: fenced({ refuted: [], upheld: ["d1", "d2"], evidence: ["read hello.txt"] }) }) });
    const ok = await prove(["make hello.txt say hi", "10"], env);
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stdout).toContain("1 running plan round 0 spent 0/10");
    expect(ok.stdout.trim().split("\n").at(-1)).toBe("outcome: complete");
    // a stalled goal: the pause's exit code comes through the pipe to jq
    script(fake, { skeptic: () => ({ text: fenced({ refuted: [{ id: "d1", why: "missing", evidence: "ls" }], upheld: ["d2"], evidence: ["ls"] }) }) });
    const stuck = await prove(["make hello.txt say hi", "10"], env);
    expect(stuck.code, stuck.stderr).toBe(3);
    expect(stuck.stdout).toContain("  gaps: d1: missing");
    expect(stuck.stdout.trim().split("\n").at(-1)).toBe("outcome: no_progress_paused (two rounds ended with the same 1 gap(s))");
  });
});

import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { alive, harness, sleep, waitFor, type Harness } from "./helpers.js";

let h: Harness;
afterEach(() => h?.cleanup());

describe("bash", () => {
  it("runs through prepareSpawn in the cwd and reports the exit code", async () => {
    h = harness();
    const out = await h.call("bash", { command: "pwd; echo hi; exit 3" });
    expect(out.content).toBe(`${h.project}\nhi\nexit code: 3`);
    expect(out.isError).toBe(true);
    expect(h.spawned[0]).toMatchObject({ command: "bash", args: ["-c", "pwd; echo hi; exit 3"], cwd: h.project, purpose: "bash" });
  });

  it("interleaves stdout and stderr and says when there is no output", async () => {
    h = harness();
    const out = await h.call("bash", { command: "echo one; sleep 0.1; echo two >&2; sleep 0.1; echo three" });
    expect(out.content).toBe("one\ntwo\nthree\nexit code: 0");
    expect(out.isError).toBe(false);
    expect((await h.call("bash", { command: "true" })).content).toBe("(no output)\nexit code: 0");
  });

  it("uses the env prepareSpawn composed (the env-stripping tap's view)", async () => {
    h = harness({ prepareEnv: (env) => ({ PATH: env.PATH, OC_MARK: "composed" }) });
    process.env.OC_TEST_SECRET_TOKEN = "s3cret";
    try {
      const out = await h.call("bash", { command: 'echo "mark=$OC_MARK secret=${OC_TEST_SECRET_TOKEN:-none}"' });
      expect(out.content).toBe("mark=composed secret=none\nexit code: 0");
    } finally {
      delete process.env.OC_TEST_SECRET_TOKEN;
    }
  });

  it("runs in workdir (relative to the cwd) and refuses a missing one", async () => {
    h = harness();
    fs.mkdirSync(path.join(h.project, "sub"));
    expect((await h.call("bash", { command: "pwd", workdir: "sub" })).content).toBe(`${path.join(h.project, "sub")}\nexit code: 0`);
    const bad = await h.call("bash", { command: "pwd", workdir: "nope" });
    expect(bad.isError).toBe(true);
    expect(bad.content).toContain("is not a directory");
  });

  it("refuses a missing command with a clear message", async () => {
    h = harness();
    const out = await h.call("bash", {});
    expect(out.isError).toBe(true);
    expect(out.content).toMatch(/^bash: 'command' is required/);
  });

  it("kills the whole process group on timeout", async () => {
    h = harness();
    const pidFile = path.join(h.root, "pids");
    const started = Date.now();
    const out = await h.call("bash", { command: `sleep 30 & echo "$$ $!" > ${pidFile}; wait`, timeout: 500 });
    expect(Date.now() - started).toBeLessThan(5000);
    expect(out.isError).toBe(true);
    expect(out.content).toContain("Command timed out after 500 ms; its process group was killed.");
    const pids = fs.readFileSync(pidFile, "utf8").trim().split(" ").map(Number);
    expect(pids).toHaveLength(2);
    await waitFor(() => pids.every((p) => !alive(p)));
  });

  it("a command that ignores SIGTERM is still killed", async () => {
    h = harness();
    const pidFile = path.join(h.root, "pid");
    const out = await h.call("bash", { command: `trap '' TERM; echo $$ > ${pidFile}; while true; do sleep 0.05; done`, timeout: 300 });
    expect(out.content).toContain("timed out");
    const pid = Number(fs.readFileSync(pidFile, "utf8"));
    await waitFor(() => !alive(pid));
  });

  it("stops on abort and kills the group", async () => {
    h = harness();
    const ac = new AbortController();
    const pidFile = path.join(h.root, "pid");
    const p = h.call("bash", { command: `echo $$ > ${pidFile}; sleep 30` }, { signal: ac.signal });
    await waitFor(() => fs.existsSync(pidFile) && fs.readFileSync(pidFile, "utf8").trim() !== "");
    ac.abort();
    const out = await p;
    expect(out.isError).toBe(true);
    expect(out.content).toContain("Command aborted; its process group was killed.");
    const pid = Number(fs.readFileSync(pidFile, "utf8"));
    await waitFor(() => !alive(pid));
  });

  it("does not wait for a backgrounded grandchild that keeps the pipe open", async () => {
    h = harness();
    const pidFile = path.join(h.root, "pid");
    const started = Date.now();
    const out = await h.call("bash", { command: `sleep 5 & echo $! > ${pidFile}; echo done` });
    expect(out.content).toBe("done\nexit code: 0");
    expect(Date.now() - started).toBeLessThan(3000);
    process.kill(Number(fs.readFileSync(pidFile, "utf8")), "SIGKILL");
  });

  it("truncates a huge output for the model and keeps the full text on disk", async () => {
    h = harness({ maxOutputChars: 2000 });
    const out = await h.call("bash", { command: "seq 1 300000" }, { callId: "call_big" });
    const t = out.metadata?.truncated as { fullBytes: number; fullPath: string };
    const full = fs.readFileSync(t.fullPath, "utf8");
    expect(path.dirname(path.dirname(t.fullPath))).toBe(path.join(h.dataDir, "tool-output"));
    expect(path.basename(t.fullPath)).toBe("call_big.txt");
    expect(full.split("\n").length).toBe(300001);
    expect(t.fullBytes).toBe(Buffer.byteLength(full));
    expect(out.content.startsWith("1\n2\n3\n")).toBe(true);
    expect(out.content).toMatch(/\[truncated \d+ bytes; full output kept at .*call_big\.txt\]/);
    expect(out.content.endsWith("299999\n300000\nexit code: 0")).toBe(true);
    expect(out.content.length).toBeLessThan(2400);
  });

  it("background job: id at once, job_output returns new output and status, job_kill stops the group", async () => {
    h = harness();
    const started = Date.now();
    const out = await h.call("bash", { command: "echo first; sleep 0.3; echo second; sleep 30", run_in_background: true });
    expect(Date.now() - started).toBeLessThan(1000);
    const id = out.metadata?.job_id as string;
    const pid = out.metadata?.pid as number;
    expect(id).toBe("job_1");
    expect(out.content).toContain("Started background job job_1");
    const r1 = await h.call("job_output", { job_id: id, wait_ms: 2000 });
    expect(r1.content).toMatch(/^job_1 status: running/);
    expect(r1.content).toContain("first\n");
    await sleep(500);
    const r2 = await h.call("job_output", { job_id: id });
    expect(r2.content).toContain("second\n");
    expect(r2.content).not.toContain("first");
    const r3 = await h.call("job_output", { job_id: id });
    expect(r3.content).toContain("(no new output)");
    const k = await h.call("job_kill", { job_id: id });
    expect(k.content).toMatch(/^job_1 killed/);
    await waitFor(() => !alive(pid));
    const r4 = await h.call("job_output", { job_id: id });
    expect(r4.content).toMatch(/^job_1 status: killed/);
    expect((await h.call("job_kill", { job_id: id })).content).toContain("already ended");
  });

  it("a finished job reports its exit code; unknown ids are named", async () => {
    h = harness();
    await h.call("bash", { command: "echo bye; exit 4", run_in_background: true });
    const r = await h.call("job_output", { job_id: "job_1", wait_ms: 3000 });
    await sleep(100);
    const r2 = await h.call("job_output", { job_id: "job_1" });
    expect(r.content + r2.content).toContain("bye");
    expect(r2.content).toMatch(/status: exited, exit code: 4/);
    const bad = await h.call("job_output", { job_id: "job_9" });
    expect(bad.isError).toBe(true);
    expect(bad.content).toBe("job_output: no job 'job_9' in this session (jobs: job_1)");
  });

  it("maps to Claude Code's shapes", () => {
    h = harness();
    const bash = h.tools.get("bash")!;
    expect(bash.claudeName).toBe("Bash");
    expect(bash.kind).toBe("execute");
    expect(bash.toClaudeInput!({ command: "ls", timeout: 5, workdir: "x" }, h.project)).toEqual({ command: "ls", timeout: 5 });
    expect(bash.ruleSubject!({ command: "git status" }, h.project)).toBe("git status");
    expect(h.tools.get("job_output")!.fromClaudeInput!({ bash_id: "job_2" })).toEqual({ job_id: "job_2" });
    expect(h.tools.get("job_kill")!.fromClaudeInput!({ shell_id: "job_3" })).toEqual({ job_id: "job_3" });
  });
});

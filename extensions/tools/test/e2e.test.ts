/** The tools through the real CLI: `oceancode run` on a scripted model, with the engine, config and data dir. */
import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { makeSandbox, runCli, type Sandbox } from "../../../test/kit/cli.js";
import { alive, waitFor } from "./helpers.js";

let sb: Sandbox;
afterEach(() => sb?.cleanup());

interface Ev {
  type: string;
  sessionId?: string;
  call?: { id: string; name: string };
  result?: { content: string; isError: boolean; truncated?: { fullBytes: number; fullPath: string } };
}

function run(script: object): { events: Ev[]; code: number | null; stderr: string } {
  sb.write("script.json", JSON.stringify(script));
  const r = runCli(["run", "--auto", "--format", "json", "--model", "scripted/script.json", "go"], { cwd: sb.project, env: sb.env });
  const events = r.stdout
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .map((l) => JSON.parse(l) as Ev);
  return { events, code: r.code, stderr: r.stderr };
}

/** a live process whose command line carries `marker` */
function running(marker: string): boolean {
  for (const pid of fs.readdirSync("/proc").filter((d) => /^\d+$/.test(d))) {
    try {
      if (fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").includes(marker) && alive(Number(pid))) return true;
    } catch {
      // gone meanwhile
    }
  }
  return false;
}

const results = (events: Ev[]) => events.filter((e) => e.type === "tool_call_end").map((e) => e.result!);

describe("core tools end to end through oceancode run", () => {
  it("guards, truncation with config, refs, and background jobs", () => {
    sb = makeSandbox();
    const docs = path.join(sb.home, "docs");
    fs.mkdirSync(docs);
    fs.writeFileSync(path.join(docs, "guide.md"), "# Guide\n");
    sb.write(".oceancode/oceancode.json", JSON.stringify({ tools: { max_output_chars: 2000 }, refs: { docs } }));
    sb.write(".env", "API_KEY=do-not-leak\n");
    sb.write("keep.txt", "original\n");
    // found by its name in /proc, not by a pid it writes: a confined job's $$ is its sandbox's own pid
    const marker = `oc-e2e-job-${process.pid}-${Date.now() % 100000}`;
    const { events, code, stderr } = run({
      steps: [
        { tool_calls: [{ name: "read", input: { file_path: ".env" } }] },
        { tool_calls: [{ name: "write", input: { file_path: "keep.txt", content: "clobbered\n" } }] },
        { tool_calls: [{ name: "bash", input: { command: "seq 1 100000" } }] },
        { tool_calls: [{ name: "read", input: { file_path: "@docs/guide.md" } }] },
        { tool_calls: [{ name: "bash", input: { command: "echo bg-out; sleep 30", run_in_background: true } }] },
        { tool_calls: [{ name: "job_output", input: { job_id: "job_1", wait_ms: 3000 } }] },
        { tool_calls: [{ name: "job_kill", input: { job_id: "job_1" } }] },
        { tool_calls: [{ name: "bash", input: { command: `exec -a ${marker} sleep 60`, run_in_background: true } }] },
        { tool_calls: [{ name: "job_output", input: { job_id: "job_2", wait_ms: 200 } }] },
        { text: "done" },
      ],
    });
    expect(code, stderr).toBe(0);
    const r = results(events);
    expect(r[0]!.isError).toBe(true);
    // the permissions layer may refuse it first; either way it is refused and nothing leaks
    expect(r[0]!.content).toMatch(/secrets/);
    expect(JSON.stringify(events)).not.toContain("do-not-leak");
    expect(r[1]!.content).toContain("file exists but has not been read this session");
    expect(fs.readFileSync(path.join(sb.project, "keep.txt"), "utf8")).toBe("original\n");

    const t = r[2]!.truncated!;
    expect(t.fullPath.startsWith(path.join(sb.home, ".local", "share", "oceancode", "tool-output"))).toBe(true);
    expect(fs.readFileSync(t.fullPath, "utf8").split("\n")).toHaveLength(100001);
    expect(r[2]!.content.length).toBeLessThan(2300);
    expect(r[2]!.content).toContain(`full output kept at ${t.fullPath}]`);

    expect(r[3]!.content).toBe("     1\t# Guide");
    expect(r[4]!.content).toContain("Started background job job_1");
    expect(r[5]!.content).toMatch(/^job_1 status: running/);
    expect(r[5]!.content).toContain("bg-out");
    expect(r[6]!.content).toMatch(/^job_1 killed/);
    // a job still running when the process exits does not outlive it
    return waitFor(() => !running(marker), 5000);
  });
});

/**
 * Plan mode through the compiled CLI `run --agent plan` on a scripted model: only read/search tools, plan
 * writes and plan_exit are offered; an edit or write outside .oceancode/plans/ and bash are refused with
 * plan mode's reason (even under --auto and bypassPermissions); a plan file writes; every request carries
 * the reminder; `run --auto` never approves plan_exit's switch; --continue keeps plan mode; --agent build leaves it.
 */
import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { makeSandbox, runCli, type Sandbox } from "../../../test/kit/cli.js";
import { call, runPlan } from "./helpers.js";

let sb: Sandbox | undefined;
afterEach(() => {
  sb?.cleanup();
  sb = undefined;
});

const DENIED = /^Permission denied by plan-mode: plan mode: editing is off; call plan_exit to ask to switch to the build agent/;

describe("plan mode headless (run --agent plan)", () => {
  it("offers read/search tools and plan_exit only, refuses edits outside the plans folder and bash, writes a plan file", () => {
    sb = makeSandbox("oc-plan-");
    sb.write("src.ts", "export const a = 1;\n");
    const steps = [
      call("read", { file_path: "src.ts" }),
      call("edit", { file_path: "src.ts", old_string: "1", new_string: "2" }),
      call("write", { file_path: "new.ts", content: "x" }),
      call("bash", { command: "echo hi > bashed.txt" }),
      call("write", { file_path: ".oceancode/plans/plan.md", content: "# plan\n1. change a\n" }),
      call("grep", { pattern: "const" }),
      { text: "planned" },
    ];
    // --auto and bypassPermissions would approve everything: plan mode still refuses
    sb.write(".config/oceancode/oceancode.json", JSON.stringify({ permission_mode: "bypassPermissions" }), "home");
    const r = runPlan(sb, steps, ["--auto", "--agent", "plan", "--format", "json"]);
    expect(r.code, r.stderr).toBe(0);
    const [read, edit, write, bash, plan, grep] = r.results;
    expect(read!.isError).toBe(false);
    expect(edit!.isError).toBe(true);
    expect(edit!.content).toMatch(DENIED);
    expect(edit!.content).toContain("outside .oceancode/plans/");
    expect(write!.content).toMatch(DENIED);
    expect(bash!.content).toMatch(DENIED);
    expect(bash!.content).toContain("bash is off in plan mode");
    expect(plan!.isError, plan!.content).toBe(false);
    expect(grep!.isError).toBe(false);
    expect(fs.readFileSync(path.join(sb.project, "src.ts"), "utf8")).toBe("export const a = 1;\n");
    expect(fs.existsSync(path.join(sb.project, "new.ts"))).toBe(false);
    expect(fs.existsSync(path.join(sb.project, "bashed.txt"))).toBe(false);
    expect(fs.readFileSync(path.join(sb.project, ".oceancode", "plans", "plan.md"), "utf8")).toContain("1. change a");
    // what the model was offered and told, on every request
    for (const req of r.requests) {
      expect(req.tools).toContain("plan_exit");
      expect(req.tools).toContain("read");
      expect(req.tools).not.toContain("bash");
      expect(req.tools).not.toContain("job_kill");
      expect(req.system.join("\n")).toContain("Plan mode is on: editing is off");
    }
  });

  it("run --auto never approves plan_exit: the session stays in plan mode and --continue keeps it; --agent build leaves it", () => {
    sb = makeSandbox("oc-plan-");
    const r = runPlan(sb, [call("plan_exit", { plan: "1. change a" }), call("write", { file_path: "after.ts", content: "x" }), { text: "ok" }], ["--auto", "--agent", "plan"]);
    expect(r.code, r.stderr).toBe(0);
    const [exit, write] = r.results;
    expect(exit!.isError).toBe(true);
    expect(exit!.content).toContain("The user did not approve switching to the build agent");
    expect(exit!.content).toContain("needs a person to approve it");
    expect(write!.content).toMatch(DENIED);
    expect(fs.existsSync(path.join(sb.project, "after.ts"))).toBe(false);

    // the agent is stored on the session: --continue is still in plan mode (scripts count steps per session)
    const pad = (n: number) => Array.from({ length: n }, () => ({ text: "unused" }));
    const c = runPlan(sb, [...pad(3), call("write", { file_path: "again.ts", content: "x" }), { text: "ok" }], ["--auto", "--continue"], "c.json");
    expect(c.code, c.stderr).toBe(0);
    expect(c.results.at(-1)!.content).toMatch(DENIED);
    expect(c.results.at(-1)!.content).toContain("again.ts");
    expect(c.requests[0]!.tools).not.toContain("bash");

    // --agent build leaves it: every tool is back and the write lands; plan_exit is not offered
    const b = runPlan(sb, [...pad(5), call("write", { file_path: "built.ts", content: "x" }), { text: "ok" }], ["--auto", "--continue", "--agent", "build"], "b.json");
    expect(b.code, b.stderr).toBe(0);
    expect(b.results.at(-1)!.isError, b.results.at(-1)!.content).toBe(false);
    expect(fs.readFileSync(path.join(sb.project, "built.ts"), "utf8")).toBe("x");
    expect(b.requests[0]!.tools).toContain("bash");
    expect(b.requests[0]!.tools).not.toContain("plan_exit");
    expect(b.requests[0]!.system.join("\n")).not.toContain("Plan mode is on");
  });

  it("outside plan mode plan_exit is neither offered nor allowed; --agent takes only plan or build", () => {
    sb = makeSandbox("oc-plan-");
    const r = runPlan(sb, [call("plan_exit", { plan: "x" }), { text: "ok" }], ["--auto"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.requests[0]!.tools).not.toContain("plan_exit");
    expect(r.results[0]!.isError).toBe(true);
    expect(r.results[0]!.content).toContain("plan_exit: the session is not in plan mode");
    const bad = runCli(["--dir", sb.project, "run", "--agent", "review", "--model", "scripted/echo", "go"], { env: sb.env });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("--agent must be plan or build (got 'review')");
  });
});

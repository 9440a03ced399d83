/**
 * plan_exit in the real pager (compiled CLI in tmux, scripted model): /agent plan turns plan mode on; the
 * model writes its plan and calls plan_exit; the pager shows the plan and a comments field. Enter
 * approves (the comments become the person's rows of the todo list) and the next edit lands; esc rejects
 * and the session stays in plan mode (the next edit is refused).
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { Sandbox } from "../../../test/kit/cli.js";
import { hasTmux, type Pty, typeLine } from "../../../test/kit/pty.js";
import { call, type Request } from "./helpers.js";
import { pagerTests } from "../../../test/kit/pager-tests.js";

const { makeSandbox, openPager } = pagerTests();
let sb: Sandbox | undefined;
let t: Pty | undefined;

function start(prefix: string): { rec: string } {
  sb = makeSandbox(prefix);
  sb.write("src.ts", "export const a = 1;\n");
  // edits are allowed without a question, so the only question is plan_exit's
  sb.write(".config/oceancode/oceancode.json", JSON.stringify({ permission_mode: "acceptEdits" }), "home");
  sb.write(
    "s.json",
    JSON.stringify({
      steps: [
        call("write", { file_path: ".oceancode/plans/plan.md", content: "# plan\n1. change a\n" }),
        call("plan_exit", { plan: "1. change a to 2" }),
        call("write", { file_path: "built.ts", content: "export const b = 2;\n" }),
        { text: "all done" },
      ],
    }),
  );
  const rec = path.join(path.dirname(sb.project), "rec.jsonl");
  t = openPager(sb, { OC_MODEL: "scripted/s.json", OC_SCRIPTED_RECORD: rec, OC_PLAN: "off" }, [], { cols: 100, rows: 30 });
  return { rec };
}

const results = (rec: string) => {
  const last = fs.readFileSync(rec, "utf8").trim().split("\n").map((l) => JSON.parse(l) as Request).at(-1);
  return (last?.rows ?? []).filter((x) => x.role === "tool").flatMap((x) => x.results ?? []);
};

describe.skipIf(!hasTmux())("plan mode in the pager", () => {
  it("plan_exit approved with comments: the comments join the plan, the session is on the build agent, the edit lands", async () => {
    const { rec } = start("oc-plan-pty-");
    await t!.waitFor("❯");
    await typeLine(t!, "/agent plan");
    await t!.waitFor("plan mode on: editing is off");
    // the status bar says so
    expect(await t!.waitFor(/^ ⏸ plan mode: editing is off$/m)).toBeTruthy();
    await typeLine(t!, "go");
    const form = await t!.waitFor(/plan ready: switch to the build agent\?[\s\S]*enter send/, 30_000);
    expect(form).toContain("1. change a to 2");
    expect(form).toMatch(/❯ comments \(string\): /);
    t!.send("also add a test");
    await t!.waitFor("comments (string): also add a test");
    t!.key("Enter");
    await t!.waitFor("all done", 30_000, { inHistory: true });
    await t!.waitGone("working…", 20_000);
    const [plan, exit, built] = results(rec);
    expect(plan!.isError, plan!.content).toBe(false);
    expect(exit!.isError, exit!.content).toBe(false);
    expect(exit!.content).toContain("The user approved the plan");
    expect(exit!.content).toContain("also add a test");
    expect(built!.isError, built!.content).toBe(false);
    expect(fs.readFileSync(path.join(sb!.project, "built.ts"), "utf8")).toBe("export const b = 2;\n");
    expect(fs.readFileSync(path.join(sb!.project, ".oceancode", "plans", "plan.md"), "utf8")).toBe("# plan\n1. change a\n");
    // the comment is the person's row on the todo list (the pane shows it)
    t!.key("C-t");
    expect(await t!.waitFor("also add a test (you)")).toContain("also add a test (you)");
    t!.key("C-t");
    await typeLine(t!, "/agent");
    expect(await t!.waitFor("agent: build")).not.toMatch(/^ ⏸ plan mode: editing is off$/m);
  }, 90_000);

  it("/agent plan <description> turns plan mode on and sends the description as the prompt (the host's prompt())", async () => {
    const sb = makeSandbox("oc-plan-pty-");
    const rec = path.join(path.dirname(sb.project), "rec.jsonl");
    t = openPager(sb, { OC_MODEL: "scripted/echo", OC_SCRIPTED_RECORD: rec }, [], { cols: 100, rows: 30 });
    await t.waitFor("❯");
    await typeLine(t, "/agent plan design the cache layer");
    await t.waitFor("ok: design the cache layer", 30_000, { inHistory: true });
    const idle = await t.waitGone("working…", 20_000);
    expect(idle).toMatch(/^ ⏸ plan mode: editing is off$/m);
    const req = JSON.parse(fs.readFileSync(rec, "utf8").trim().split("\n").at(-1)!) as Request;
    expect(req.system.join("\n")).toContain("Plan mode is on: editing is off");
    expect(req.tools).toContain("plan_exit");
    expect(req.tools).not.toContain("bash");
    await typeLine(t, "/agent build now");
    await t.waitFor("/agent build takes no text");
    await typeLine(t, "/agent build");
    await t.waitFor("build agent: editing is on");
  }, 90_000);

  it("plan_exit rejected (esc): the session stays in plan mode and the next edit is refused", async () => {
    const { rec } = start("oc-plan-pty-");
    await t!.waitFor("❯");
    await typeLine(t!, "/agent plan");
    await t!.waitFor("plan mode on: editing is off");
    await typeLine(t!, "go");
    await t!.waitFor(/plan ready: switch to the build agent\?[\s\S]*enter send/, 30_000);
    t!.key("Escape");
    await t!.waitFor("all done", 30_000, { inHistory: true });
    await t!.waitGone("working…", 20_000);
    const [, exit, built] = results(rec);
    expect(exit!.isError).toBe(true);
    expect(exit!.content).toContain("The user did not approve switching to the build agent");
    expect(built!.isError).toBe(true);
    expect(built!.content).toMatch(/^Permission denied by plan-mode: plan mode: editing is off/);
    expect(fs.existsSync(path.join(sb!.project, "built.ts"))).toBe(false);
    await typeLine(t!, "/agent");
    await t!.waitFor("agent: plan");
  }, 90_000);
});

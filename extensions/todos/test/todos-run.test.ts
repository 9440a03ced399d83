/**
 * The todos extension through the compiled CLI `run` on scripted models: a list written by the tool and by
 * a ```todo block (SESSION.md and the ATIF export show it), the always-plan floor, the directive and the
 * reminder after twelve tool calls (asserted on the requests the scripted model received), the work-off of
 * a settled turn with open rows, the no-progress stop, OC_PLAN=off, the list across --continue, and the
 * example scripted model. The Markdown export ends with the ## Plan.
 */
import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { makeSandbox, REPO_ROOT, runCli, type Sandbox } from "../../../test/kit/cli.js";
import { findLedgerDir as ledgerDir, parseEvents } from "../../../test/kit/stored.js";

let sb: Sandbox | undefined;
afterEach(() => {
  sb?.cleanup();
  sb = undefined;
});

interface Ev {
  type: string;
  sessionId?: string;
  reason?: string;
  level?: string;
  text?: string;
}
const events = (stdout: string): Ev[] => parseEvents<Ev>(stdout);
const notices = (stdout: string) => events(stdout).filter((e) => e.type === "notice").map((e) => e.text!);

interface Recorded {
  sessionStep: number;
  system: string[];
  rows: Array<{ role: string; text?: string }>;
  tools: string[];
}
function recorded(s: Sandbox): Recorded[] {
  const f = path.join(s.project, "rec.jsonl");
  if (!fs.existsSync(f)) return [];
  return fs
    .readFileSync(f, "utf8")
    .trim()
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Recorded);
}
const notesOf = (r: Recorded) => r.rows.filter((x) => x.role === "note").map((x) => x.text ?? "");

function run(s: Sandbox, args: string[], env: NodeJS.ProcessEnv = {}) {
  return runCli(["--dir", s.project, "run", "--format", "json", ...args], { env: { ...s.env, OC_SCRIPTED_RECORD: path.join(s.project, "rec.jsonl"), ...env } });
}
function script(s: Sandbox, steps: unknown[], after: unknown = { text: "(script finished)" }): void {
  s.write("s.json", JSON.stringify({ steps, after }));
}
const sessionOf = (stdout: string) => events(stdout).find((e) => e.type === "session")!.sessionId!;

function sessionMd(s: Sandbox, id: string): string {
  return fs.readFileSync(path.join(ledgerDir(s.home, id), "SESSION.md"), "utf8");
}
interface Atif {
  extra: { todos?: { items: Array<{ content: string; status: string; by: string; active_form?: string }>; planned: boolean; floor: boolean } };
}
function atif(s: Sandbox, id: string): Atif {
  const r = runCli(["--dir", s.project, "export", "--atif", id], { env: s.env });
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as Atif;
}

const write3 = {
  text: "planning",
  tool_calls: [
    {
      name: "todo_write",
      input: {
        todos: [
          { content: "Read the code", status: "in_progress", activeForm: "Reading the code" },
          { content: "Fix the bug", status: "pending", activeForm: "Fixing the bug" },
          { content: "Run the tests", status: "pending", activeForm: "Running the tests" },
        ],
      },
    },
  ],
};

describe("todos on run", () => {
  it("the tool writes a list, a settled turn with open rows is worked off, a ```todo block closes it: SESSION.md and ATIF show the list", () => {
    sb = makeSandbox("oc-todos-");
    script(sb, [write3, { text: "I read the code." }, { text: "```todo\n- [x] Read the code\n- [x] Fix the bug\n- [-] Run the tests\n```\nAll done." }]);
    const r = run(sb, ["--model", "scripted/s.json", "fix the bug"]);
    expect(r.code, r.stderr).toBe(0);
    expect(notices(r.stdout)).toContain("continuing: todos: 3 to-dos are still open: Read the code. Work on it, then update the list.");
    expect(events(r.stdout).filter((e) => e.type === "turn_end")).toEqual([expect.objectContaining({ reason: "end_turn" })]);
    const reqs = recorded(sb);
    expect(reqs).toHaveLength(3);
    // the directive is in the system prompt, the tool is offered, and the continuation note names the open work
    expect(reqs[0]!.system.join("\n")).toContain("Use a todo list for work with three or more distinct steps");
    expect(reqs[0]!.tools).toContain("todo_write");
    expect(notesOf(reqs[2]!).some((n) => n.includes("[continued by todos] 3 to-dos are still open"))).toBe(true);
    const id = sessionOf(r.stdout);
    expect(sessionMd(sb, id)).toContain("## Plan\n\n- [x] Read the code\n- [x] Fix the bug\n- [-] Run the tests\n");
    expect(atif(sb, id).extra.todos).toEqual({
      items: [
        { content: "Read the code", status: "completed", by: "model" },
        { content: "Fix the bug", status: "completed", by: "model" },
        { content: "Run the tests", status: "cancelled", by: "model" },
      ],
      planned: true,
      floor: false,
    });
    const md = runCli(["--dir", sb.project, "export", "--md", id], { env: sb.env });
    expect(md.code, md.stderr).toBe(0);
    expect(md.stdout.endsWith("## Plan\n\n- [x] Read the code\n- [x] Fix the bug\n- [-] Run the tests\n")).toBe(true);
  }, 60_000);

  it("a ```todo block alone writes the list (Claude Code's three statuses and OpenCode's shape are accepted by the tool)", () => {
    sb = makeSandbox("oc-todos-");
    script(sb, [
      { text: "Plan:\n```todo\n- [x] one\n- [~] two\n- [ ] three\n```", tool_calls: [{ name: "ls", input: {} }] },
      { text: "now the tool", tool_calls: [{ name: "todo_write", input: { todos: [{ id: "1", content: "one", status: "completed", priority: "high" }, { id: "2", content: "two", status: "completed", priority: "low" }, { id: "3", content: "three", status: "in_progress", priority: "medium" }] } }] },
      { text: "done", tool_calls: [{ name: "todo_write", input: { todos: [{ content: "one", status: "completed" }, { content: "two", status: "completed" }, { content: "three", status: "completed" }] } }] },
      { text: "finished" },
    ]);
    const r = run(sb, ["--model", "scripted/s.json", "three things"]);
    expect(r.code, r.stderr).toBe(0);
    const ends = events(r.stdout).filter((e) => e.type === "tool_call_end") as Array<Ev & { result: { content: string; isError: boolean } }>;
    expect(ends.filter((e) => e.result.content.startsWith("Todo list updated")).map((e) => e.result.isError)).toEqual([false, false]);
    // the OpenCode-shaped call (id, priority ignored) replaced the block's list; its result echoes the new list
    expect(ends[1]!.result.content).toBe("Todo list updated (3 items, 1 open):\n- [x] one\n- [x] two\n- [~] three");
    expect(notices(r.stdout).filter((n) => n.startsWith("continuing"))).toEqual([]);
    const id = sessionOf(r.stdout);
    expect(atif(sb, id).extra.todos?.items.map((i) => `${i.status}:${i.content}`)).toEqual(["completed:one", "completed:two", "completed:three"]);
  }, 60_000);

  it("the floor: a plain answer's list is the prompt, one row by 'floor'; no reminder, no work-off", () => {
    sb = makeSandbox("oc-todos-");
    const r = run(sb, ["--model", "scripted/echo", "what is 2 + 2?\nanswer briefly"]);
    expect(r.code, r.stderr).toBe(0);
    const reqs = recorded(sb);
    expect(reqs).toHaveLength(1);
    expect(notesOf(reqs[0]!).filter((n) => n.includes("todos reminder"))).toEqual([]);
    const id = sessionOf(r.stdout);
    expect(atif(sb, id).extra.todos).toEqual({ items: [{ content: "what is 2 + 2?", status: "completed", by: "floor" }], planned: false, floor: true });
    expect(sessionMd(sb, id)).toContain("## Plan\n\n- [x] what is 2 + 2?\n(the prompt: the model has not planned yet)");
  }, 60_000);

  it("twelve tool calls with no plan: the 13th request carries the reminder, the 12 before it do not; once planned the floor never comes back", () => {
    sb = makeSandbox("oc-todos-");
    script(sb, [{ repeat: 13, text: "looking {{n}}", tool_calls: [{ name: "ls", input: {} }] }, write3, { text: "```todo\n- [x] Read the code\n- [x] Fix the bug\n- [x] Run the tests\n```" }]);
    const r = run(sb, ["--model", "scripted/s.json", "look around"]);
    expect(r.code, r.stderr).toBe(0);
    const reqs = recorded(sb);
    const reminded = reqs.map((q) => notesOf(q).some((n) => n.startsWith("[todos reminder] You have made 12 tool calls without a todo list")));
    expect(reminded.slice(0, 12)).toEqual(Array(12).fill(false));
    // the 13th request has it, and later requests keep it in the same place (anchored, cache-stable)
    expect(reminded.slice(12)).toEqual(Array(reqs.length - 12).fill(true));
    const id = sessionOf(r.stdout);
    const t = atif(sb, id).extra.todos!;
    expect(t).toMatchObject({ planned: true, floor: false });
    expect(t.items.every((i) => i.by === "model")).toBe(true);
    // a later prompt on the same session: no floor (the model planned)
    const again = run(sb, ["--continue", "--model", "scripted/echo", "and now?"]);
    expect(again.code, again.stderr).toBe(0);
    expect(atif(sb, id).extra.todos).toMatchObject({ planned: true, floor: false, items: [{ content: "Read the code" }, { content: "Fix the bug" }, { content: "Run the tests" }] });
  }, 90_000);

  it("the example (examples/todos/plan.json) plans, is worked off once, and ends with its list done", () => {
    sb = makeSandbox("oc-todos-");
    sb.write("plan.json", fs.readFileSync(path.join(REPO_ROOT, "examples", "todos", "plan.json"), "utf8"));
    const r = run(sb, ["--model", "scripted/plan.json", "what is this project?"]);
    expect(r.code, r.stderr).toBe(0);
    expect(notices(r.stdout).filter((n) => n.startsWith("continuing: todos:"))).toEqual(["continuing: todos: 3 to-dos are still open: List the project files. Work on it, then update the list."]);
    expect(atif(sb, sessionOf(r.stdout)).extra.todos?.items.map((i) => i.status)).toEqual(["completed", "completed", "completed"]);
    const off = run(sb, ["--model", "scripted/plan.json", "what is this project?"], { OC_PLAN: "off" });
    expect(off.code, off.stderr).toBe(0);
    expect(events(off.stdout).filter((e) => e.type === "step_end")).toHaveLength(3);
  }, 60_000);

  it("no progress: two continued turns that change neither count stop the run cleanly (exit 0, 'Run stopped')", () => {
    sb = makeSandbox("oc-todos-");
    script(sb, [write3], { text: "thinking about it" });
    const r = run(sb, ["--model", "scripted/s.json", "fix the bug"]);
    expect(r.code, r.stderr).toBe(0);
    const ns = notices(r.stdout);
    expect(ns.filter((n) => n.startsWith("continuing: todos:"))).toHaveLength(2);
    expect(ns.find((n) => n.startsWith("Run stopped"))).toMatch(/^Run stopped: 2 continued turns changed neither the open \(3\) nor the completed \(0\) count \(no-progress guard\)$/);
    expect(recorded(sb)).toHaveLength(4);
    expect(events(r.stdout).filter((e) => e.type === "turn_end").at(-1)).toMatchObject({ reason: "end_turn" });
  }, 60_000);

  it("OC_PLAN=off: no directive, no reminder, no work-off; the tool still writes the list", () => {
    sb = makeSandbox("oc-todos-");
    script(sb, [{ repeat: 13, text: "looking {{n}}", tool_calls: [{ name: "ls", input: {} }] }, write3, { text: "stopping here" }]);
    const r = run(sb, ["--model", "scripted/s.json", "fix the bug"], { OC_PLAN: "off" });
    expect(r.code, r.stderr).toBe(0);
    const reqs = recorded(sb);
    expect(reqs).toHaveLength(15);
    expect(reqs.some((q) => q.system.join("\n").includes("Use a todo list for work"))).toBe(false);
    expect(reqs.some((q) => notesOf(q).some((n) => n.includes("todos reminder")))).toBe(false);
    expect(notices(r.stdout).filter((n) => n.startsWith("continuing"))).toEqual([]);
    expect(reqs[0]!.tools).toContain("todo_write");
    expect(atif(sb, sessionOf(r.stdout)).extra.todos?.items.map((i) => i.status)).toEqual(["in_progress", "pending", "pending"]);
  }, 60_000);

  it("the list survives --continue: the open rows of the first run are worked off in the next", () => {
    sb = makeSandbox("oc-todos-");
    script(sb, [write3, { text: "pausing" }, { text: "where was I?" }, { text: "resumed", tool_calls: [{ name: "todo_write", input: { todos: [{ content: "Read the code", status: "completed" }, { content: "Fix the bug", status: "completed" }, { content: "Run the tests", status: "completed" }] } }] }, { text: "all done" }]);
    const first = run(sb, ["--model", "scripted/s.json", "fix the bug"], { OC_PLAN: "off" });
    expect(first.code, first.stderr).toBe(0);
    const id = sessionOf(first.stdout);
    expect(atif(sb, id).extra.todos?.items.map((i) => i.status)).toEqual(["in_progress", "pending", "pending"]);
    const second = run(sb, ["--continue", "--model", "scripted/s.json", "go on"]);
    expect(second.code, second.stderr).toBe(0);
    expect(sessionOf(second.stdout)).toBe(id);
    // the stored list is what the second run starts from: its first settle is continued (3 open)
    expect(notices(second.stdout)).toContain("continuing: todos: 3 to-dos are still open: Read the code. Work on it, then update the list.");
    expect(atif(sb, id).extra.todos?.items.map((i) => i.status)).toEqual(["completed", "completed", "completed"]);
  }, 60_000);
});

/**
 * The todos pane in the real pager (compiled CLI in tmux): ctrl+t opens it (empty: "no plan yet") and
 * closes it; /help lists the key; the live list the model writes (todo_write), with a row added by /plan.
 */
import { describe, expect, it } from "vitest";
import { hasTmux, pause } from "../../../test/kit/pty.js";
import { pagerTests } from "../../../test/kit/pager-tests.js";

const { makeSandbox, openPager } = pagerTests();

describe.skipIf(!hasTmux())("pager: the todos pane", () => {
  it("ctrl+t opens the pane with its empty state and closes it; /help lists ctrl+t", async () => {
    const sb = makeSandbox("oc-pty-todos-");
    const t = openPager(sb, { OC_MODEL: "scripted/echo" }, [], { cols: 100, rows: 30 });
    await t.waitFor("❯");
    t.key("C-t");
    const open = await t.waitFor("ctrl+t hides");
    expect(open).toMatch(/│ todos · ctrl\+t hides/);
    expect(open).toMatch(/│ no plan yet/);
    // the composer still works under the pane
    t.send("hello");
    await pause(120);
    t.key("Enter");
    await t.waitFor("ok: hello");
    expect(await t.waitGone("working…")).toContain("ctrl+t hides");
    t.key("C-t");
    expect(await t.waitGone("ctrl+t hides")).not.toContain("no plan yet");
    t.send("/help");
    await pause(120);
    t.key("Enter");
    expect(await t.waitFor(/ctrl\+t\s+todos pane/, 10_000, { inHistory: true })).toMatch(/^ {2}ctrl\+t\s+todos pane/m);
  }, 60_000);

  it("shows the list the model wrote with todo_write, live, and a row added with /plan add marked as yours", async () => {
    const sb = makeSandbox("oc-pty-todos-live-");
    sb.write(
      "plan.json",
      JSON.stringify({
        steps: [
          {
            tool_calls: [
              {
                name: "todo_write",
                input: {
                  todos: [
                    { content: "Read the failing test", status: "completed", activeForm: "Reading the failing test" },
                    { content: "Fix the parser", status: "in_progress", activeForm: "Fixing the parser" },
                    { content: "Run the suite", status: "pending", activeForm: "Running the suite" },
                  ],
                },
              },
            ],
          },
          { text: "planned; stopping here" },
        ],
        after: { text: "(script finished)" },
      }),
    );
    const t = openPager(sb, { OC_MODEL: "scripted/plan.json", OC_PLAN: "off" }, [], { cols: 100, rows: 30 });
    await t.waitFor("❯");
    t.send("fix the parser bug");
    await pause(120);
    t.key("Enter");
    await t.waitFor("planned; stopping here");
    await t.waitGone("working…");
    t.key("C-t");
    const pane = await t.waitFor("Fixing the parser");
    expect(pane).toMatch(/todos 1\/3/);
    expect(pane).toContain("☑ Read the failing test");
    expect(pane).toContain("▶ Fixing the parser");
    expect(pane).toContain("☐ Run the suite");
    t.send("/plan add Update the changelog");
    await pause(120);
    t.key("Enter");
    const after = await t.waitFor("Update the changelog (you)");
    expect(after).toMatch(/todos 1\/4/);
  }, 60_000);
});

/**
 * /plan in the real pager (compiled CLI in tmux): a row added while the session is idle picks the work back
 * up (the pager host's prompt()), the echo model never ticks it off, so the work-off continues it and the
 * engine's no-progress guard stops the run with a "Run stopped" notice; /plan list shows the row.
 */
import { describe, expect, it } from "vitest";
import { hasTmux, typeLine } from "../../../test/kit/pty.js";
import { pagerTests } from "../../../test/kit/pager-tests.js";

const { makeSandbox, openPager } = pagerTests();

describe("/plan in the pager", () => {
  it.runIf(hasTmux())("a row added while idle starts one more run; with no progress it stops cleanly ('Run stopped')", async () => {
    const sb = makeSandbox("oc-todos-pager-");
    const t = openPager(sb, { OC_MODEL: "scripted/echo" }, [], { cols: 120, rows: 40 });
    await t.waitFor("❯");
    await typeLine(t, "hello");
    await t.waitFor("ok: hello");
    await t.waitGone("working…");
    await typeLine(t, "/plan add write the docs");
    await t.waitFor("1. [ ] write the docs  (you)");
    // the continuation prompt, answered by the echo model
    await t.waitFor('ok: I added a to-do to the plan: "write the docs"');
    const stopped = await t.waitFor("Run stopped");
    expect(stopped).toContain("no-progress guard");
    await t.waitGone("working…");
    await typeLine(t, "/plan list");
    expect(await t.waitFor("plan (1 open):")).toContain("1. [ ] write the docs  (you)");
  }, 60_000);
});

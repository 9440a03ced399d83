/**
 * The todos pane in the real pager (compiled CLI in tmux): ctrl+t opens it (empty: "no plan yet") and
 * closes it; /help lists the key. With the todos extension merged this test grows the live list.
 */
import { afterEach, describe, expect, it } from "vitest";
import { makeSandbox, type Sandbox } from "../helpers/cli.js";
import { closePager, hasTmux, openPager, type Pty } from "../helpers/pty.js";

let sb: Sandbox | undefined;
let t: Pty | undefined;
afterEach(async () => {
  await closePager(t, sb);
  t = undefined;
  sb = undefined;
});

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.skipIf(!hasTmux())("pager: the todos pane", () => {
  it("ctrl+t opens the pane with its empty state and closes it; /help lists ctrl+t", async () => {
    sb = makeSandbox("oc-pty-todos-");
    t = openPager(sb, { OC_MODEL: "scripted/echo" }, [], { cols: 100, rows: 30 });
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
    expect(await t.waitFor("ctrl+t todos pane", 10_000, { inHistory: true })).toContain("ctrl+t todos pane");
  }, 60_000);
});

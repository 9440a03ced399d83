/**
 * The bounds in the real pager (compiled CLI in tmux): the status bar shows `$spent / $cap` from
 * OC_MAX_USD, and /limits shows and sets the session's spend and clock bounds (over the environment).
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
async function type(p: Pty, text: string): Promise<void> {
  p.send(text);
  await pause(120);
  p.key("Enter");
}

describe("bounds in the pager", () => {
  it("tmux is here, so the pager test below runs", () => {
    expect(hasTmux()).toBe(true);
  });

  it.runIf(hasTmux())("the status bar shows $spent / $cap; /limits shows the bounds and sets them over the environment", async () => {
    sb = makeSandbox("oc-bounds-pager-");
    t = openPager(sb, { OC_MODEL: "scripted/echo", OC_MAX_USD: "5" }, [], { cols: 100, rows: 30 });
    await t.waitFor("❯");
    await type(t, "hello");
    await t.waitFor("ok: hello");
    const bar = await t.waitGone("working…");
    expect(bar).toContain("$0.00 / $5.00");
    await type(t, "/limits");
    const shown = await t.waitFor("clock     none");
    expect(shown).toContain("spend     $0.00 / $5.00 (from the environment)");
    await type(t, "/limits usd 2 time 30");
    const set = await t.waitFor("30 min per run");
    expect(set).toMatch(/spend {5}\$0\.00 \/ \$2\.00\n/);
    await type(t, "/limits usd nope");
    expect(await t.waitFor("usd must be a number above 0 or off")).toContain("usage: /limits");
    await type(t, "again");
    await t.waitFor("ok: again");
    expect(await t.waitGone("working…")).toContain("$0.00 / $2.00");
  }, 60_000);
});

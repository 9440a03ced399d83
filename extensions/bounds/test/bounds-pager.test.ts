/**
 * The bounds in the real pager (compiled CLI in tmux): the status bar shows `$spent / $cap` from
 * OC_MAX_USD, and /limits shows and sets the session's spend and clock bounds (over the environment).
 */
import { describe, expect, it } from "vitest";
import { runCli } from "../../../test/kit/cli.js";
import { hasTmux, pause, typeLine } from "../../../test/kit/pty.js";
import { pagerTests } from "../../../test/kit/pager-tests.js";

const { makeSandbox, openPager } = pagerTests();

describe("bounds in the pager", () => {
  it("tmux is here, so the pager test below runs", () => {
    expect(hasTmux()).toBe(true);
  });

  it.runIf(hasTmux())("the status bar shows $spent / $cap; /limits shows the bounds and sets them over the environment", async () => {
    const sb = makeSandbox("oc-bounds-pager-");
    const t = openPager(sb, { OC_MODEL: "scripted/echo", OC_MAX_USD: "5" }, [], { cols: 100, rows: 30 });
    await t.waitFor("❯");
    await typeLine(t, "hello");
    await t.waitFor("ok: hello");
    const bar = await t.waitGone("working…");
    expect(bar).toContain("$0.00 / $5.00");
    await typeLine(t, "/limits");
    const shown = await t.waitFor("clock     none");
    expect(shown).toContain("spend     $0.00 / $5.00 (from the environment)");
    await typeLine(t, "/limits usd 2 time 30");
    const set = await t.waitFor("30 min per run");
    expect(set).toMatch(/spend {5}\$0\.00 \/ \$2\.00\n/);
    await typeLine(t, "/limits usd nope");
    expect(await t.waitFor("usd must be a number above 0 or off")).toContain("usage: /limits");
    await typeLine(t, "again");
    await t.waitFor("ok: again");
    expect(await t.waitGone("working…")).toContain("$0.00 / $2.00");
  }, 60_000);

  it.runIf(hasTmux())("a bound set with /limits is stored on the session: run --continue keeps it", async () => {
    const sb = makeSandbox("oc-bounds-pager-");
    const t = openPager(sb, { OC_MODEL: "scripted/echo" }, [], { cols: 100, rows: 30 });
    await t.waitFor("❯");
    await typeLine(t, "hello");
    await t.waitFor("ok: hello");
    await t.waitGone("working…");
    await typeLine(t, "/limits time 0.005");
    await t.waitFor("0.3s per run");
    await typeLine(t, "/exit");
    for (let waited = 0; t.alive() && waited < 15_000; waited += 50) await pause(50);
    expect(t.exitStatus()).toBe(0);
    sb.write("s.json", JSON.stringify({ steps: [{ repeat: 30, text: "step {{n}}", delay_ms: 100, tool_calls: [{ name: "nope", input: {} }] }, { text: "finished" }] }));
    const r = runCli(["--dir", sb.project, "run", "--format", "json", "--continue", "--model", "scripted/s.json", "more"], { env: sb.env });
    expect(r.code, r.stderr).toBe(0);
    const turnEnd = r.stdout.trim().split("\n").map((l) => JSON.parse(l) as { type: string; stopped_by?: string }).filter((e) => e.type === "turn_end").at(-1);
    expect(turnEnd).toMatchObject({ stopped_by: "time" });
  }, 60_000);
});

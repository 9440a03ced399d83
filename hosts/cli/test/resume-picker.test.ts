/**
 * `oceancode -r` with no id: the picker over this directory's sessions in a real PTY (tmux). Arrows and
 * enter open the second one in the pager; typing filters; esc leaves with exit 0 and no new session.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeSandbox, runCli, type Sandbox } from "../../../test/kit/cli.js";
import { hasTmux, openPager, pause, type Pty } from "../../../test/kit/pty.js";
import { PickerModel } from "../../pager/resume-picker.js";

let sb: Sandbox;
const ids: string[] = [];

async function exited(p: Pty, timeoutMs = 15_000): Promise<number | undefined> {
  const deadline = Date.now() + timeoutMs;
  while (p.alive() && Date.now() < deadline) await pause(50);
  return p.exitStatus();
}
const env = { OC_MODEL: "scripted/echo" };
const stored = () => JSON.parse(runCli(["sessions", "--json"], { cwd: sb.project, env: sb.env }).stdout) as Array<{ id: string }>;

describe("the picker's keys (PickerModel)", () => {
  it("arrows move within the list, typing filters and resets the pick, enter picks, esc quits", () => {
    const m = new PickerModel([
      { id: "ses_b", title: "second talk", updatedAt: 2, turns: 1 },
      { id: "ses_a", title: "first talk", updatedAt: 1, turns: 3 },
    ]);
    expect(m.key("\x1b[A")).toBeUndefined();
    expect(m.index).toBe(0);
    m.key("\x1b[B");
    m.key("\x1b[B");
    expect(m.index).toBe(1);
    expect(m.key("\r")).toEqual({ pick: "ses_a" });
    for (const k of "sec") m.key(k);
    expect(m.index).toBe(0);
    expect(m.shown().map((s) => s.id)).toEqual(["ses_b"]);
    m.key("\x7f");
    m.key("\x7f");
    m.key("\x7f");
    expect(m.shown()).toHaveLength(2);
    for (const k of "zzz") m.key(k);
    expect(m.key("\r")).toBeUndefined();
    expect(m.key("\x1b")).toBe("quit");
  });
});

describe.skipIf(!hasTmux())("oceancode -r: the session picker in a real terminal", () => {
  beforeAll(() => {
    sb = makeSandbox("oc-picker-");
    for (const text of ["alpha question", "beta question"]) {
      const r = runCli(["run", "--format", "json", "-m", "scripted/echo", text], { cwd: sb.project, env: sb.env });
      expect(r.code, r.stderr).toBe(0);
      ids.push((JSON.parse(r.stdout.split("\n")[0]!) as { sessionId: string }).sessionId);
    }
  });
  afterAll(() => sb.cleanup());

  it("lists title, age and turns newest first; down + enter opens the second (the older) in the pager", async () => {
    const t = openPager(sb, env, ["-r"]);
    try {
      const screen = await t.waitFor("Resume a session", 20_000);
      const rows = screen.split("\n").filter((l) => l.includes("ses_"));
      expect(rows[0]).toMatch(/^› beta question {2}· \d+[smhd] ago · 1 turn · ses_/);
      expect(rows[1]).toMatch(/^ {2}alpha question {2}· \d+[smhd] ago · 1 turn · ses_/);
      t.key("Down");
      await t.waitFor(/› alpha question/);
      t.key("Enter");
      // the pager on the picked session: its rows are shown again, and its id is the one picked
      await t.waitFor("ok: alpha question", 20_000);
      expect(t.screen()).not.toContain("beta question");
      t.send("/exit");
      await pause(120);
      t.key("Enter");
      expect(await exited(t)).toBe(0);
      expect(t.history()).toContain(ids[0]!);
    } finally {
      t.close();
    }
  });

  it("typing filters the list; esc leaves with exit 0 and opens no session", async () => {
    const before = stored().length;
    const t = openPager(sb, env, ["-r"]);
    try {
      await t.waitFor("Resume a session", 20_000);
      t.send("beta");
      await t.waitFor("filter: beta");
      const rows = t.screen().split("\n").filter((l) => l.includes("ses_"));
      expect(rows).toHaveLength(1);
      expect(rows[0]).toContain("beta question");
      t.key("Escape");
      expect(await exited(t)).toBe(0);
      expect(stored().length).toBe(before);
    } finally {
      t.close();
    }
  });
});

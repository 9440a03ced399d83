/**
 * The pure parts of the pager's chrome: the progress clock and token count, the mode cycle against a real
 * permissions decision shape, /help's layout to the width, the notification rule, the header and exit texts.
 */
import { describe, expect, it } from "vitest";
import type { Session, SessionEvent } from "../../../extensions/engine/api.js";
import { fmtElapsed, progressText, TurnProgress } from "../progress.js";
import { BYPASS_LOCKED, PagerModes } from "../modes.js";
import { layoutTable, wrapWords } from "../help-layout.js";
import { notification, notifySettings } from "../focus.js";
import { exitHint, headerText } from "../chrome-text.js";
import { fmtTokens } from "../format.js";

const ev = (e: Record<string, unknown>): SessionEvent => ({ sessionId: "s", ...e }) as unknown as SessionEvent;

describe("turn progress", () => {
  it("counts elapsed from the keypress, estimates streaming tokens, then takes the step's reported figure; names the running tool", () => {
    let now = 1_000;
    const p = new TurnProgress(() => now);
    p.begin();
    p.apply(ev({ type: "turn_start", turn: 1, text: "x" }));
    p.apply(ev({ type: "text_delta", text: "a".repeat(40) }));
    now = 4_500;
    expect(p.outputTokens()).toBe(10);
    expect(progressText(p, fmtTokens)).toBe("working… 3s · ↓ 10 tokens");
    p.apply(ev({ type: "step_end", turn: 1, step: 1, usage: { inputTokens: 1, outputTokens: 7, cacheReadTokens: 0, cacheWriteTokens: 0 }, gaugeTokens: 8 }));
    expect(p.outputTokens()).toBe(7);
    p.apply(ev({ type: "tool_call_start", call: { id: "c1", name: "bash", input: {} } }));
    p.apply(ev({ type: "tool_call_start", call: { id: "c2", name: "read", input: {} } }));
    now = 6_500;
    expect(progressText(p, fmtTokens)).toBe("working… 5s · ↓ 7 tokens · bash 2s (+1 more)");
    p.apply(ev({ type: "tool_call_end", call: { id: "c1", name: "bash", input: {} }, result: { content: "", isError: false } }));
    expect(p.runningTool()?.name).toBe("read");
    p.end();
    expect(p.lastEnded?.ms).toBe(5_500);
    expect(p.elapsedMs()).toBe(0);
    expect(fmtElapsed(75_000)).toBe("1m 15s");
  });
});

function fakeSession(): Session {
  return { info: { id: "s", overrides: {} } } as unknown as Session;
}

/** What the permissions extension does with a mode override (modeOf/resolveMode), with the lock switchable. */
function permissions(locked: boolean) {
  const resolveMode = (m: string) => (locked && m === "bypassPermissions" ? { mode: "default" as const, note: "bypassPermissions is disabled by /etc/req.json; using default" } : { mode: m as "default" });
  return { resolveMode, modeOf: (o?: Record<string, unknown>) => resolveMode(typeof o?.permission_mode === "string" ? o.permission_mode : "default").mode };
}
function planMode() {
  return { enter: async (s: Session) => void (s.info.overrides.agent = "plan"), active: (s: Session | string) => typeof s !== "string" && s.info.overrides.agent === "plan" };
}

describe("modes", () => {
  it("shift+tab: default → acceptEdits → plan → default; with cycle_bypass, bypassPermissions before default", async () => {
    const s = fakeSession();
    const m = new PagerModes({ permissions: permissions(false), planMode: planMode(), cycleBypass: false });
    expect((await m.cycle(s)).mode).toBe("acceptEdits");
    expect(s.info.overrides.permission_mode).toBe("acceptEdits");
    expect((await m.cycle(s)).mode).toBe("plan");
    expect((await m.cycle(s)).mode).toBe("default");
    expect(s.info.overrides.agent).toBeUndefined();
    const m2 = new PagerModes({ permissions: permissions(false), planMode: planMode(), cycleBypass: true });
    await m2.cycle(s);
    await m2.cycle(s);
    expect((await m2.cycle(s)).mode).toBe("bypassPermissions");
    expect((await m2.cycle(s)).mode).toBe("default");
  });

  it("a lock: the cycle skips bypass and says so with the file; ctrl+o refuses and changes nothing", async () => {
    const s = fakeSession();
    const m = new PagerModes({ permissions: permissions(true), planMode: planMode(), cycleBypass: true });
    await m.cycle(s);
    await m.cycle(s);
    const back = await m.cycle(s);
    expect(back.mode).toBe("default");
    expect(back.message).toContain(`${BYPASS_LOCKED} (/etc/req.json)`);
    await m.toggleAuto(s);
    const refused = await m.toggleAlwaysApprove(s);
    expect(refused).toEqual({ mode: "acceptEdits", message: `${BYPASS_LOCKED} (/etc/req.json)` });
    expect(s.info.overrides.permission_mode).toBe("acceptEdits");
  });

  it("toggles: /auto and ctrl+o go back to default when on; no plan-mode service: plan is not a stop", async () => {
    const s = fakeSession();
    const m = new PagerModes({ permissions: permissions(false), cycleBypass: false });
    expect((await m.toggleAlwaysApprove(s)).mode).toBe("bypassPermissions");
    expect((await m.toggleAlwaysApprove(s)).mode).toBe("default");
    expect((await m.toggleAuto(s)).mode).toBe("acceptEdits");
    expect((await m.cycle(s)).mode).toBe("default");
  });
});

describe("/help laid out to the width", () => {
  it("wraps the right column within itself; every row fits", () => {
    const rows = layoutTable([{ title: "Keys", rows: [["shift+tab", "cycle modes: default → auto (edits run without asking) → plan"], ["ctrl+o", "always-approve on/off"]] }], 40);
    expect(rows[0]).toEqual({ kind: "title", text: "Keys" });
    const lines = rows.slice(1).map((r) => (r.kind === "row" ? r.left + r.right : ""));
    expect(lines.length).toBeGreaterThan(2);
    for (const l of lines) {
      expect(l.length).toBeLessThanOrEqual(40);
      expect(l.startsWith("  ")).toBe(true);
    }
    // continuation rows leave the left column blank
    expect(lines[1]!.slice(0, 13).trim()).toBe("");
    expect(wrapWords("aaaaaaaaaa bb", 4)).toEqual(["aaaa", "aaaa", "aa", "bb"]);
  });
});

describe("notification", () => {
  const base = { kind: "auto" as const, afterS: 30, turnMs: 31_000, inTmux: false, text: "done" };
  it("rings only for a long turn while unfocused; auto is off in tmux; osc9 carries clean text", () => {
    expect(notification({ ...base, focused: false })).toBe("\x07");
    expect(notification({ ...base, focused: true })).toBe("");
    expect(notification({ ...base, focused: undefined })).toBe("");
    expect(notification({ ...base, focused: false, turnMs: 29_000 })).toBe("");
    expect(notification({ ...base, focused: false, inTmux: true })).toBe("");
    expect(notification({ ...base, kind: "bell", focused: false, inTmux: true })).toBe("\x07");
    expect(notification({ ...base, kind: "osc9", focused: false, text: "a\x1b]b\x07" })).toBe("\x1b]9;a ]b \x07");
    expect(notifySettings({ notify: "loud", notify_after_s: -1 })).toEqual({ kind: "auto", afterS: 30 });
  });
});

describe("start and end texts", () => {
  it("the header names version, model, folder under ~ and trust; the exit hint only for a stored session", () => {
    const h = headerText({ version: "1.2.3", model: "anthropic/x", folder: "/home/u/p", home: "/home/u", trusted: false });
    expect(h.split("\n")).toEqual(["oceancode 1.2.3 · anthropic/x", "~/p · not trusted: the repo's settings only tighten (oceancode trust)", "? for keys · / for commands · shift+tab modes"]);
    expect(exitHint("ses_1", false)).toBeUndefined();
    expect(exitHint("ses_1", true)).toBe("session ses_1\ncontinue with: oceancode -c   or: oceancode --resume ses_1");
  });
});

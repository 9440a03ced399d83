/**
 * Pager components with ink-testing-library, driven by hand-built SessionEvent sequences (the same
 * events the engine emits). The actions object stands in for the host (the PTY tests run the real one).
 */
import React from "react";
import { afterEach, describe, expect, it } from "vitest";
import { render } from "ink-testing-library";
import { PagerApp, type PagerActions } from "../components/app.js";
import { PagerStore } from "../store.js";
import type { MeterView } from "../format.js";
import type { Answer, SessionEvent } from "../../../extensions/engine/api.js";

const SID = "s1";
const tick = (ms = 30) => new Promise((r) => setTimeout(r, ms));

function meter(over: Partial<MeterView> = {}): MeterView {
  return { model: "scripted/echo", contextUsed: 42_000, contextWindow: 200_000, tideline: { on: true, percent: 40, lineTokens: 80_000, toGo: 38_000 }, inputTokens: 1200, outputTokens: 300, spentUsd: 0.12, ...over };
}

function harness(opts: { color?: boolean; meter?: MeterView } = {}) {
  const store = new PagerStore();
  store.sessionId = SID;
  const calls = { submitted: [] as string[], aborts: 0, exits: 0 };
  const actions: PagerActions = {
    submit: (t) => void calls.submitted.push(t),
    abort: () => void calls.aborts++,
    exit: () => void calls.exits++,
    slashCommands: () => [
      { name: "clear", summary: "start a new session" },
      { name: "context", summary: "the session meter" },
      { name: "help", summary: "list slash commands and keys" },
      { name: "models", summary: "pick the model" },
      { name: "tideline", usage: "/tideline <pct>%", summary: "set the tideline" },
    ],
    meter: () => opts.meter ?? meter(),
  };
  const app = render(<PagerApp store={store} actions={actions} color={opts.color ?? false} />);
  const ev = (e: Record<string, unknown> & { type: SessionEvent["type"] }) => store.apply({ sessionId: SID, ...e } as SessionEvent);
  return { store, calls, app, ev };
}

let cleanup: (() => void) | undefined;
afterEach(() => {
  cleanup?.();
  cleanup = undefined;
});

describe("pager transcript", () => {
  it("streams text, then shows tool calls with their input and a collapsed output", async () => {
    const h = harness();
    cleanup = h.app.unmount;
    h.ev({ type: "turn_start", turn: 1, text: "hi" });
    h.ev({ type: "text_delta", text: "Let me " });
    h.ev({ type: "text_delta", text: "look." });
    await tick();
    expect(h.app.lastFrame()).toContain("Let me look.");
    const call = { id: "c1", name: "bash", input: { command: "ls -la" } };
    h.ev({ type: "tool_call_start", call });
    await tick();
    expect(h.app.lastFrame()).toContain("$ ls -la");
    expect(h.app.lastFrame()).toContain("running…");
    h.ev({ type: "tool_call_end", call, result: { callId: "c1", name: "bash", content: "a\nb\nc\nd\ne\nf", isError: false } });
    h.ev({ type: "step_end", turn: 1, step: 1, usage: { inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0 }, gaugeTokens: 100 });
    await tick();
    const f = h.app.frames.join("\n");
    expect(f).toContain("⎿ a");
    expect(f).toContain("+3 lines (ctrl+r to expand)");
    expect(f).not.toContain("⎿ d");
    h.ev({ type: "notice", level: "error", text: "provider exploded" });
    h.ev({ type: "turn_end", turn: 1, reason: "error", text: "" });
    await tick();
    expect(h.app.frames.join("\n")).toContain("✗ provider exploded");
    expect(h.store.busy).toBe(false);
  });

  it("ctrl+r opens the full output of the last tool call; esc closes it", async () => {
    const h = harness();
    cleanup = h.app.unmount;
    const call = { id: "c1", name: "read", input: { path: "big.txt" } };
    h.ev({ type: "tool_call_start", call });
    h.ev({ type: "tool_call_end", call, result: { callId: "c1", name: "read", content: Array.from({ length: 12 }, (_, i) => `line-${i}`).join("\n"), isError: false } });
    await tick();
    h.app.stdin.write("\x12"); // ctrl+r
    await tick();
    expect(h.app.lastFrame()).toContain("line-9");
    expect(h.app.lastFrame()).toContain("output 1/1");
    h.app.stdin.write("\x1b");
    await tick(60);
    expect(h.app.lastFrame()).not.toContain("output 1/1");
  });

  it("keeps finished items out of the live area (rendered once in <Static>)", async () => {
    const h = harness();
    cleanup = h.app.unmount;
    for (let i = 0; i < 50; i++) {
      h.ev({ type: "text_delta", text: `answer-${i}` });
      h.ev({ type: "step_end", turn: 1, step: i, usage: { inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0 }, gaugeTokens: 1 });
    }
    await tick();
    const before = h.store.done.view();
    const frames = h.app.frames.length;
    h.ev({ type: "text_delta", text: "streaming-now" });
    h.ev({ type: "text_delta", text: " more" });
    await tick();
    expect(h.app.lastFrame()).toContain("streaming-now more");
    // per token: the finished list is the same object, so <Static> renders nothing again
    expect(h.store.done.view()).toBe(before);
    expect(h.store.done.length).toBe(50);
    expect(h.app.frames.length).toBeGreaterThan(frames);
    // the new frame's live part holds only the streaming text (testing-library frames prepend static output once)
    expect(h.store.liveText).toBe("streaming-now more");
  });
});

describe("composer", () => {
  it("sends on enter, makes a newline with \\ + enter, browses history with up", async () => {
    const h = harness();
    cleanup = h.app.unmount;
    await tick();
    h.app.stdin.write("first line\\");
    await tick();
    h.app.stdin.write("\r");
    await tick();
    h.app.stdin.write("second");
    await tick();
    expect(h.calls.submitted).toEqual([]);
    h.app.stdin.write("\r");
    await tick();
    expect(h.calls.submitted).toEqual(["first line\nsecond"]);
    h.app.stdin.write("\x1b[A"); // up: history
    await tick();
    expect(h.app.lastFrame()).toContain("second");
  });

  it("/ opens the completion popup, typing filters it, enter runs the selection", async () => {
    const h = harness();
    cleanup = h.app.unmount;
    await tick();
    h.app.stdin.write("/");
    await tick();
    let f = h.app.lastFrame() ?? "";
    expect(f).toContain("/models");
    expect(f).toContain("/tideline");
    h.app.stdin.write("mo");
    await tick();
    f = h.app.lastFrame() ?? "";
    expect(f).toContain("/models");
    expect(f).not.toContain("/tideline");
    h.app.stdin.write("\r");
    await tick();
    expect(h.calls.submitted).toEqual(["/models"]);
  });

  it("one esc stops a running turn; a second (the spec's esc esc) is harmless", async () => {
    const h = harness();
    cleanup = h.app.unmount;
    h.ev({ type: "turn_start", turn: 1, text: "long" });
    await tick();
    h.app.stdin.write("\x1b");
    await tick(60);
    expect(h.calls.aborts).toBe(1);
    expect(h.app.lastFrame()).toContain("stopping…");
    h.app.stdin.write("\x1b");
    await tick(60);
    expect(h.calls.aborts).toBe(1);
  });
});

describe("permission prompt", () => {
  for (const [key, answer] of [["y", "once"], ["a", "always"], ["n", "reject"]] as const) {
    it(`shows tool, command and rule; '${key}' answers ${answer}`, async () => {
      const h = harness();
      cleanup = h.app.unmount;
      let got: Answer | undefined;
      h.store.question = { question: { sessionId: SID, tool: "bash", subject: "git push --force", reason: "matched an ask rule", rule: "bash * ask" }, resolve: (a) => (got = a) };
      h.store.changed();
      await tick();
      const f = h.app.lastFrame() ?? "";
      expect(f).toContain("Allow bash?");
      expect(f).toContain("git push --force");
      expect(f).toContain("why: matched an ask rule (rule: bash * ask)");
      expect(f).toContain("once");
      h.app.stdin.write(key);
      await tick();
      expect(got).toBe(answer);
      expect(h.app.lastFrame()).not.toContain("Allow bash?");
    });
  }
});

describe("status bar", () => {
  it("shows model, context in plain words (percent of the window), the gauge with the tideline mark, tokens and spend", async () => {
    const h = harness({ meter: meter({ capUsd: 5 }) });
    cleanup = h.app.unmount;
    await tick();
    const f = h.app.lastFrame() ?? "";
    expect(f).toContain("scripted/echo");
    expect(f).toContain("context 21% · 200k window");
    // the tideline's own words are /context's (finding 55); the gauge marks where it is
    expect(f).not.toContain("tideline @");
    expect(f).toMatch(/[█░]*┃[█░]*/);
    expect(f).toContain("↑1.2k ↓300");
    expect(f).toContain("$0.12 / $5.00");
  });

  it("without the ledger: no tideline mark in the gauge, and no colour when told so", async () => {
    const h = harness({ meter: meter({ tideline: { on: false } }), color: false });
    cleanup = h.app.unmount;
    await tick();
    const f = h.app.lastFrame() ?? "";
    expect(f).toContain("context 21% · 200k window");
    expect(f).not.toContain("┃");
    // no SGR colour codes (30-37, 90-97, 38;…)
    expect(f).not.toMatch(/\x1b\[(3[0-8]|9[0-7])[;m]/);
  });
});

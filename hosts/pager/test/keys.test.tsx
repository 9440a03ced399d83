/**
 * The pager's keys as terminals and automation send them (ink-testing-library; the PTY tests run the
 * real program): text and Enter in one chunk, bracketed paste, `/<known command>` on Enter whatever the
 * popup shows, and the pure helpers behind them.
 */
import React from "react";
import { EventEmitter } from "node:events";
import { afterEach, describe, expect, it } from "vitest";
import { render } from "ink-testing-library";
import { PagerApp, type PagerActions } from "../components/app.js";
import { PagerStore } from "../store.js";
import { knownCommand, splitTyped } from "../input.js";
import { PagerInput, PASTE_TOKEN } from "../tty-input.js";
import type { Answer } from "../../../extensions/engine/api.js";

const tick = (ms = 30) => new Promise((r) => setTimeout(r, ms));

function harness() {
  const store = new PagerStore();
  store.sessionId = "s1";
  const submitted: string[] = [];
  const aborts: number[] = [];
  const actions: PagerActions = {
    submit: (t) => void submitted.push(t),
    abort: () => void aborts.push(Date.now()),
    exit: () => undefined,
    slashCommands: () => [
      { name: "hello-world", summary: "a command that sorts before help" },
      { name: "help", summary: "list slash commands and keys" },
      { name: "helpful", summary: "another one starting with help" },
      { name: "models", summary: "pick the model" },
      { name: "review", usage: "[file]", summary: "review the change", skill: true },
    ],
    meter: () => ({ model: "scripted/echo", contextUsed: 0, contextWindow: 200_000, tideline: { on: false }, inputTokens: 0, outputTokens: 0, spentUsd: 0 }),
  };
  // the terminal -> PagerInput (takes bracketed pastes out) -> ink, as in the real host
  const tty = Object.assign(new EventEmitter(), { setEncoding: () => undefined, pause: () => undefined });
  const input = new PagerInput(tty);
  const app = render(<PagerApp store={store} actions={actions} color={false} pastes={input.pastes} />);
  input.on("data", (d: string) => app.stdin.write(d));
  const type = (s: string) => tty.emit("data", s);
  return { store, submitted, aborts, app, type, input };
}

let cleanup: (() => void) | undefined;
afterEach(() => {
  cleanup?.();
  cleanup = undefined;
});

describe("typing arrives in chunks", () => {
  it("text and Enter in one chunk submit", async () => {
    const h = harness();
    cleanup = h.app.unmount;
    await tick();
    h.type("hello\r");
    await tick();
    expect(h.submitted).toEqual(["hello"]);
    expect(h.app.lastFrame()).toContain("Type a message");
  });

  it("a control key in one chunk with the text after it is a key, not text (no ␔ in the message)", async () => {
    const h = harness();
    cleanup = h.app.unmount;
    await tick();
    h.type("\x14hello\r");
    for (const t0 = Date.now(); h.submitted.length === 0 && Date.now() - t0 < 5_000; ) await tick();
    expect(h.submitted).toEqual(["hello"]);
  });

  it("CR LF counts once; a lone LF (ctrl+j) is a newline", async () => {
    const h = harness();
    cleanup = h.app.unmount;
    await tick();
    h.type("a\nb\r\n");
    await tick();
    expect(h.submitted).toEqual(["a\nb"]);
  });

  it("text typed in two chunks before a render is all sent by the Enter that follows", async () => {
    const h = harness();
    cleanup = h.app.unmount;
    await tick();
    h.type("hel");
    h.type("lo\r");
    await tick();
    expect(h.submitted).toEqual(["hello"]);
  });

  it("the multi-line keys still work: \\ + enter, alt+enter", async () => {
    const h = harness();
    cleanup = h.app.unmount;
    await tick();
    h.type("one\\");
    await tick();
    h.type("\r");
    await tick();
    h.type("two");
    await tick();
    h.type("\x1b\r");
    await tick();
    h.type("three\r");
    await tick();
    expect(h.submitted).toEqual(["one\ntwo\nthree"]);
  });
});

describe("esc esc in one chunk", () => {
  it("two escapes that arrive together still stop the running turn", async () => {
    const h = harness();
    cleanup = h.app.unmount;
    h.store.apply({ type: "turn_start", sessionId: "s1", turn: 1, text: "long" });
    await tick();
    h.type("\x1b\x1b");
    await tick(120);
    expect(h.aborts.length).toBe(1);
    expect(h.app.lastFrame()).toContain("stopping…");
  });
});

describe("bracketed paste", () => {
  it("markers and body split across writes: inserted with newlines, not sent", async () => {
    const h = harness();
    cleanup = h.app.unmount;
    await tick();
    h.type("\x1b[200~line one\r");
    await tick();
    h.type("line two\rline three");
    await tick();
    h.type("\x1b[201~");
    await tick();
    expect(h.submitted).toEqual([]);
    const f = h.app.lastFrame() ?? "";
    expect(f).toContain("line one");
    expect(f).toContain("line three");
    h.type("\r");
    await tick();
    expect(h.submitted).toEqual(["line one\nline two\nline three"]);
  });

  it("escape sequences in pasted text show as text in the composer (and are sent as shown)", async () => {
    const h = harness();
    cleanup = h.app.unmount;
    await tick();
    h.type("\x1b[200~red \x1b[31mtext\x1b]0;title\x07\x1b[201~");
    await tick();
    expect(h.app.lastFrame()).toContain("red ␛[31mtext␛]0;title␇");
    h.type("\r");
    await tick();
    expect(h.submitted).toEqual(["red ␛[31mtext␛]0;title␇"]);
  });

  it("a paste does not answer a permission prompt", async () => {
    const h = harness();
    cleanup = h.app.unmount;
    let got: Answer | undefined;
    h.store.question = { question: { sessionId: "s1", tool: "bash", subject: "rm -rf build", reason: "ask rule" }, resolve: (a) => (got = a) };
    h.store.changed();
    await tick();
    h.type("\x1b[200~y\x1b[201~");
    await tick();
    expect(got).toBeUndefined();
    expect(h.app.lastFrame()).toContain("Allow bash?");
    h.type("n");
    await tick();
    expect(got).toBe("reject");
  });
});

describe("a typed /<known command> runs on Enter whatever the popup shows", () => {
  it("popup open on the same name, with another entry first in the list", async () => {
    const h = harness();
    cleanup = h.app.unmount;
    await tick();
    h.type("/help");
    await tick();
    h.type("\x1b[B"); // down: highlight moves to another entry
    await tick();
    expect(h.app.lastFrame()).toContain("❯ /helpful");
    h.type("\r");
    await tick();
    expect(h.submitted).toEqual(["/help"]);
  });

  it("popup closed with esc", async () => {
    const h = harness();
    cleanup = h.app.unmount;
    await tick();
    h.type("/help");
    await tick();
    h.type("\x1b");
    await tick(60);
    expect(h.app.lastFrame()).not.toContain("/helpful");
    h.type("\r");
    await tick();
    expect(h.submitted).toEqual(["/help"]);
  });

  it("in one chunk with Enter; a partial name still runs the highlighted entry", async () => {
    const h = harness();
    cleanup = h.app.unmount;
    await tick();
    h.type("/help\r");
    await tick();
    h.type("/mod");
    await tick();
    h.type("\r");
    await tick();
    expect(h.submitted).toEqual(["/help", "/models"]);
  });
});

describe("a skill in the / popup", () => {
  it("shows its argument hint; picking it fills the composer with `/<name> ` to type the arguments", async () => {
    const h = harness();
    cleanup = h.app.unmount;
    await tick();
    h.type("/rev");
    await tick();
    expect(h.app.lastFrame()).toMatch(/❯ \/review\s+\[file\] review the change/);
    h.type("\r");
    await tick();
    expect(h.submitted).toEqual([]);
    expect(h.app.lastFrame()).toContain("❯ /review");
    h.type("src/a.ts\r");
    await tick();
    expect(h.submitted).toEqual(["/review src/a.ts"]);
  });
});

describe("permission prompt", () => {
  it("names the rule `a` saves, before the answer; an ask without one says so", async () => {
    const h = harness();
    cleanup = h.app.unmount;
    h.store.question = { question: { sessionId: "s1", tool: "bash", subject: "git push origin main", reason: "ask rule", always: "bash git push origin main allow" }, resolve: () => undefined };
    h.store.changed();
    await tick();
    expect(h.app.lastFrame()).toContain("a = always allow: bash git push origin main");
    h.store.question = { question: { sessionId: "s1", tool: "probe", subject: "x", reason: "hook", always: "probe x deny" }, resolve: () => undefined };
    h.store.changed();
    await tick();
    expect(h.app.lastFrame()).toContain("a = always: probe x deny");
    h.store.question = { question: { sessionId: "s1", tool: "probe", subject: "x", reason: "hook" }, resolve: () => undefined };
    h.store.changed();
    await tick();
    expect(h.app.lastFrame()).toContain("a = always (no rule was offered to save)");
  });
});

describe("input helpers", () => {
  it("splitTyped: CR and CR LF are Enter, LF a newline", () => {
    expect(splitTyped("hi\r")).toEqual([{ kind: "text", text: "hi" }, { kind: "enter" }]);
    expect(splitTyped("a\r\nb\nc")).toEqual([{ kind: "text", text: "a" }, { kind: "enter" }, { kind: "text", text: "b" }, { kind: "newline" }, { kind: "text", text: "c" }]);
  });

  it("PagerInput: keys pass through; a paste becomes one token with its text queued verbatim", async () => {
    const tty = Object.assign(new EventEmitter(), { setEncoding: () => undefined, pause: () => undefined });
    const input = new PagerInput(tty);
    const got: string[] = [];
    input.on("data", (d: string) => got.push(d));
    tty.emit("data", "ab\x1b[A");
    tty.emit("data", "x\x1b[200~a\r\x1b[31mb\x1b[20");
    tty.emit("data", "1~y\x1b[200~second\x1b[201~\x1b");
    await tick();
    expect(got.join("")).toBe(`ab\x1b[Ax${PASTE_TOKEN}y${PASTE_TOKEN}\x1b`);
    expect(input.pastes.take()).toBe("a\r\x1b[31mb");
    expect(input.pastes.take()).toBe("second");
    expect(input.pastes.waiting).toBe(0);
    // a partial start marker that is not followed by the rest counts as typed
    tty.emit("data", "\x1b[20");
    await tick(80);
    expect(got.join("").endsWith("\x1b\x1b[20")).toBe(true);
    input.dispose();
  });

  it("knownCommand matches exact names only", () => {
    const names = ["help", "models"];
    expect(knownCommand("/help", names)).toBe("help");
    expect(knownCommand("/help  ", names)).toBe("help");
    expect(knownCommand("/hel", names)).toBeUndefined();
    expect(knownCommand("/help me", names)).toBeUndefined();
  });
});

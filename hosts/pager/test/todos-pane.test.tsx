/**
 * The todos pane (ctrl+t) rendered by the real PagerApp from a TodoList value (the todos contract's type,
 * as the service hands it over): glyphs per status, the in-progress row's activeForm, the floor dimmed,
 * cancelled rows struck through (styles: the PTY test), a person's rows marked, the model's text made display-safe, the status
 * bar's `todos c/n`, and the empty state. The live service path is the PTY test's (after the merge).
 */
import React from "react";
import { afterEach, describe, expect, it } from "vitest";
import { render } from "ink-testing-library";
import { PagerApp, type PagerActions } from "../components/app.js";
import { PagerStore } from "../store.js";
import { paneList, todosStatus } from "../todos-pane.js";
import type { TodoList } from "../../../extensions/todos/api.js";

const SID = "s1";
const tick = (ms = 30) => new Promise((r) => setTimeout(r, ms));
let unmount: (() => void) | undefined;
afterEach(() => {
  unmount?.();
  unmount = undefined;
});

function harness(available = true) {
  const store = new PagerStore();
  store.sessionId = SID;
  store.todosAvailable = available;
  const actions: PagerActions = {
    submit: () => undefined,
    abort: () => undefined,
    exit: () => undefined,
    slashCommands: () => [],
    meter: () => ({ model: "scripted/echo", contextUsed: 0, contextWindow: 200_000, tideline: { on: false }, inputTokens: 0, outputTokens: 0, spentUsd: 0 }),
    statusExtras: () => [todosStatus(store.todos)].filter((x): x is string => x !== undefined),
  };
  const app = render(<PagerApp store={store} actions={actions} color={true} />);
  unmount = app.unmount;
  return { store, app };
}

const list = (over: Partial<TodoList> = {}): TodoList => ({
  sessionId: SID,
  floor: false,
  planned: true,
  version: 3,
  items: [
    { content: "read the code", status: "completed", by: "model" },
    { content: "fix the bug", activeForm: "Fixing the bug", status: "in_progress", by: "model" },
    { content: "run the tests \u001b]52;c;cHduZWQ=\u0007now", status: "pending", by: "model" },
    { content: "rewrite everything", status: "cancelled", by: "model" },
    { content: "also update the docs", status: "pending", by: "user" },
  ],
  ...over,
});

describe("the todos pane", () => {
  it("ctrl+t opens it with the empty state, and again closes it", async () => {
    const { app } = harness();
    await tick();
    expect(app.lastFrame()).not.toContain("ctrl+t hides");
    app.stdin.write("\u0014");
    await tick();
    expect(app.lastFrame()).toContain("todos · ctrl+t hides");
    expect(app.lastFrame()).toContain("no plan yet: the model keeps one for work with three or more steps");
    app.stdin.write("\u0014");
    await tick();
    expect(app.lastFrame()).not.toContain("ctrl+t hides");
  });

  it("without the todos service the pane says so", async () => {
    const { app } = harness(false);
    app.stdin.write("\u0014");
    await tick();
    expect(app.lastFrame()).toContain("no plan yet: the todos extension is not enabled");
  });

  it("shows each row with its glyph, live, with the model's text made display-safe; the status bar counts", async () => {
    const { app, store } = harness();
    app.stdin.write("\u0014");
    store.setTodos(list());
    await tick();
    const f = app.lastFrame()!;
    expect(f).toContain("todos 1/4 · ctrl+t hides");
    // a third of the terminal at most: the window starts at the first open row, the rest is counted
    expect(f).not.toContain("read the code");
    expect(f).toContain("… 1 more");
    expect(f).toContain("▶ Fixing the bug");
    expect(f).not.toContain("▶ fix the bug");
    expect(f).toContain("✗ rewrite everything");
    expect(f).toContain("☐ also update the docs (you)");
    // the OSC 52 (clipboard write) in the model's text is shown, not sent
    expect(f).toContain("☐ run the tests ␛]52;c;cHduZWQ=␇now");
    expect(f).not.toContain("\u001b]52");
    // the status bar
    expect(f).toMatch(/todos 1\/4\n/);
    // a change of another session's list is not this pane's
    store.setTodos(list({ sessionId: "other", items: [] }));
    await tick();
    expect(app.lastFrame()).toContain("▶ Fixing the bug");
    store.setTodos(list({ items: [{ content: "fix the bug", status: "completed", by: "model" }] }));
    await tick();
    expect(app.lastFrame()).toContain("☑ fix the bug");
    expect(app.lastFrame()).not.toContain("Fixing the bug");
  });

  it("the floor row (the prompt, until the model plans) is dimmed and not counted", async () => {
    const { app, store } = harness();
    app.stdin.write("\u0014");
    store.setTodos({ sessionId: SID, floor: true, planned: false, version: 1, items: [{ content: "make it fast", status: "in_progress", by: "floor" }] });
    await tick();
    const f = app.lastFrame()!;
    expect(f).toContain("todos (your prompt, until the model plans)");
    expect(f).toContain("▶ make it fast");
    expect(store.todos!.rows[0]!.dim).toBe(true);
    expect(todosStatus(store.todos)).toBeUndefined();
    expect(paneList(list()).open).toBe(3);
  });
});

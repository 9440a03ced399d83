/**
 * The capabilities picker rendered by ink (ink-testing-library): the Skills tab's groups and counts, Space
 * on a row reaching the actions, tab to the Plugins tab, `t` for trust, esc back to a live composer.
 */
import React from "react";
import { afterEach, describe, expect, it } from "vitest";
import { render } from "ink-testing-library";
import { PagerApp, type PagerActions } from "../components/app.js";
import { PagerStore } from "../store.js";
import type { CapAction, CapData } from "../capabilities-model.js";

const tick = (ms = 30) => new Promise((r) => setTimeout(r, ms));
const DOWN = "\x1b[B";

const data = (): CapData => ({
  skills: [
    { skill: { id: "local.ocean_code:tdd", qualifiedName: "tdd", description: "test first", tier: "local" }, enabled: true },
    { skill: { id: "user.claude_code:wrangler", qualifiedName: "wrangler", description: "cloudflare", tier: "user" }, enabled: false, reason: "disabled (user)" },
  ],
  plugins: [{ name: "acme", version: "2.1.0", enabled: true, trusted: false, source: "oceancode" }],
  everythingOff: false,
});

function harness() {
  const store = new PagerStore();
  store.sessionId = "s1";
  const applied: CapAction[][] = [];
  const submitted: string[] = [];
  const actions: PagerActions = {
    submit: (t) => void submitted.push(t),
    abort: () => undefined,
    exit: () => undefined,
    slashCommands: () => [],
    meter: () => ({ model: "scripted/echo", contextUsed: 0, contextWindow: 200_000, tideline: { on: false }, inputTokens: 0, outputTokens: 0, spentUsd: 0 }),
    applyCapabilities: (a) => void applied.push(a),
  };
  store.capabilities = { tab: "skills", index: 0, data: data() };
  const app = render(<PagerApp store={store} actions={actions} color={false} />);
  return { store, app, applied, submitted };
}

let cleanup: (() => void) | undefined;
afterEach(() => {
  cleanup?.();
  cleanup = undefined;
});

describe("capabilities picker", () => {
  it("shows groups, rows with their state, and the counts; Space on a row asks to toggle it", async () => {
    const h = harness();
    cleanup = h.app.unmount;
    await tick();
    const f = h.app.lastFrame()!;
    expect(f).toContain("Skills");
    expect(f).toContain("[x] Everything");
    expect(f).toContain("[x] Local (1/1)");
    expect(f).toContain("[off] User (0/1)");
    expect(f).toContain("[ ] wrangler  disabled (user)  cloudflare");
    expect(f).toContain("skills 1/2 · plugins 1/1");
    // master, Local, tdd, User, wrangler: four downs reach wrangler
    for (let i = 0; i < 4; i++) {
      h.app.stdin.write(DOWN);
      await tick(10);
    }
    h.app.stdin.write(" ");
    await tick();
    expect(h.applied).toEqual([[{ kind: "skills", ids: ["user.claude_code:wrangler"], on: true }]]);
  });

  it("tab switches to Plugins, where t flips trust; esc closes back to the composer", async () => {
    const h = harness();
    cleanup = h.app.unmount;
    await tick();
    h.app.stdin.write("\t");
    await tick();
    expect(h.store.capabilities?.tab).toBe("plugins");
    expect(h.app.lastFrame()).toContain("[x] acme  2.1.0  untrusted");
    h.app.stdin.write(DOWN);
    await tick(10);
    h.app.stdin.write(DOWN);
    await tick(10);
    h.app.stdin.write("t");
    await tick();
    expect(h.applied).toEqual([[{ kind: "trust", name: "acme", on: true }]]);
    h.app.stdin.write("\x1b");
    await tick(80);
    expect(h.store.capabilities).toBeUndefined();
    expect(h.app.lastFrame()).toContain("Type a message");
    h.app.stdin.write("hi\r");
    await tick();
    expect(h.submitted).toEqual(["hi"]);
  });

  it("shows EVERYTHING OFF in front of the counts while the master switch is off", async () => {
    const h = harness();
    cleanup = h.app.unmount;
    h.store.capabilities!.data = { ...data(), everythingOff: true };
    h.store.changed();
    await tick();
    expect(h.app.lastFrame()).toContain("EVERYTHING OFF · skills 1/2 · plugins 1/1");
    expect(h.app.lastFrame()).toContain("[ ] Everything");
  });
});

/**
 * Pager papercuts in a real terminal: a provider error is shown once, and the "stopping…" hint goes when
 * the turn ends.
 */
import { describe, expect, it } from "vitest";
import type { Sandbox } from "../../../test/kit/cli.js";
import { hasTmux, type Pty, pause } from "../../../test/kit/pty.js";
import { pagerTests } from "../../../test/kit/pager-tests.js";

const { makeSandbox, openPager } = pagerTests();

const open = (s: Sandbox, env: NodeJS.ProcessEnv): Pty => openPager(s, env);

describe.skipIf(!hasTmux())("pager notices", () => {
  it("a provider error (no API key) is shown once", async () => {
    const sb = makeSandbox();
    const t = open(sb, { OC_MODEL: "anthropic/claude-haiku-4-5", ANTHROPIC_API_KEY: "" });
    await t.waitFor("❯");
    t.key("hi", "Enter");
    await t.waitFor("✗ ");
    await t.waitGone("working…");
    await pause(300);
    const errors = t.history().split("\n").filter((l) => l.startsWith("✗ "));
    expect(errors.length, t.history()).toBe(1);
  });

  it("after esc esc the hint row clears when the turn has stopped", async () => {
    const sb = makeSandbox();
    sb.write("slow.json", JSON.stringify({ steps: [{ text: "never shown", delay_ms: 30_000 }] }));
    const t = open(sb, { OC_MODEL: "scripted/slow.json" });
    await t.waitFor("❯");
    t.key("wait", "Enter");
    await t.waitFor("working…");
    t.key("Escape");
    await pause(100);
    t.key("Escape");
    await t.waitFor("stopped (esc esc)", 5_000);
    const s = await t.waitGone("stopping…", 5_000);
    expect(s).not.toContain("✗");
  });
});

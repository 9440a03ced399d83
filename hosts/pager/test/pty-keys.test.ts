/**
 * The real pager in tmux, driven the way automation and terminals send keys: text and Enter in one
 * send-keys call, a bracketed paste (tmux paste-buffer -p), `/help` on Enter whatever the popup shows,
 * `-m/--model`, and the permission prompt naming the rule that `a` saves.
 */
import { describe, expect, it } from "vitest";
import fs from "node:fs";
import path from "node:path";
import { runCli, type Sandbox } from "../../../test/kit/cli.js";
import { hasTmux, type Pty, pause } from "../../../test/kit/pty.js";
import { pagerTests } from "../../../test/kit/pager-tests.js";

const { makeSandbox, openPager } = pagerTests();

const open = (s: Sandbox, args: string[] = [], env: NodeJS.ProcessEnv = { OC_MODEL: "scripted/echo" }): Pty => openPager(s, env, args);

describe.skipIf(!hasTmux())("pager keys in a terminal", () => {
  it("send-keys 'hello' Enter in one call submits", async () => {
    const sb = makeSandbox();
    const t = open(sb);
    await t.waitFor("❯");
    t.key("hello", "Enter");
    const s = await t.waitFor("ok: hello");
    expect(s).toContain("> hello");
    await t.waitGone("working…");
    // and again, the composer is empty and ready
    t.key("again", "Enter");
    await t.waitFor("ok: again");
  });

  it("a bracketed paste with newlines is inserted without submitting; Enter then sends it whole", async () => {
    const sb = makeSandbox();
    const t = open(sb);
    await t.waitFor("❯");
    t.tmux("set-buffer", "-b", "p1", "first pasted line\nsecond pasted line");
    t.tmux("paste-buffer", "-p", "-d", "-b", "p1", "-t", t.name);
    let s = await t.waitFor("second pasted line");
    expect(s).toContain("❯ first pasted line");
    await pause(300);
    s = t.screen();
    expect(s).not.toContain("ok: first");
    expect(s).not.toContain("working…");
    t.key("Enter");
    await t.waitFor("ok: first pasted line");
    s = await t.waitGone("working…");
    expect(s).toMatch(/> first pasted line\n\s*second pasted line\nok: first pasted line\n\s*second pasted line/);
  });

  it("/help runs on Enter whatever the popup's state: sent with Enter, popup closed, highlight moved", async () => {
    const sb = makeSandbox();
    const t = open(sb);
    await t.waitFor("❯");
    const helpCount = () => (t!.history().match(/^Keys:/gm) ?? []).length;
    // in one chunk with Enter
    t.key("/help", "Enter");
    await t.waitFor("Keys:", 15_000, { inHistory: true });
    expect(helpCount()).toBe(1);
    // the aliases the docs name are listed with their commands
    expect(t.history()).toMatch(/\/clear\s+start a new session \(also \/new\)/);
    expect(t.history()).toMatch(/leave Ocean pager \(also \/quit\)/);
    expect(t.history()).toMatch(/\(also \/shelve\)/);
    // popup closed with esc
    t.send("/help");
    await t.waitFor(/❯ \/help\s+list/);
    t.key("Escape");
    await t.waitGone(/❯ \/help\s+list/);
    t.key("Enter");
    for (let i = 0; i < 100 && helpCount() < 2; i++) await pause(50);
    expect(helpCount()).toBe(2);
    // popup open with the highlight moved to another entry first
    t.send("/h");
    await t.waitFor(/❯ \/help/);
    t.key("Down");
    await pause(150);
    t.send("elp");
    await pause(150);
    t.key("Enter");
    for (let i = 0; i < 100 && helpCount() < 3; i++) await pause(50);
    expect(helpCount()).toBe(3);
  });

  for (const flag of [["-m", "scripted/echo"], ["--model", "scripted/echo"], ["--model=scripted/echo"]]) {
    it(`oceancode ${flag.join(" ")} selects the model`, async () => {
      const sb = makeSandbox();
      // the flag wins over $OC_MODEL, as in `run`
      const t = open(sb, flag, { OC_MODEL: "anthropic/claude-haiku-4-5" });
      const s = await t.waitFor(/scripted\/echo · context/);
      expect(s).not.toContain("claude-haiku");
      t.key("hi", "Enter");
      await t.waitFor("ok: hi");
    });
  }
});

describe("-m/--model before the command word", () => {
  it("is handed to run; without a value it is a usage error", () => {
    const sb = makeSandbox();
    const r = runCli(["--dir", sb.project, "-m", "scripted/echo", "run", "hi"], { env: sb.env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.trim()).toBe("ok: hi");
    const bad = runCli(["--dir", sb.project, "--model"], { env: sb.env });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("--model needs a value");
  });
});

describe.skipIf(!hasTmux())("permission prompt: the rule `a` saves", () => {
  it("is shown before answering, and is what answering `a` saves", async () => {
    const sb = makeSandbox();
    sb.write(".oceancode/oceancode.json", JSON.stringify({ permission: ["bash * ask"] }));
    sb.write("push.json", JSON.stringify({ steps: [{ text: "pushing", tool_calls: [{ name: "bash", input: { command: "git push origin main" } }] }, { text: "pushed" }] }));
    const t = open(sb, [], { OC_MODEL: "scripted/push.json" });
    await t.waitFor("❯");
    t.key("push it", "Enter");
    const s = await t.waitFor(/Allow bash\?[\s\S]*y once · a always · n reject/);
    const shown = /a = always allow: (.+?)\s*│/.exec(s)?.[1];
    expect(shown, s).toMatch(/^bash git push\b/);
    t.send("a");
    await t.waitFor("pushed");
    const saved = JSON.parse(fs.readFileSync(path.join(sb.project, ".oceancode", "oceancode.json"), "utf8")) as { permission: string[] };
    expect(saved.permission).toContain(`${shown} allow`);
  });
});

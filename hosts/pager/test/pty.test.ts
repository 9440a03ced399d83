/**
 * The real pager (compiled CLI) in a real terminal: tmux at 80x24, a temp HOME, the scripted model.
 * Permission prompts come from a user-tier extension (plain ESM in the temp HOME) that registers a
 * `probe` tool and asks for it through engine.authorizeToolCall, exactly as a third-party policy would.
 */
import { describe, expect, it } from "vitest";
import fs from "node:fs";
import path from "node:path";
import { CLI, runCli, type Sandbox } from "../../../test/kit/cli.js";
import { colourCodes, hasTmux, type Pty, pause, typeLine } from "../../../test/kit/pty.js";
import { pagerTests } from "../../../test/kit/pager-tests.js";

const { makeSandbox, openPager, startPty } = pagerTests();

const open = (s: Sandbox, env: NodeJS.ProcessEnv = {}, cols = 80, rows = 24): Pty => openPager(s, env, [], { cols, rows });


function installAsker(s: Sandbox): string {
  const ran = path.join(s.home, "probe-ran.txt");
  s.write(
    ".oceancode/extensions/asker/manifest.json",
    JSON.stringify({ id: "asker", version: "1.0.0", kernel: "^0.1.0", main: "index.js", requires: ["engine"], activation: ["onSession"] }),
    "home",
  );
  s.write(
    ".oceancode/extensions/asker/index.js",
    `import fs from "node:fs";
export default { activate(ctx) {
  const engine = ctx.services.get("engine");
  engine.tools.register({ name: "probe", description: "test tool", kind: "execute", inputSchema: { type: "object" }, claudeName: "Probe",
    run: async (input) => { fs.appendFileSync(${JSON.stringify(ran)}, String(input.command) + "\\n"); return { content: "probe ran: " + input.command }; } });
  engine.hooks.authorizeToolCall.tap({ name: "asker" }, (c) => c.call.name === "probe"
    ? { action: "ask", reason: "probe commands need approval", by: "asker", rule: "probe * ask" } : undefined);
} };`,
    "home",
  );
  return ran;
}

describe.skipIf(!hasTmux())("Ocean pager in a terminal", () => {
  it("type hello, see ok: hello; the status bar shows model, context in plain words, tokens, spend", async () => {
    const sb = makeSandbox();
    const t = open(sb, { OC_MODEL: "scripted/echo" });
    await t.waitFor("❯");
    await typeLine(t, "hello");
    const screen = await t.waitFor("ok: hello");
    expect(screen).toContain("> hello");
    const s2 = await t.waitGone("working…");
    // plain words first (finding 55): the tideline's detail is /context's
    expect(s2).toMatch(/scripted\/echo · context \d+% · 200k window · ↑\S+ ↓\S+ · \$0\.00/);
    expect(s2).not.toContain("tideline @");
    expect(s2.split("\n").every((l) => l.length <= 80)).toBe(true);
    // NO_COLOR (the sandbox sets it): bold and inverse only, no colour codes
    expect(colourCodes(t.styled())).toEqual([]);
  });

  it("uses colour when NO_COLOR is not set", async () => {
    const sb = makeSandbox();
    const env: NodeJS.ProcessEnv = { ...sb.env, OC_MODEL: "scripted/echo" };
    delete env.NO_COLOR;
    const t = startPty({ args: [CLI, "--dir", sb.project], env, cwd: sb.project });
    await t.waitFor("❯");
    expect(colourCodes(t.styled()).length).toBeGreaterThan(0);
  });

  it("slash commands: /help lists manifests' commands, an unknown one is refused unsent, /models opens the picker", async () => {
    const sb = makeSandbox();
    const t = open(sb, { OC_MODEL: "scripted/echo" });
    await t.waitFor("❯");
    t.send("/he");
    await t.waitFor("/help");
    t.key("Enter");
    const help = await t.waitFor("Keys:", 20_000, { inHistory: true });
    expect(help).toContain("/resume");
    await typeLine(t, "/nope");
    await t.waitFor("unknown command /nope: nothing was sent");
    expect(t.history()).not.toContain("ok: /nope");
    await typeLine(t, "/models");
    await t.waitFor("MODEL");
    expect(t.screen()).toContain("scripted/echo");
    t.key("Escape");
    await t.waitFor("model unchanged");
    await t.waitFor("Type a message");
  });

  it("a permission prompt answered y runs the tool; answered n rejects it", async () => {
    const sb = makeSandbox();
    const ran = installAsker(sb);
    sb.write(
      "script.json",
      JSON.stringify({
        steps: [
          { text: "trying", tool_calls: [{ name: "probe", input: { command: "echo first" } }] },
          { text: "after first" },
          { text: "again", tool_calls: [{ name: "probe", input: { command: "echo second" } }] },
          { text: "after second" },
        ],
      }),
    );
    const t = open(sb, { OC_MODEL: "scripted/script.json" });
    await t.waitFor("❯");
    await typeLine(t, "go");
    // wait for the dialog's last line, so the whole dialog is on screen before asserting on it
    let s = await t.waitFor(/Allow probe\?[\s\S]*y once · a always · n reject/);
    expect(s).toContain("why: probe commands need approval (rule: probe * ask)");
    expect(s).toContain("y once · a always · n reject");
    t.send("y");
    await t.waitFor("after first");
    expect(fs.readFileSync(ran, "utf8")).toBe("echo first\n");
    await t.waitGone("working…");
    await typeLine(t, "go again");
    await t.waitFor(/Allow probe\?[\s\S]*echo second/);
    t.send("n");
    s = await t.waitFor("after second");
    expect(t.history()).toContain("rejected: probe");
    expect(fs.readFileSync(ran, "utf8")).toBe("echo first\n");
  });

  it("bash * ask through the permissions extension: `a` (always) runs it and saves the rule in the project's config", async () => {
    const sb = makeSandbox();
    sb.write(".oceancode/oceancode.json", JSON.stringify({ permission: ["bash * ask"] }));
    sb.write(
      "script.json",
      JSON.stringify({
        steps: [
          { text: "making", tool_calls: [{ name: "bash", input: { command: "touch made-by-bash.txt" } }] },
          { text: "made it" },
        ],
      }),
    );
    const t = open(sb, { OC_MODEL: "scripted/script.json" });
    await t.waitFor("❯");
    await typeLine(t, "make the file");
    const s = await t.waitFor(/Allow bash\?[\s\S]*y once · a always · n reject/);
    expect(s).toContain("touch made-by-bash.txt");
    t.send("a");
    await t.waitFor("made it");
    expect(fs.existsSync(path.join(sb.project, "made-by-bash.txt"))).toBe(true);
    const saved = JSON.parse(fs.readFileSync(path.join(sb.project, ".oceancode", "oceancode.json"), "utf8")) as { permission: string[] };
    expect(saved.permission[0]).toBe("bash * ask");
    expect(saved.permission.length).toBe(2);
    expect(saved.permission[1]).toMatch(/^bash .*touch.* allow$/);
  });

  it("esc esc stops a long scripted turn", async () => {
    const sb = makeSandbox();
    sb.write("slow.json", JSON.stringify({ steps: [{ text: "never shown", delay_ms: 30_000 }] }));
    const t = open(sb, { OC_MODEL: "scripted/slow.json" });
    await t.waitFor("❯");
    await typeLine(t, "take your time");
    await t.waitFor("working…");
    t.key("Escape");
    await pause(100);
    t.key("Escape");
    const s = await t.waitFor("stopped", 5_000);
    expect(s).not.toContain("never shown");
    await t.waitGone("working…", 5_000);
  });

  it("resizes: the status bar and composer redraw at the new width", async () => {
    const sb = makeSandbox();
    const t = open(sb, { OC_MODEL: "scripted/echo" });
    await t.waitFor("❯");
    t.resize(60, 20);
    await pause(400);
    let s = t.screen();
    expect(s.split("\n").every((l) => l.length <= 60)).toBe(true);
    expect(s).toContain("scripted/echo");
    t.resize(100, 30);
    await pause(400);
    await typeLine(t, "still here");
    s = await t.waitFor("ok: still here");
    expect(s).toContain("200k window");
    expect(t.alive()).toBe(true);
  });

  it("--listen says where it listens (extensions/serve/test/pager-listen.test.ts drives it); /exit leaves with code 0", async () => {
    const sb = makeSandbox();
    const t = startPty({ args: [CLI, "--dir", sb.project, "--listen", "127.0.0.1:0"], env: { ...sb.env, OC_MODEL: "scripted/echo" }, cwd: sb.project });
    await t.waitFor("❯");
    await t.waitFor(/listening on http:\/\/127\.0\.0\.1:\d+/);
    await typeLine(t, "/exit");
    for (let i = 0; i < 100 && t.alive(); i++) await pause(50);
    expect(t.exitStatus()).toBe(0);
  });
});

describe("pager without a terminal", () => {
  it("prints a clear message and exits 2", () => {
    const sb = makeSandbox();
    const r = runCli(["--dir", sb.project], { env: sb.env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("oceancode: the pager needs a terminal; for scripts use oceancode run");
  });

  it("--tui ocean is refused, --tui pager accepted", () => {
    const sb = makeSandbox();
    const r = runCli(["--tui", "ocean"], { env: sb.env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("the native TUI was removed; oceancode starts Ocean pager");
    const p = runCli(["--tui", "pager", "--dir", sb.project], { env: sb.env });
    expect(p.stderr).toContain("the pager needs a terminal");
  });
});

describe.skipIf(!hasTmux())("status bar gauge with a small tideline", () => {
  it("shows the tideline position and tokens to go after a cut", async () => {
    const sb = makeSandbox();
    sb.write(".oceancode/oceancode.json", JSON.stringify({ ledger: { tideline: { percent: 40, block: 4000 } } }));
    const big = "x".repeat(200);
    const steps = [1, 2, 3, 4, 5, 6].map((i) => ({ text: `step ${i} ${big}`, usage: { input: 6000 * i, output: 100 }, tool_calls: [{ name: "nosuchtool", input: { i } }] }));
    sb.write("cut.json", JSON.stringify({ context_window: 50_000, steps: [...steps, { text: "all done" }] }));
    const t = open(sb, { OC_MODEL: "scripted/cut.json" });
    await t.waitFor("❯");
    await typeLine(t, "fill the window");
    await t.waitFor("all done");
    const s = await t.waitGone("working…");
    // the provider reported up to 36k input, but the window after the cut sits under the 20k line (40%)
    const used = Number(/context (\d+)% · 50k window/.exec(s)?.[1] ?? "100");
    expect(used).toBeLessThan(40);
    // the gauge marks the tideline; its words are /context's
    expect(s).toMatch(/[█░]*┃[█░]*/);
    await typeLine(t, "/context");
    const ctx = await t.waitFor(/cuts\s+[1-9]/);
    expect(ctx).toMatch(/past the tideline/);
    expect(ctx).toMatch(/tideline @40% \(20k\): \S+ to go/);
  });
});

describe.skipIf(!hasTmux())("sessions from inside the pager", () => {
  it("/clear starts a new session; /resume lists the earlier one and reopens it", async () => {
    const sb = makeSandbox();
    const t = open(sb, { OC_MODEL: "scripted/echo" });
    await t.waitFor("❯");
    await typeLine(t, "remember the walrus");
    await t.waitFor("ok: remember the walrus");
    await t.waitGone("working…");
    await typeLine(t, "/clear");
    await t.waitFor(/new session \S+/);
    await typeLine(t, "/resume");
    await t.waitFor("SESSIONS");
    t.key("Enter");
    const s = await t.waitFor(/resumed \S+ \(1 turns/);
    expect(s).toContain("> remember the walrus");
  });
});

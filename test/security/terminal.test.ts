/**
 * The terminal renders text, never commands: the real pager in a tmux PTY, fed by a scripted model whose
 * text, tool call and tool output carry escape sequences of every family. The terminal's title, its
 * clipboard (tmux paste buffers with set-clipboard on) and the screen stay ours; the sequences show as
 * text; the stored transcript keeps the exact bytes.
 */
import { describe, expect, it } from "vitest";
import fs from "node:fs";
import path from "node:path";
import { CLI, runCli } from "../kit/cli.js";
import { colourCodes, hasTmux, type Pty, pause } from "../kit/pty.js";
import { EVIL_TEXT, EVIL_TOOL_COMMAND, EVIL_TOOL_NAME, EVIL_TOOL_OUTPUT, writeEvilScript } from "./terminal-fixtures.js";
import { pagerTests } from "../kit/pager-tests.js";

/** anything a terminal could act on: C0 but \t \n, DEL, C1, bidi controls */
const ACTIVE = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/;

const { makeSandbox, startPty } = pagerTests();
const title = (p: Pty) => p.tmux("display", "-p", "-t", p.name, "#{pane_title}").trim();
const buffers = (p: Pty) => p.tmux("list-buffers").trim();

describe.skipIf(!hasTmux())("the checks can see an injection", () => {
  it("a program printing OSC 2 and OSC 52 straight to the pane does change the title and fill a paste buffer", async () => {
    const p = startPty({ command: "/bin/sh", args: ["-c", "sleep 1; printf '\\033]2;CONTROL-TITLE\\033\\\\\\033]52;c;Q09OVFJPTA==\\007'"] });
    p.tmux("set-option", "-s", "set-clipboard", "on");
    const before = title(p);
    for (let i = 0; i < 60 && title(p) === before; i++) await pause(50);
    expect(title(p)).toBe("CONTROL-TITLE");
    expect(buffers(p)).toContain("CONTROL");
  });
});

describe.skipIf(!hasTmux())("pager: untrusted text reaches the terminal as text", () => {
  it("model text, a tool's name, input and output: title, clipboard and screen untouched; shown visibly; stored verbatim", async () => {
    const sb = makeSandbox();
    writeEvilScript(sb, "evil.json");
    const t = startPty({ args: [CLI, "--dir", sb.project], env: { ...sb.env, OC_MODEL: "scripted/evil.json" }, cwd: sb.project, cols: 200, rows: 50 });
    t.tmux("set-option", "-s", "set-clipboard", "on");
    await t.waitFor("❯");
    const before = title(t);
    t.send("go");
    await pause(120);
    t.key("Enter");
    await t.waitFor("all finished");
    await t.waitGone("working…");
    const screen = t.screen();

    // nothing acted: same title, no paste buffer, no colour (NO_COLOR is set, so any colour came from the text)
    expect(title(t)).toBe(before);
    expect(buffers(t)).toBe("");
    expect(colourCodes(t.styled())).toEqual([]);

    // nothing was cleared or moved: the whole exchange is on the screen, in order
    const order = ["> go", "BEFORE-MARK", "AFTER-MARK", "TOOL-START", "TOOL-END", "all finished"].map((s) => screen.indexOf(s));
    expect(order.every((i) => i >= 0), screen).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);

    // the sequences show as text
    for (const shown of [
      "␛]52;c;SU5KRUNURUQ=␇",
      "␛]0;PWNED-TITLE-0␇",
      "␛]2;PWNED-TITLE-2␛\\",
      "␛[31mRED␛[0m",
      "␛[2J␛[H␛[3A",
      "␛P1$r0m␛\\",
      "<U+009B>2J",
      "<U+009D>2;C1-TITLE<U+009C>",
      "<U+202E>evil<U+202C>",
      "␛]52;c;VE9PTA==␇ ␛]2;TOOL-TITLE␇ ␛[32mGREEN␛[0m ␛[2J <U+009B>2J",
      "nosuch␛]0;NAME-TITLE␇tool",
    ])
      expect(screen, shown).toContain(shown);

    // the stored transcript keeps the exact bytes
    await t.send("/exit");
    await pause(120);
    t.key("Enter");
    for (let i = 0; i < 100 && t.alive(); i++) await pause(50);
    const root = path.join(sb.home, ".local", "share", "oceancode", "session-ledger");
    const [id] = fs.readdirSync(root);
    expect(id).toMatch(/^ses_/);
    const md = fs.readFileSync(path.join(root, id!, "transcript", "turn-0001.md"), "utf8");
    expect(md).toContain(EVIL_TEXT);
    expect(md).toContain(EVIL_TOOL_OUTPUT);
    const exp = runCli(["export", id!, "--atif", "--out", "-"], { cwd: sb.project, env: sb.env });
    expect(exp.code, exp.stderr).toBe(0);
    const traj = JSON.parse(exp.stdout) as { steps: Array<{ message: string; tool_calls?: Array<{ function_name: string; arguments: Record<string, unknown> }>; observation?: { results: Array<{ content: string }> } }> };
    expect(traj.steps.map((s) => s.message)).toContain(EVIL_TEXT);
    const calls = traj.steps.flatMap((s) => s.tool_calls ?? []);
    expect(calls.map((c) => c.function_name)).toContain(EVIL_TOOL_NAME);
    expect(calls.map((c) => c.arguments.command)).toContain(EVIL_TOOL_COMMAND);
    const results = traj.steps.flatMap((s) => s.observation?.results ?? []).map((r) => r.content);
    expect(results.some((r) => r.includes(EVIL_TOOL_OUTPUT))).toBe(true);
  });

  it("the permission prompt shows a command with escapes as text", async () => {
    const sb = makeSandbox();
    sb.write(".oceancode/oceancode.json", JSON.stringify({ permission: ["bash * ask"] }));
    sb.write("ask.json", JSON.stringify({ steps: [{ text: "asking", tool_calls: [{ name: "bash", input: { command: "echo ok \x1b]0;ASK-TITLE\x07\x1b[2J" } }] }, { text: "asked" }] }));
    const t = startPty({ args: [CLI, "--dir", sb.project], env: { ...sb.env, OC_MODEL: "scripted/ask.json" }, cwd: sb.project, cols: 120, rows: 30 });
    await t.waitFor("❯");
    const before = title(t);
    t.send("go");
    await pause(120);
    t.key("Enter");
    const s = await t.waitFor(/Allow bash\?[\s\S]*y once · a always · n reject/);
    expect(s).toContain("echo ok ␛]0;ASK-TITLE␇␛[2J");
    expect(s).toContain("> go");
    expect(title(t)).toBe(before);
    t.send("n");
    await t.waitFor("asked");
    expect(title(t)).toBe(before);
  });

  it("an extension command (export --md) shows the transcript's escapes as text on a terminal; redirected it is exact", async () => {
    const sb = makeSandbox();
    writeEvilScript(sb, "evil.json");
    const r = runCli(["--dir", sb.project, "run", "--model", "scripted/evil.json", "go"], { env: sb.env });
    expect(r.code, r.stderr).toBe(0);
    const id = /session: (\S+)/.exec(r.stderr)?.[1] ?? "";
    const piped = runCli(["--dir", sb.project, "export", id, "--md"], { env: sb.env });
    expect(piped.code, piped.stderr).toBe(0);
    expect(piped.stdout).toContain(EVIL_TEXT);
    const out = path.join(sb.home, "export-on-terminal.txt");
    const t = startPty({ command: "/bin/sh", args: ["-c", `'${process.execPath}' '${CLI}' --dir '${sb.project}' export ${id} --md; echo EXPORT-DONE`], env: sb.env, cwd: sb.project, cols: 250, rows: 60 });
    t.tmux("set-option", "-s", "set-clipboard", "on");
    const before = title(t);
    const screen = await t.waitFor("EXPORT-DONE", 20_000, { inHistory: true });
    expect(title(t)).toBe(before);
    expect(buffers(t)).toBe("");
    expect(screen).toContain("BEFORE-MARK ␛]52;c;SU5KRUNURUQ=␇ ␛]0;PWNED-TITLE-0␇");
    expect(screen).toContain("TOOL-START ␛]52;c;VE9PTA==␇");
    expect(colourCodes(t.styled())).toEqual([]);
    // the same command into a file (not a terminal) keeps the bytes
    const f = runCli(["--dir", sb.project, "export", id, "--md", "--out", out], { env: sb.env });
    expect(f.code, f.stderr).toBe(0);
    expect(fs.readFileSync(out, "utf8")).toContain(EVIL_TEXT);
    expect(screen).not.toMatch(ACTIVE);
  });
});

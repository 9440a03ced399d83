/**
 * The pager's chrome in a real tmux PTY against the fake Anthropic server: the start header and a missing
 * key said once at the start, `?` listing keys laid out to the width, the animated status line (spinner
 * frames changing, elapsed, output tokens, the running tool and its clock), the exit hint with the
 * session id and `oceancode -c` reopening it, and a resize leaving no duplicated rows.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../../../test/kit/cli.js";
import { hasTmux, pause, typeLine, type Pty } from "../../../test/kit/pty.js";
import { fakeAnthropicForFile } from "../../../test/kit/file-fixtures.js";
import { pagerTests } from "../../../test/kit/pager-tests.js";

const fake = fakeAnthropicForFile({ chunkChars: 4 });
const { makeSandbox, openPager, openPagerOnFake } = pagerTests();
let t: Pty | undefined;
let t2: Pty | undefined;

async function exited(p: Pty, timeoutMs = 15_000): Promise<number | undefined> {
  const until = Date.now() + timeoutMs;
  while (p.alive() && Date.now() < until) await pause(50);
  return p.exitStatus();
}

/** The spinner frame on the status line (the first braille dot on screen). */
const frameOf = (screen: string): string | undefined => /([⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]) working…/.exec(screen)?.[1];

describe.skipIf(!hasTmux())("pager chrome: start", () => {
  it("a header with version, model, folder, trust and `?`; a missing key said once at the start with its fix; `?` lays the keys out to the width", async () => {
    const sb = makeSandbox("oc-pty-chrome-");
    t = openPagerOnFake(sb, fake.url, { ANTHROPIC_API_KEY: "" });
    const s = await t.waitFor("? for keys");
    expect(s).toMatch(/oceancode \d+\.\d+\.\d+ · anthropic\/claude-haiku-4-5/);
    expect(s).toContain(path.basename(sb.project));
    expect(s).toMatch(/(not )?trusted/);
    const warn = s.split("\n").filter((l) => l.includes("no Anthropic API key"));
    expect(warn).toHaveLength(1);
    expect(warn[0]).toContain("oceancode key anthropic <key>");
    // `?` on an empty composer: the keys and commands, two columns at a narrow width
    t.resize(60, 30);
    await pause(300);
    t.send("?");
    const help = await t.waitFor("ctrl+o");
    const rows = help.split("\n");
    const keysAt = rows.findIndex((r) => r.startsWith("Keys:"));
    expect(keysAt).toBeGreaterThan(0);
    // every row of the table is indented (a wrapped description stays in its column) and fits the width
    const table = rows.slice(keysAt + 1, rows.findIndex((r, i) => i > keysAt && r.includes("ctrl+d")) + 1);
    expect(table.length).toBeGreaterThan(5);
    for (const r of table) expect(r.startsWith("  "), `row ${JSON.stringify(r)}`).toBe(true);
    expect(help).toContain("shift+tab");
    expect(fake.requests).toHaveLength(0);
    await typeLine(t, "/exit");
    expect(await exited(t)).toBe(0);
    // nothing was sent, so nothing was stored: no hint to come back to it
    expect(t.screen()).not.toContain("oceancode --resume");
  });
});

describe.skipIf(!hasTmux())("pager chrome: live progress and the end", () => {
  it("the spinner moves, elapsed, tokens and the running tool show; /exit prints the session id and oceancode -c reopens it", async () => {
    const sb = makeSandbox("oc-pty-chrome-");
    fake.enqueue(
      { text: "Looking first.", toolCalls: [{ name: "bash", input: { command: "sleep 2.5; echo slept" } }] },
      // then text streams and the connection is held open: the turn runs until esc esc
      { type: "drop", text: "streaming some words of the answer here", holdMs: 60_000 },
    );
    t = openPagerOnFake(sb, fake.url);
    await t.waitFor("? for keys");
    await typeLine(t, "take a while");
    const during = await t.waitFor(/working… \d+s .*bash \d+s/, 20_000);
    const f1 = frameOf(during);
    expect(f1).toBeDefined();
    // another capture a little later: another frame
    let f2 = f1;
    for (let i = 0; i < 40 && f2 === f1; i++) {
      await pause(60);
      f2 = frameOf(t.screen());
    }
    expect(f2).toBeDefined();
    expect(f2).not.toBe(f1);
    // the step's streamed text counts as output tokens so far
    const streaming = await t.waitFor("streaming some words", 20_000);
    expect(streaming).toMatch(/working… \d+s · ↓ \d+ tokens/);
    expect(streaming).not.toMatch(/bash \d+s/);
    t.key("Escape");
    await pause(100);
    t.key("Escape");
    await t.waitFor("stopped (esc esc)", 10_000);
    await t.waitGone("working…", 10_000);
    // finding 30: the stopping hint goes with the turn
    expect(t.screen()).not.toContain("stopping…");
    await typeLine(t, "/exit");
    expect(await exited(t)).toBe(0);
    const end = t.screen();
    const id = /session (ses_\S+)\s*\ncontinue with: oceancode -c {3}or: oceancode --resume (ses_\S+)/.exec(end);
    expect(id, end).not.toBeNull();
    expect(id![1]).toBe(id![2]);
    // oceancode -c: the same session, its rows shown
    t2 = openPager(sb, { OC_MODEL: "anthropic/claude-haiku-4-5", ANTHROPIC_API_KEY: "sk-test", ANTHROPIC_BASE_URL: fake.url }, ["-c"]);
    const back = await t2.waitFor(`resumed ${id![1]}`);
    expect(back).toContain("take a while");
    // the header stays on top, above the reopened rows
    expect(back.indexOf("? for keys")).toBeLessThan(back.indexOf("take a while"));
    t2.key("C-d");
    expect(await exited(t2)).toBe(0);
    expect(t2.screen()).toContain(`oceancode --resume ${id![1]}`);
  });

  it("a resize clears and redraws: no duplicated composer or status rows in the scrollback", async () => {
    const sb = makeSandbox("oc-pty-chrome-");
    t = openPagerOnFake(sb, fake.url);
    await t.waitFor("? for keys");
    await typeLine(t, "first message");
    await t.waitFor("ok: first message");
    await t.waitGone("working…");
    for (const [c, r] of [
      [70, 24],
      [50, 24],
      [90, 30],
    ] as const) {
      t.resize(c, r);
      await pause(400);
    }
    await t.waitFor("Type a message");
    const all = t.history();
    expect(all.match(/Type a message/g)).toHaveLength(1);
    expect(all.match(/anthropic\/claude-haiku-4-5 · context/g)).toHaveLength(1);
    expect(all.match(/ok: first message/g)).toHaveLength(1);
    expect(all.match(/\? for keys/g)).toHaveLength(1);
  });
});

describe.skipIf(!hasTmux())("pager chrome: -c and --resume", () => {
  it("-c with no earlier session (exit 1) and --resume of an unknown id (a usage error, exit 2) are said before the screen is taken; before a command they are refused (exit 2)", async () => {
    const sb = makeSandbox("oc-pty-chrome-");
    t = openPager(sb, { OC_MODEL: "scripted/echo" }, ["-c"]);
    expect(await exited(t)).toBe(1);
    expect(t.screen().replace(/\n/g, "")).toContain("oceancode: -c: no earlier session in");
    t.close();
    t = openPager(sb, { OC_MODEL: "scripted/echo" }, ["--resume", "ses_nope"]);
    expect(await exited(t)).toBe(2);
    expect(t.screen()).toContain("no session 'ses_nope'");
    const r = runCli(["--dir", sb.project, "-c", "run", "hi"], { env: { ...sb.env, OC_MODEL: "scripted/echo" } });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("-c/--continue is the pager's");
  });
});

describe.skipIf(!hasTmux())("pager chrome: notification", () => {
  it("a long turn ending while the terminal is unfocused rings the bell when pager.notify asks (the rule itself, tmux and focus included: chrome-model.test.ts)", async () => {
    const sb = makeSandbox("oc-pty-chrome-");
    fs.mkdirSync(path.join(sb.project, ".oceancode"), { recursive: true });
    sb.write(".oceancode/oceancode.json", JSON.stringify({ pager: { notify: "bell", notify_after_s: 0 } }));
    t = openPagerOnFake(sb, fake.url);
    await t.waitFor("? for keys");
    const raw = path.join(sb.home, "pane.raw");
    t.tmux("pipe-pane", "-t", t.name, "-o", `cat >> '${raw}'`);
    // the terminal says it lost focus (what a terminal sends with focus reporting on)
    t.send("\x1b[O");
    await typeLine(t, "ring when done");
    await t.waitFor("ok: ring when done");
    await t.waitGone("working…");
    const until = Date.now() + 5_000;
    while (!(fs.existsSync(raw) && fs.readFileSync(raw, "latin1").includes("\x07")) && Date.now() < until) await pause(50);
    expect(fs.readFileSync(raw, "latin1")).toContain("\x07");
    // the focus report is not typed into the composer
    expect(t.screen()).not.toContain("[O");
  });
});

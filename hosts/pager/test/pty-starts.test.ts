/**
 * Starting and leaving the real pager in a tmux PTY: a session is stored with its first message that
 * reaches the model (opening and leaving, `/clear`, or a message refused for a missing key store nothing),
 * an unknown model is refused before the screen is taken (exit 2), and a SIGINT exits 130.
 */
import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { runCli, type Sandbox } from "../../../test/kit/cli.js";
import { type Pty, pause, typeLine } from "../../../test/kit/pty.js";
import { pagerTests } from "../../../test/kit/pager-tests.js";

const { makeSandbox, openPager } = pagerTests();

const open = (s: Sandbox, env: NodeJS.ProcessEnv, args: string[] = []): Pty => openPager(s, env, args);


async function exited(p: Pty, timeoutMs = 15_000): Promise<number | undefined> {
  const until = Date.now() + timeoutMs;
  while (p.alive() && Date.now() < until) await pause(50);
  return p.exitStatus();
}

const sessions = (s: Sandbox) => {
  const r = runCli(["--dir", s.project, "sessions", "--all", "--json"], { env: s.env, cwd: s.project });
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as Array<{ id: string; turns: number; title?: string }>;
};

describe("pager: no empty sessions", () => {
  it("opening and leaving, and /clear with nothing sent, store no session", async () => {
    const sb = makeSandbox("oc-pty-starts-");
    const t = open(sb, { OC_MODEL: "scripted/echo" });
    await t.waitFor("❯");
    await typeLine(t, "/clear");
    await pause(500);
    await typeLine(t, "/exit");
    expect(await exited(t)).toBe(0);
    expect(sessions(sb)).toEqual([]);
  });

  it("a message is stored; the fresh session /clear opens after it is not", async () => {
    const sb = makeSandbox("oc-pty-starts-");
    const t = open(sb, { OC_MODEL: "scripted/echo" });
    await t.waitFor("❯");
    await typeLine(t, "hello");
    await t.waitFor("ok: hello");
    await t.waitGone("working…");
    await typeLine(t, "/clear");
    await pause(500);
    await typeLine(t, "/exit");
    expect(await exited(t)).toBe(0);
    expect(sessions(sb)).toEqual([expect.objectContaining({ turns: 1, title: "hello" })]);
  });

  it("a message refused for a missing key is shown once and stores nothing", async () => {
    const sb = makeSandbox("oc-pty-starts-");
    const t = open(sb, { OC_MODEL: "anthropic/claude-haiku-4-5", ANTHROPIC_API_KEY: "" });
    await t.waitFor("❯");
    await typeLine(t, "hi");
    await t.waitFor("✗ ");
    await pause(300);
    const errors = t.history().split("\n").filter((l) => l.startsWith("✗ "));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain("auth: no Anthropic API key");
    await typeLine(t, "/exit");
    expect(await exited(t)).toBe(0);
    expect(sessions(sb)).toEqual([]);
  });
});

describe("pager: refusals and signals", () => {
  it("-m naming no installed provider: the message and exit 2 before the screen is taken", async () => {
    const sb = makeSandbox("oc-pty-starts-");
    const t = open(sb, {}, ["-m", "bogus/x"]);
    expect(await exited(t)).toBe(2);
    // the line wraps at the terminal's width: read the screen as one line
    expect(t.screen().replace(/\n/g, "")).toContain("oceancode: no provider 'bogus' for model 'bogus/x' (is its extension installed and enabled? see oceancode inspect)");
    expect(sessions(sb)).toEqual([]);
  });

  it("a SIGINT sent to the pager leaves it with exit 130", async () => {
    const sb = makeSandbox("oc-pty-starts-");
    const t = open(sb, { OC_MODEL: "scripted/echo" });
    await t.waitFor("❯");
    // the pane runs a shell that runs node: signal node itself, as `kill -INT <pid>` would
    const shell = t.tmux("display", "-p", "-t", t.name, "#{pane_pid}").trim();
    const node = execFileSync("pgrep", ["-P", shell], { encoding: "utf8" }).trim().split("\n")[0]!;
    process.kill(Number(node), "SIGINT");
    expect(await exited(t)).toBe(130);
    expect(sessions(sb)).toEqual([]);
  });
});

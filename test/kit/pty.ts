/**
 * A real terminal for UI tests: runs a command inside a detached tmux session (a real PTY) and reads
 * the screen back with capture-pane. start / send / key / waitFor / screen / resize / close.
 *
 *   const t = await startPty({ args: [CLI], env: sb.env, cwd: sb.project, cols: 80, rows: 24 });
 *   await t.waitFor("❯");
 *   t.send("hello"); t.key("Enter");
 *   await t.waitFor("ok: hello");
 *   t.close();
 */
import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { CLI, cleanupSettled, type Sandbox } from "./cli.js";
import { expect } from "vitest";

export interface PtyOptions {
  /** program and its args; default program is node */
  command?: string;
  args: string[];
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  cols?: number;
  rows?: number;
}

export interface Pty {
  readonly name: string;
  /** type literal text (no key names interpreted) */
  send(text: string): void;
  /** press keys by tmux name: Enter, Escape, Up, C-c, S-Enter, BSpace … */
  key(...keys: string[]): void;
  /** the visible screen, one string (rows joined by \n) */
  screen(): string;
  /** the visible screen with its SGR escapes (colour, bold, inverse) */
  styled(): string;
  /** the screen plus the scrollback */
  history(): string;
  /** resolve when `text` (string or RegExp) is on the screen (or in history with `inHistory`) */
  waitFor(text: string | RegExp, timeoutMs?: number, opts?: { inHistory?: boolean }): Promise<string>;
  /** resolve when `text` is no longer on the screen */
  waitGone(text: string | RegExp, timeoutMs?: number): Promise<string>;
  resize(cols: number, rows: number): void;
  /** is the program still running? */
  alive(): boolean;
  /** the program's exit status once it ended (undefined while running) */
  exitStatus(): number | undefined;
  /** run a tmux command against this session's server (e.g. "display", "-p", "#{pane_title}") */
  tmux(...args: string[]): string;
  close(): void;
}

/** SGR colour parameters (foreground/background, 8/16/256/rgb) found in styled text. */
export function colourCodes(styled: string): string[] {
  const out: string[] = [];
  for (const m of styled.matchAll(/\x1b\[([0-9;]*)m/g)) {
    for (const p of (m[1] ?? "").split(";")) {
      const n = Number(p);
      if ((n >= 30 && n <= 38) || (n >= 40 && n <= 48) || (n >= 90 && n <= 97) || (n >= 100 && n <= 107)) out.push(p);
    }
  }
  return out;
}

/** Without tmux a developer's machine skips the PTY tests; CI installs it (.ci/run) and never skips them: a missing tmux fails there. */
export function hasTmux(): boolean {
  return Boolean(process.env.CI) || spawnSync("tmux", ["-V"]).status === 0;
}

function shq(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

let counter = 0;

export function startPty(o: PtyOptions): Pty {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "oc-pty-"));
  const sock = path.join(dir, "tmux.sock");
  const name = `oc${process.pid}x${++counter}`;
  const statusFile = path.join(dir, "status");
  const cols = o.cols ?? 80;
  const rows = o.rows ?? 24;
  const env = { ...(o.env ?? process.env), TERM: "xterm-256color" };
  // the exported env is the whole environment the program sees (tmux's server env is not inherited)
  const exports = Object.entries(env)
    .filter(([k, v]) => v !== undefined && /^[A-Za-z_][A-Za-z0-9_]*$/.test(k))
    .map(([k, v]) => `export ${k}=${shq(String(v))}`)
    .join("; ");
  const prog = [o.command ?? process.execPath, ...o.args].map(shq).join(" ");
  const script = `env -i /bin/sh -c ${shq(`${exports}; cd ${shq(o.cwd ?? process.cwd())}; ${prog}; echo $? > ${shq(statusFile + ".tmp")}; mv ${shq(statusFile + ".tmp")} ${shq(statusFile)}; sleep 600`)}`;
  const tmux = (...a: string[]) => execFileSync("tmux", ["-S", sock, ...a], { encoding: "utf8" });
  execFileSync("tmux", ["-S", sock, "-f", "/dev/null", "new-session", "-d", "-s", name, "-x", String(cols), "-y", String(rows), script], { env: { PATH: process.env.PATH, HOME: os.tmpdir(), TERM: "xterm-256color" } });
  tmux("set-option", "-t", name, "status", "off");
  tmux("set-option", "-t", name, "history-limit", "20000");
  tmux("set-window-option", "-t", name, "window-size", "manual");

  const screen = () => {
    try {
      return tmux("capture-pane", "-p", "-t", name);
    } catch {
      return "";
    }
  };
  const history = () => {
    try {
      return tmux("capture-pane", "-p", "-S", "-20000", "-t", name);
    } catch {
      return "";
    }
  };
  const matches = (s: string, t: string | RegExp) => (typeof t === "string" ? s.includes(t) : t.test(s));
  const poll = async (test: () => boolean, what: string, timeoutMs: number, read: () => string): Promise<string> => {
    const until = Date.now() + timeoutMs;
    for (;;) {
      if (test()) return read();
      if (Date.now() > until) throw new Error(`pty: timed out after ${timeoutMs}ms waiting for ${what}\n--- screen ---\n${read()}\n--------------`);
      await new Promise((r) => setTimeout(r, 40));
    }
  };
  const exitStatus = () => {
    try {
      // written under another name and renamed: never read half-written (an empty read was exit 0)
      const text = fs.readFileSync(statusFile, "utf8").trim();
      return text === "" ? undefined : Number(text);
    } catch {
      return undefined;
    }
  };

  return {
    name,
    send(text) {
      tmux("send-keys", "-t", name, "-l", text);
    },
    key(...keys) {
      tmux("send-keys", "-t", name, ...keys);
    },
    screen,
    styled() {
      try {
        return tmux("capture-pane", "-p", "-e", "-t", name);
      } catch {
        return "";
      }
    },
    history,
    // 30 s bounds: a met condition returns at once; only a loaded machine (CI's two cores with the whole suite) comes near them
    waitFor(text, timeoutMs = 30_000, opts = {}) {
      const read = opts.inHistory ? history : screen;
      return poll(() => matches(read(), text), JSON.stringify(String(text)), timeoutMs, read);
    },
    waitGone(text, timeoutMs = 30_000) {
      return poll(() => !matches(screen(), text), `${String(text)} to disappear`, timeoutMs, screen);
    },
    resize(c, r) {
      tmux("resize-window", "-t", name, "-x", String(c), "-y", String(r));
    },
    alive: () => exitStatus() === undefined,
    exitStatus,
    tmux,
    close() {
      try {
        tmux("kill-server");
      } catch {
        /* already gone */
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The pager (the compiled CLI) in a PTY on the sandbox's project: `env` over the sandbox's, `args` after `--dir`. */
export function openPager(s: Sandbox, env: NodeJS.ProcessEnv = {}, args: string[] = [], size = { cols: 100, rows: 30 }): Pty {
  return startPty({ args: [CLI, "--dir", s.project, ...args], env: { ...s.env, ...env }, cwd: s.project, ...size });
}

/** A pager on the fake Anthropic server (test/kit/fakes/anthropic-server.ts): a Claude model, a test key, fast retries. */
export function openPagerOnFake(s: Sandbox, url: string, env: NodeJS.ProcessEnv = {}): Pty {
  return openPager(s, { OC_MODEL: "anthropic/claude-haiku-4-5", ANTHROPIC_API_KEY: "sk-test", ANTHROPIC_BASE_URL: url, OC_RETRY_BASE_MS: "10", ...env });
}

/**
 * Type `text`, submit it, wait for `answer` in the history and for the turn to end; the `n`-th request
 * the fake recorded (asserting that there are exactly `n`).
 */
export async function askRecorded<R>(p: Pty, requests: readonly R[], text: string, n: number, answer: RegExp, timeoutMs = 30_000): Promise<R> {
  p.send(text);
  p.key("Enter");
  // the answer pattern may already be in the history from an earlier ask: wait for this ask's request
  // first, so a slow machine cannot read the count before the turn has started
  const deadline = Date.now() + timeoutMs;
  while (requests.length < n && Date.now() < deadline) await pause(25);
  await p.waitFor(answer, Math.max(1_000, deadline - Date.now()), { inHistory: true });
  await p.waitGone("working…", 30_000);
  expect(requests.length, `requests after '${text}'`).toBe(n);
  return requests[n - 1]!;
}

export const pause = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Type a line into the composer and press Enter (after a pause, so the paste lands first). */
export async function typeLine(p: Pty, text: string, settleMs = 120): Promise<void> {
  p.send(text);
  await pause(settleMs);
  p.key("Enter");
}

/** A pager test's afterEach: close the terminal, then remove the sandbox once the pager has let go of it. */
export async function closePager(t: Pty | undefined, sb: Sandbox | undefined): Promise<void> {
  t?.close();
  await cleanupSettled(sb);
}

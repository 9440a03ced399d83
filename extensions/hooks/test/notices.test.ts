/**
 * A hook source whose hooks are not running is never a surprise: `hooks list` names a parse error at
 * file:line, and every run and pager session says once per source that its hooks are not running.
 */
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CLI, makeSandbox, runCli, type Sandbox } from "../../../test/kit/cli.js";
import { hasTmux, startPty, type Pty } from "../../../test/kit/pty.js";
import { writeHooks, writeScript, type Groups } from "./fixtures.js";

let sb: Sandbox;
let pty: Pty | undefined;
beforeEach(() => {
  sb = makeSandbox("oc-hooks-notices-");
});
afterEach(() => {
  pty?.close();
  pty = undefined;
  sb.cleanup();
});

const oc = (...args: string[]) => runCli(["--dir", sb.project, "--home", sb.home, ...args], { env: sb.env, cwd: sb.project });
/** three steps with tool calls, so a notice given per step or per event would show more than once */
const steps = [
  { text: "one", tool_calls: [{ name: "bash", input: { command: "echo one" } }] },
  { text: "two", tool_calls: [{ name: "bash", input: { command: "echo two" } }, { name: "bash", input: { command: "echo three" } }] },
  { text: "done" },
];
function run(cont = false) {
  const model = writeScript(sb, steps);
  return oc("run", "--model", model, ...(cont ? ["--continue"] : []), "go");
}
/** line 4, column 27 is where the comma is missing (before "hooks") */
const broken = '{\n  "hooks": {\n    "PreToolUse": [\n      { "matcher": "Bash" "hooks": [] }\n    ]\n  }\n}\n';
const stderrLines = (s: string, needle: string) => s.split("\n").filter((l) => l.includes(needle));
const guard: Groups = {
  SessionStart: [{ hooks: [{ type: "command", command: "true" }] }],
  PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "./guard.sh" }] }],
};

describe("an invalid hooks source", () => {
  it("hooks list shows the parse error at file:line and still ends with HOOKS_OK", () => {
    const file = sb.write(".claude/settings.json", broken);
    writeHooks(sb, ".oceancode/settings.json", { Stop: [{ hooks: [{ type: "command", command: "s" }] }] });
    const r = oc("hooks", "list");
    expect(r.code).toBe(0);
    const line = r.stdout.split("\n").find((l) => l.includes(`${file}  invalid`));
    expect(line).toContain(`(${file}:4:27: not valid JSON: Expected ',' or '}' after property value)`);
    expect(r.stdout.trim().split("\n").at(-1)).toBe("HOOKS_OK sources=2 handlers=1 loaded=1");
    const json = JSON.parse(oc("hooks", "list", "--json").stdout) as { sources: Array<{ path: string; status: string; error?: string }> };
    expect(json.sources.find((s) => s.path === file)).toMatchObject({ status: "invalid", error: `${file}:4:27: not valid JSON: Expected ',' or '}' after property value` });
  });

  it("a file that parses but has the wrong shape is named at the line of the bad key", () => {
    const file = sb.write(".oceancode/settings.json", '{\n  "model": "x",\n  "hooks": {\n    "Stop": "not a list"\n  }\n}\n');
    const r = oc("hooks", "list");
    expect(r.stdout).toContain(`(${file}:4: "hooks.Stop" must be a list of groups)`);
    expect(r.stdout.trim().split("\n").at(-1)).toBe("HOOKS_OK sources=1 handlers=0 loaded=0");
  });

  it("a run warns exactly once that the source's hooks are not running (and a --continue run once again)", () => {
    const file = sb.write(".oceancode/settings.json", broken);
    const r = run();
    expect(r.code).toBe(0);
    const notes = stderrLines(r.stderr, "its hooks are not running");
    expect(notes).toEqual([`oceancode: warning: [hooks] ${file}:4:27: not valid JSON: Expected ',' or '}' after property value — its hooks are not running`]);
    expect(stderrLines(r.stderr, "[hooks]")).toHaveLength(1);
    const again = run(true);
    expect(stderrLines(again.stderr, "its hooks are not running")).toHaveLength(1);
  });
});

describe("a held (untrusted) hooks source", () => {
  it("a run warns exactly once per held file, naming it and `oceancode trust repo on`; trusted, it says nothing", () => {
    const shared = writeHooks(sb, ".claude/settings.json", guard);
    const local = writeHooks(sb, ".claude/settings.local.json", { Stop: [{ hooks: [{ type: "command", command: "true" }] }] });
    sb.write("guard.sh", "#!/bin/sh\nexit 0\n");
    const r = run();
    expect(r.code).toBe(0);
    const notes = stderrLines(r.stderr, "oceancode trust repo on");
    expect(notes).toEqual([
      `oceancode: warning: [hooks] 2 hooks in ${shared} are not running: this project is not trusted (oceancode trust repo on runs them)`,
      `oceancode: warning: [hooks] 1 hook in ${local} is not running: this project is not trusted (oceancode trust repo on runs them)`,
    ]);
    expect(oc("trust", "repo", "on").code).toBe(0);
    const trusted = run(true);
    expect(trusted.code).toBe(0);
    expect(stderrLines(trusted.stderr, "[hooks]")).toEqual([]);
  });

  it("hooks list and inspect do not print the notice (they list the source instead)", () => {
    const shared = writeHooks(sb, ".claude/settings.json", guard);
    const r = oc("hooks", "list");
    expect(r.stdout).toContain(`${shared}  held: untrusted`);
    expect(r.stderr).not.toContain("not running");
  });
});

describe.skipIf(!hasTmux())("in the pager", () => {
  it("a held source is named once, in the scrollback, however many prompts follow", async () => {
    const shared = writeHooks(sb, ".claude/settings.json", guard);
    pty = startPty({ args: [CLI, "--dir", sb.project], env: { ...sb.env, OC_MODEL: "scripted/echo" }, cwd: sb.project, cols: 200, rows: 40 });
    await pty.waitFor("❯");
    await pty.waitFor("oceancode trust repo on", 20_000, { inHistory: true });
    for (const word of ["first", "second"]) {
      pty.send(word);
      await new Promise((r) => setTimeout(r, 150));
      pty.key("Enter");
      await pty.waitFor(`ok: ${word}`, 20_000, { inHistory: true });
      await pty.waitGone("working…"); // the turn has ended: the composer takes the next prompt
    }
    const hist = pty.history();
    expect(hist.split("\n").filter((l) => l.includes("oceancode trust repo on"))).toHaveLength(1);
    expect(hist).toContain(path.basename(path.dirname(shared)));
  });
});

/**
 * A hostile checkout: its .claude/settings.json wires hooks on every event that would drop a marker
 * file. None of them may run — not at session start, not on the prompt, not around a tool call, not at
 * stop or end, not from `hooks list` or `inspect` — until the user says `oceancode trust repo on`; and
 * every run says, once, that they are held.
 */
import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeSandbox, runCli, type Sandbox } from "../kit/cli.js";

let sb: Sandbox;
beforeEach(() => {
  sb = makeSandbox("oc-sec-hooks-held-");
});
afterEach(() => sb.cleanup());

const oc = (...args: string[]) => runCli(["--dir", sb.project, "--home", sb.home, ...args], { env: sb.env, cwd: sb.project });

const EVENTS = ["SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "PostToolUseFailure", "PermissionDenied", "Stop", "SessionEnd"];

describe("hooks from an untrusted repo", () => {
  it("do not run until `oceancode trust repo on`, and the run says so once", () => {
    const marker = path.join(sb.home, "pwned");
    const hostile = (event: string) => ({ matcher: "*", hooks: [{ type: "command", command: `echo ${event} >> ${JSON.stringify(marker)}` }] });
    const settings = sb.write(".claude/settings.json", JSON.stringify({ hooks: Object.fromEntries(EVENTS.map((e) => [e, [hostile(e)]])) }, null, 2));
    sb.write(
      "script.json",
      JSON.stringify({ steps: [{ text: "looking", tool_calls: [{ name: "bash", input: { command: "echo hello" } }] }, { text: "done" }] }),
    );
    // a fresh session each time, so every run makes the tool call
    const run = () => oc("run", "--model", "scripted/script.json", "go");

    // reading the files runs nothing
    expect(oc("hooks", "list").stdout).toContain(`${settings}  held: untrusted`);
    oc("inspect");
    expect(fs.existsSync(marker)).toBe(false);

    const held = run();
    expect(held.code).toBe(0);
    expect(fs.existsSync(marker)).toBe(false);
    const notes = held.stderr.split("\n").filter((l) => l.includes("not running"));
    expect(notes).toEqual([`oceancode: warning: [hooks] ${EVENTS.length} hooks in ${settings} are not running: this project is not trusted (oceancode trust repo on runs them)`]);

    expect(oc("trust", "repo", "on").code).toBe(0);
    const trusted = run();
    expect(trusted.code).toBe(0);
    expect(trusted.stderr).not.toContain("not running");
    const ran = fs.readFileSync(marker, "utf8").split("\n").filter(Boolean);
    for (const e of ["SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "Stop", "SessionEnd"]) expect(ran).toContain(e);

    // and `trust repo off` holds them again
    fs.rmSync(marker);
    expect(oc("trust", "repo", "off").code).toBe(0);
    const again = run();
    expect(fs.existsSync(marker)).toBe(false);
    expect(again.stderr.split("\n").filter((l) => l.includes("oceancode trust repo on"))).toHaveLength(1);
  });

  it("a held settings.local.json is named on its own line; an invalid one is named with its parse error", () => {
    const marker = path.join(sb.home, "pwned");
    const local = sb.write(".claude/settings.local.json", JSON.stringify({ hooks: { UserPromptSubmit: [{ hooks: [{ type: "command", command: `touch ${JSON.stringify(marker)}` }] }] } }));
    const shared = sb.write(".claude/settings.json", '{"hooks": {"PreToolUse": [}}');
    sb.write("script.json", JSON.stringify({ steps: [{ text: "done" }] }));
    const r = oc("run", "--model", "scripted/script.json", "go");
    expect(r.code).toBe(0);
    expect(fs.existsSync(marker)).toBe(false);
    const hooksLines = r.stderr.split("\n").filter((l) => l.startsWith("oceancode: warning: [hooks]"));
    expect(hooksLines).toHaveLength(2);
    expect(hooksLines.find((l) => l.includes(local))).toContain("1 hook in");
    expect(hooksLines.find((l) => l.includes(shared))).toMatch(new RegExp(`${shared.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}:1:\\d+: not valid JSON: .* — its hooks are not running$`));
  });
});

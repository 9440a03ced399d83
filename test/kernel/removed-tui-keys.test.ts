/**
 * The native-TUI keys removed on 2026-10-05 (tui, keybindings, disabled_providers, notifications): a file
 * that still carries them loads unchanged and says so once per file version, not on every command run
 * (smaller finding 51). The compiled CLI in a throwaway HOME; the memory is in the state dir.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeSandbox, runCli, type Sandbox } from "../kit/cli.js";

let sb: Sandbox;
let user = "";
beforeAll(() => {
  sb = makeSandbox("oc-tui-keys-");
  user = sb.write(".config/oceancode/oceancode.json", JSON.stringify({ tui: { theme: "dark" }, keybindings: { leader: "ctrl+x" }, disabled_providers: ["openai"], notifications: true, model: "scripted/echo", bogus_key: 1 }), "home");
});
afterAll(() => sb.cleanup());

const oc = (args: string[]) => runCli(["--dir", sb.project, ...args], { env: sb.env, cwd: sb.project });
const tuiLines = (stderr: string) => stderr.split("\n").filter((l) => l.includes("native-TUI keys"));

describe("removed native-TUI keys", () => {
  it("the first run says them in one line naming the file; the run works with the file's other keys", () => {
    const r = oc(["run", "hi"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain("ok: hi");
    expect(tuiLines(r.stderr)).toEqual([`oceancode: warning: ${user}: ignoring the native-TUI keys removed on 2026-10-05: tui, keybindings, disabled_providers, notifications (the file loads unchanged; said once until the file changes)`]);
    // no per-key "unknown config section" line for them; a truly unknown key still has its own
    expect(r.stderr).not.toMatch(/unknown config section '(tui|keybindings|disabled_providers|notifications)'/);
    expect(r.stderr).toContain("unknown config section 'bogus_key'");
    expect(fs.existsSync(path.join(sb.home, ".local", "state", "oceancode", "said-once.json"))).toBe(true);
  });

  it("later commands say nothing about them; the other unknown key is still said each run", () => {
    for (const args of [["run", "again"], ["permissions", "check", "bash", "ls"]]) {
      const r = oc(args);
      expect(r.code, r.stderr).toBe(0);
      expect(tuiLines(r.stderr)).toEqual([]);
      expect(r.stderr).toContain("unknown config section 'bogus_key'");
    }
  });

  it("a changed file, or another file with them, is said again, once", () => {
    fs.writeFileSync(user, JSON.stringify({ tui: { theme: "light" }, model: "scripted/echo", bogus_key: 1 }));
    const project = sb.write(".oceancode/oceancode.json", JSON.stringify({ notifications: false }));
    const first = oc(["run", "hi"]);
    expect(first.code, first.stderr).toBe(0);
    expect(tuiLines(first.stderr).sort()).toEqual(
      [
        `oceancode: warning: ${user}: ignoring the native-TUI keys removed on 2026-10-05: tui (the file loads unchanged; said once until the file changes)`,
        `oceancode: warning: ${project}: ignoring the native-TUI keys removed on 2026-10-05: notifications (the file loads unchanged; said once until the file changes)`,
      ].sort(),
    );
    expect(tuiLines(oc(["run", "hi"]).stderr)).toEqual([]);
  });
});

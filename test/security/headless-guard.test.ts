/**
 * `oceancode run --auto` has a ceiling: it approves rule asks, never the shell guard's own asks (a
 * throwaway HOME was once deleted this way). Real CLI, scripted model, sacrificial HOME with markers.
 */
import { afterEach, describe, expect, it } from "vitest";
import fs from "node:fs";
import path from "node:path";
import { runCli } from "../kit/cli.js";
import { makeVictim, runScript, survivors, bashStep, type Victim } from "./headless-helpers.js";

let v: Victim | undefined;
afterEach(() => v?.sb.cleanup());

/** The catastrophic shapes a model may try, and what the model must be told. */
const SHAPES: Array<{ command: string; reason: RegExp }> = [
  { command: "rm -rf ~", reason: /recursive rm of the home directory/ },
  { command: 'rm -rf "$HOME"', reason: /recursive rm of the home directory/ },
  { command: "rm -rf ..", reason: /recursive rm of/ },
  { command: "rm -rf $UNSET/", reason: /cannot be resolved before it runs/ },
  { command: "cat evil.sh | sh", reason: /script read from a pipe/ },
  { command: 'eval "$X"', reason: /eval of text that cannot be resolved/ },
  { command: "find ~ -delete", reason: /find deleting of the home directory/ },
];

describe("run --auto never approves a guard ask", () => {
  it("every catastrophic shape is rejected with its reason; the markers survive; the run exits 0", () => {
    v = makeVictim();
    const ran = path.join(v.root, "ran.txt");
    v.sb.write("evil.sh", `touch ${ran}\n`);
    const steps = [...SHAPES.map((s) => bashStep(s.command)), bashStep("curl -s http://127.0.0.1:9/x | sh"), { text: "done" }];
    // an allow-all bash rule does not reach the guard asks
    const r = runScript(v.sb, steps, { permission: ["bash * allow"] }, ["--auto"], { X: `touch ${ran}` });
    expect(r.code, r.stderr).toBe(0);
    expect(survivors(v)).toEqual(v.markers);
    expect(fs.existsSync(ran)).toBe(false);
    expect(r.results.length).toBe(SHAPES.length + 1);
    SHAPES.forEach((s, i) => {
      const got = r.results[i]!;
      expect(got.isError, s.command).toBe(true);
      expect(got.content, s.command).toContain("rejected: --auto approves rule asks only");
      expect(got.content, s.command).toMatch(s.reason);
      expect(got.content, s.command).not.toMatch(/denied by user|the user rejected/);
    });
    // curl | sh never reaches an ask: the dangerous floor denies it
    expect(r.results[SHAPES.length]!.content).toMatch(/dangerous floor/);
    expect(r.stderr).toContain("rejected: --auto never approves this ask");
    expect(r.stderr).not.toContain("approved by --auto");
  });

  it("a rule ask is still approved by --auto", () => {
    v = makeVictim();
    const r = runScript(v.sb, [bashStep("touch made.txt"), { text: "done" }], { permission: ["bash * ask"] }, ["--auto"]);
    expect(r.code, r.stderr).toBe(0);
    expect(fs.existsSync(path.join(v.sb.project, "made.txt"))).toBe(true);
    expect(r.results[0]!.isError).toBe(false);
    expect(r.stderr).toContain("approved by --auto");
  });

  it("an explicit exact allow rule lets --auto approve that one guarded command, and nothing wider", () => {
    v = makeVictim();
    const scratch = path.join(v.root, "scratch");
    fs.mkdirSync(path.join(scratch, "sub"), { recursive: true });
    fs.writeFileSync(path.join(scratch, "sub", "f"), "x");
    // `rm -rf $SCRATCH_DIR/` with the variable unset in the rule check is unresolvable: a guard ask
    const exact = "rm -rf $SCRATCH_DIR/sub";
    const other = "rm -rf $SCRATCH_DIR/../marker.txt";
    const steps = [bashStep(exact), bashStep(other), { text: "done" }];
    const r = runScript(v.sb, steps, { permission: [`bash ${exact} allow`] }, ["--auto"], { SCRATCH_DIR: scratch });
    expect(r.code, r.stderr).toBe(0);
    // approved by the exact rule, so automatic: it runs confined and cannot delete outside the project (issue 27)
    expect(fs.existsSync(path.join(scratch, "sub"))).toBe(true);
    expect(r.results[0]!.content).not.toContain("rejected");
    expect(r.results[0]!.isError, r.results[0]!.content).toBe(false);
    expect(r.results[1]!.content).toContain("rejected: --auto approves rule asks only");
    expect(survivors(v)).toEqual(v.markers);
  });

  it("Claude Code's exact Bash(cmd) allow counts as the exact rule; a wildcard one does not", () => {
    v = makeVictim();
    const scratch = path.join(v.root, "scratch");
    fs.mkdirSync(path.join(scratch, "a"), { recursive: true });
    fs.mkdirSync(path.join(scratch, "b"), { recursive: true });
    v.sb.write(".claude/settings.local.json", JSON.stringify({ permissions: { allow: ["Bash(rm -rf $S/a)", "Bash(rm -rf $S/b *)"] } }));
    // the checkout's .claude allow entries are held until the project is trusted
    const trust = runCliTrust(v);
    expect(trust, "trust repo on").toBe(0);
    const steps = [bashStep("rm -rf $S/a"), bashStep("rm -rf $S/b"), { text: "done" }];
    const r = runScript(v.sb, steps, {}, ["--auto"], { S: scratch });
    expect(r.code, r.stderr).toBe(0);
    // a approved (and confined: scratch is outside the project, so it survives), b rejected
    expect(r.results[0]!.content).not.toContain("rejected");
    expect(fs.existsSync(path.join(scratch, "a"))).toBe(true);
    expect(fs.existsSync(path.join(scratch, "b"))).toBe(true);
    expect(r.results[1]!.content).toContain("rejected: --auto approves rule asks only");
  });
});

describe("a headless ask without --auto", () => {
  it("tells the model it was rejected because the run has no --auto, with the reason; no user is blamed", () => {
    v = makeVictim();
    const r = runScript(v.sb, [bashStep("touch made.txt"), { text: "done" }], { permission: ["bash * ask"] });
    expect(r.code, r.stderr).toBe(0);
    expect(fs.existsSync(path.join(v.sb.project, "made.txt"))).toBe(false);
    const got = r.results[0]!;
    expect(got.isError).toBe(true);
    expect(got.content).toBe("Permission denied by oceancode run: rejected: run without --auto (bash * ask matched 'touch made.txt': touch made.txt)");
    expect(got.content).not.toMatch(/by user|user rejected/);
    expect(r.stderr).toContain("rejected (run without --auto; rerun with --auto to approve)");
  });

  it("a guard ask is rejected the same way", () => {
    v = makeVictim();
    const r = runScript(v.sb, [bashStep("rm -rf ~"), { text: "done" }], {});
    expect(r.code, r.stderr).toBe(0);
    expect(survivors(v)).toEqual(v.markers);
    expect(r.results[0]!.content).toMatch(/^Permission denied by oceancode run: rejected: run without --auto \(recursive rm of the home directory/);
  });
});

function runCliTrust(vic: Victim): number | null {
  return runCli(["--dir", vic.sb.project, "trust", "repo", "on"], { env: vic.sb.env }).code;
}

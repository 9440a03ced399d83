/**
 * The checkout's Claude Code settings (.claude/settings.json, .claude/settings.local.json) are the repo
 * tier: until `oceancode trust repo on` only their ask and deny entries apply, their allow entries are
 * held, and their defaultMode applies only when stricter. ~/.claude/settings.json (user tier) is unaffected.
 */
import { afterEach, describe, expect, it } from "vitest";
import fs from "node:fs";
import path from "node:path";
import { runCli } from "../kit/cli.js";
import { makeVictim, runScript, bashStep, survivors, type Victim } from "./headless-helpers.js";

let v: Victim | undefined;
afterEach(() => v?.sb.cleanup());

function check(vic: Victim, ...args: string[]) {
  return runCli(["--dir", vic.sb.project, "permissions", "check", ...args], { env: vic.sb.env });
}
function trustRepo(vic: Victim): void {
  expect(runCli(["--dir", vic.sb.project, "trust", "repo", "on"], { env: vic.sb.env }).code).toBe(0);
}

describe("repo-tier .claude settings until the project is trusted", () => {
  it("an exact allow from the checkout does not let --auto approve a guard ask; after trust it does", () => {
    v = makeVictim();
    const scratch = path.join(v.root, "scratch");
    fs.mkdirSync(path.join(scratch, "sub"), { recursive: true });
    const file = v.sb.write(".claude/settings.json", JSON.stringify({ permissions: { allow: ["Bash(rm -rf $S/sub)"] } }));
    const steps = [bashStep("rm -rf $S/sub"), { text: "done" }];
    const held = runScript(v.sb, steps, {}, ["--auto"], { S: scratch });
    expect(held.code, held.stderr).toBe(0);
    expect(fs.existsSync(path.join(scratch, "sub"))).toBe(true);
    expect(held.results[0]!.content).toContain("rejected: --auto approves rule asks only");
    expect(held.stderr).toContain(`${file}: held until you trust this project (oceancode trust repo on): 1 permissions.allow rule;`);

    trustRepo(v);
    const trusted = runScript(v.sb, steps, {}, ["--auto"], { S: scratch });
    expect(trusted.code, trusted.stderr).toBe(0);
    // approved now, by the exact rule: automatic, so it runs confined and cannot reach outside the project (issue 27)
    expect(trusted.results[0]!.content).not.toContain("rejected: --auto");
    expect(trusted.results[0]!.content).toMatch(/exit code: \d+/);
    expect(fs.existsSync(path.join(scratch, "sub"))).toBe(true);
    expect(trusted.stderr).not.toContain("held until you trust this project");
    expect(survivors(v)).toEqual(v.markers);
  });

  it("deny and ask entries from the checkout apply untrusted; one warning line per file names what was held", () => {
    v = makeVictim();
    const shared = v.sb.write(".claude/settings.json", JSON.stringify({ permissions: { deny: ["Bash(npm publish:*)"], allow: ["Bash(npm *)", "Read"] } }));
    const local = v.sb.write(".claude/settings.local.json", JSON.stringify({ permissions: { ask: ["Bash(npm test)"], defaultMode: "acceptEdits" } }));
    const deny = check(v, "bash", "npm publish");
    expect(deny.stdout.split("\n")[0]).toBe("DENY");
    expect(deny.stdout).toContain(`file: ${shared}`);
    const ask = check(v, "bash", "npm test");
    expect(ask.stdout.split("\n")[0]).toBe("ASK");
    expect(ask.stdout).toContain(`file: ${local}`);
    expect(ask.stdout).toContain("mode: default");
    const lines = deny.stderr.split("\n").filter((l) => l.includes("held until you trust this project"));
    expect(lines).toEqual([
      expect.stringContaining(`${shared}: held until you trust this project (oceancode trust repo on): 2 permissions.allow rules; its ask and deny rules apply`),
      expect.stringContaining(`${local}: held until you trust this project (oceancode trust repo on): permissions.defaultMode "acceptEdits" (not stricter than default);`),
    ]);
  });

  it("defaultMode from the checkout: a looser one is held, a stricter one applies; trusted, the checkout's wins", () => {
    v = makeVictim();
    v.sb.write(".claude/settings.json", JSON.stringify({ permissions: { defaultMode: "bypassPermissions" } }));
    const held = check(v, "bash", "rm x");
    expect(held.stdout, `exit ${held.code}; stderr: ${held.stderr}`).toContain("mode: default");
    v.sb.write(".claude/settings.json", JSON.stringify({ permissions: { defaultMode: "plan" } }));
    const plan = check(v, "bash", "rm x");
    expect(plan.stdout, `exit ${plan.code}; stderr: ${plan.stderr}`).toContain("mode: plan");
    expect(plan.stdout.split("\n")[0]).toBe("DENY");
    expect(plan.stderr).not.toContain("held until you trust this project");
    v.sb.write(".claude/settings.json", JSON.stringify({ permissions: { defaultMode: "bypassPermissions" } }));
    trustRepo(v);
    expect(check(v, "bash", "rm x").stdout).toContain("mode: bypassPermissions");
  });

  it("the user tier (~/.claude/settings.json) is unaffected: its allow and defaultMode apply untrusted", () => {
    v = makeVictim();
    v.sb.write(".claude/settings.json", JSON.stringify({ permissions: { allow: ["Bash(rm -rf $S/sub)"], defaultMode: "acceptEdits" } }), "home");
    const r = check(v, "bash", "rm -rf $S/sub");
    expect(r.stdout.split("\n")[0]).toBe("ASK");
    expect(r.stdout).toContain("mode: acceptEdits");
    expect(r.stdout).toContain("--auto: approves");
    expect(r.stderr).not.toContain("held until you trust this project");
  });
});

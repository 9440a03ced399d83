/**
 * On the Claude Code route a Claude Code hook fires once per prompt (claude runs it; oceancode leaves the
 * shared sources to it) while oceancode's own .oceancode/ hook still fires; the settings mirror gives
 * claude-code/mirror its model and is re-read live; without claude one line says how to install it.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startBed, type Bed } from "./fixture.js";
import { readMirror, reloadNotice, settingsFiles, watchSettings } from "../settings.js";
import { INSTALL_HINT } from "../locate.js";

let bed: Bed;
beforeAll(async () => {
  bed = await startBed();
}, 30_000);
afterAll(async () => bed?.close());

const lines = (file: string) => (fs.existsSync(file) ? fs.readFileSync(file, "utf8").split("\n").filter(Boolean) : []);

describe("claude-code route: hooks and the settings mirror", () => {
  test("a UserPromptSubmit hook in .claude/settings.local.json fires exactly once per prompt; oceancode's own hook too", async () => {
    const shared = path.join(bed.sb.home, "shared-marker.txt");
    const own = path.join(bed.sb.home, "own-marker.txt");
    const hook = (file: string) => ({ hooks: { UserPromptSubmit: [{ hooks: [{ type: "command", command: `echo fired >> ${file}` }] }] } });
    bed.sb.write(".claude/settings.local.json", JSON.stringify(hook(shared)));
    bed.sb.write(".oceancode/settings.json", JSON.stringify(hook(own)));
    // trusted, so oceancode loads the .claude source: on any other route it would dispatch it itself
    const trust = await bed.run(["trust", "repo", "on"]);
    expect(trust.code, trust.stderr).toBe(0);
    const r1 = await bed.run(["run", "--model", "claude-code/sonnet", "first prompt"]);
    expect(r1.code, r1.stderr).toBe(0);
    expect(lines(shared)).toEqual(["fired"]);
    expect(lines(own)).toEqual(["fired"]);
    const r2 = await bed.run(["run", "--continue", "--model", "claude-code/sonnet", "second prompt"]);
    expect(r2.code, r2.stderr).toBe(0);
    expect(lines(shared)).toEqual(["fired", "fired"]);
    expect(lines(own)).toEqual(["fired", "fired"]);
    // /hooks still lists the shared source, marked as such
    const list = await bed.run(["hooks", "list", "--json"]);
    expect(list.stdout).toContain("settings.local.json");
    const src = (JSON.parse(list.stdout) as { sources: Array<{ path: string; status: string; shared_with_claude_code: boolean }> }).sources.find((x) => x.path.endsWith("settings.local.json"));
    expect(src).toMatchObject({ status: "loaded", shared_with_claude_code: true });
    fs.rmSync(path.join(bed.sb.project, ".claude", "settings.local.json"));
    fs.rmSync(path.join(bed.sb.project, ".oceancode", "settings.json"));
    await bed.run(["trust", "repo", "off"]);
  }, 90_000);

  test("claude-code/mirror runs the mirrored model from ~/.claude/settings.json", async () => {
    bed.sb.write(".claude/settings.json", JSON.stringify({ model: "haiku", effortLevel: "low" }), "home");
    const before = bed.turns().length;
    const r = await bed.run(["run", "--model", "claude-code/mirror", "which model"]);
    expect(r.code, r.stderr).toBe(0);
    expect(bed.turns()[before]!.body.model).toMatch(/haiku/);
    fs.rmSync(path.join(bed.sb.home, ".claude", "settings.json"));
  }, 90_000);

  test("not installed: one line says how to install claude (run, oceancode claude, login)", async () => {
    const env = { OC_CLAUDE_BIN: path.join(bed.sb.home, "no-such-claude") };
    const run = await bed.run(["run", "--model", "claude-code/sonnet", "hi"], env);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain(INSTALL_HINT);
    const pager = await bed.run(["claude"], env);
    expect(pager.code).toBe(2);
    expect(pager.stderr.trim().split("\n")).toEqual([`oceancode: ${INSTALL_HINT}`]);
    const login = await bed.run(["login"], env);
    expect(login.code).toBe(2);
    expect(login.stderr.trim().split("\n")).toEqual([`oceancode: ${INSTALL_HINT}`]);
  }, 60_000);
});

describe("the claude child's environment", () => {
  test("canary secrets of oceancode's environment never reach claude; what claude reads for its login does", async () => {
    // a stand-in claude that dumps its environment and answers with one valid result line
    const dump = path.join(bed.sb.home, "claude-env.txt");
    const result = JSON.stringify({ type: "result", subtype: "success", is_error: false, result: "ok", stop_reason: "end_turn", session_id: "s", total_cost_usd: 0, usage: { input_tokens: 1, output_tokens: 1 } });
    const stub = bed.sb.write("bin/claude-env", `#!/bin/sh\nenv > ${dump}\ncat > /dev/null\necho '${result}'\n`, "home");
    fs.chmodSync(stub, 0o755);
    const r = await bed.run(["run", "--model", "claude-code/sonnet", "hi"], { OC_CLAUDE_BIN: stub, OPENAI_API_KEY: "canary-openai-7731", OC_SERVER_PASSWORD: "canary-oc-7732", GITHUB_TOKEN: "canary-gh-7733" });
    expect(r.code, r.stderr).toBe(0);
    const env = fs.readFileSync(dump, "utf8");
    for (const canary of ["canary-openai-7731", "canary-oc-7732", "canary-gh-7733"]) expect(env).not.toContain(canary);
    expect(env).not.toMatch(/^OC_/m);
    expect(env).toContain("ANTHROPIC_API_KEY=sk-ant-fake-claude-code");
    expect(env).toContain(`ANTHROPIC_BASE_URL=${bed.fake.url}`);
  }, 60_000);
});

describe("login / logout delegate to claude's own", () => {
  test("oceancode login runs `claude auth login`, logout `claude auth logout`; oceancode stores nothing", async () => {
    // a stand-in claude that records how it was called (the real one would open a browser)
    const calls = path.join(bed.sb.home, "claude-calls.txt");
    const stub = bed.sb.write("bin/claude", `#!/bin/sh\necho "$@" >> ${calls}\n`, "home");
    fs.chmodSync(stub, 0o755);
    const env = { OC_CLAUDE_BIN: stub };
    const login = await bed.run(["login"], env);
    expect(login.code, login.stderr).toBe(0);
    const logout = await bed.run(["logout"], env);
    expect(logout.code, logout.stderr).toBe(0);
    expect(lines(calls)).toEqual(["auth login", "auth logout"]);
    const other = await bed.run(["login", "--provider", "copilot"], env);
    expect(other.code).toBe(2);
    expect(other.stderr).toContain("not available in this build");
    expect(lines(calls)).toHaveLength(2);
    expect(fs.existsSync(path.join(bed.sb.home, ".local", "share", "oceancode", "auth.json"))).toBe(false);
  }, 60_000);
});

describe("the settings mirror (real files, the real watcher)", () => {
  test("lowest precedence first, modelSettings per model, and a save is seen within a quarter second", async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), "oc-mirror-"));
    const home = path.join(root, "home");
    const project = path.join(root, "project");
    for (const d of [path.join(home, ".claude"), path.join(project, ".claude")]) fs.mkdirSync(d, { recursive: true });
    const [user, shared, local] = settingsFiles(home, project) as [string, string, string];
    fs.writeFileSync(user, JSON.stringify({ model: "sonnet", effortLevel: "medium", modelSettings: { opus: { effortLevel: "max" } } }));
    fs.writeFileSync(shared, JSON.stringify({ effortLevel: "high" }));
    let m = readMirror([user, shared, local], true);
    expect([m.model, m.effort, m.ultracode]).toEqual(["sonnet", "high", false]);
    expect(readMirror([user, shared, local], false).model).toBeUndefined(); // claude not installed: nothing mirrored
    let seen = 0;
    const changed = new Promise<number>((resolve) => {
      const stop = watchSettings([user, shared, local], () => {
        seen += 1;
        stop();
        resolve(Date.now());
      });
    });
    const saved = Date.now();
    fs.writeFileSync(local, JSON.stringify({ model: "opus", ultracode: true }));
    const at = await Promise.race([changed, new Promise<number>((_, rej) => setTimeout(() => rej(new Error("no reload within 5 s")), 5_000))]);
    expect(seen).toBe(1);
    console.log(`mirror reload seen after ${at - saved} ms`);
    m = readMirror([user, shared, local], true);
    expect(reloadNotice(m)).toBe("Claude Code settings reloaded — opus · effort max · ultracode on");
    fs.rmSync(root, { recursive: true, force: true });
  });
});

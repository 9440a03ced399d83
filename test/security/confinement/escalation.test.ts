/**
 * Escalation and the sandbox's settings (issue 27, item 3): dangerouslyDisableSandbox under --auto is
 * rejected (the model is told why) unless the user's exact allow rule names the command; sandbox.enabled
 * false opts out (and the PID namespace still hides oceancode's /proc); where no sandbox exists an
 * unattended command is rejected with one line saying how to install bubblewrap; hooks and MCP servers
 * get a PID namespace and no secret beyond what their config names.
 */
import { describe, it, expect, beforeAll, afterAll } from "vitest";
import fs from "node:fs";
import path from "node:path";
import { REPO_ROOT } from "../../kit/cli.js";
import { makeWorld, bash, leaked, HAS_BWRAP, type World } from "./world.js";

const FIXTURE = path.join(REPO_ROOT, "extensions/mcp/test/fixtures/tools-server.mjs");

describe.runIf(HAS_BWRAP)("confinement: escalation, opt-out, no sandbox, hooks and MCP servers", () => {
  let w: World;
  beforeAll(async () => {
    w = await makeWorld("escal");
  });
  afterAll(async () => {
    await w?.close();
  });

  it("dangerouslyDisableSandbox: --auto rejects it and says why; the user's exact allow rule lets it run unconfined", async () => {
    const named = `echo esc2 > ${w.outside}/esc2.txt`;
    w.config({ permission: [`bash ${named} allow`] });
    const out = await w.run([
      bash("esc", `echo esc > ${w.outside}/esc.txt`, { dangerouslyDisableSandbox: true }),
      bash("named", named, { dangerouslyDisableSandbox: true }),
      bash("confined", `echo c >> ${w.outside}/c.txt`),
    ]);
    expect(out.code, out.stderr).toBe(0);
    expect(out.results.get("esc")).toMatch(/Permission denied by oceancode run --auto: .*dangerouslyDisableSandbox.*person/);
    expect(fs.existsSync(path.join(w.outside, "esc.txt"))).toBe(false);
    expect(fs.readFileSync(path.join(w.outside, "esc2.txt"), "utf8")).toBe("esc2\n");
    expect(fs.existsSync(path.join(w.outside, "c.txt"))).toBe(false);
    expect(out.results.get("confined")).toMatch(/Read-only file system/);
  }, 60_000);

  it("sandbox.enabled false opts out: the write outside lands; /proc of oceancode stays out of sight", async () => {
    w.config({ sandbox: { enabled: false } });
    w.write("proc.sh", 'cat /proc/$PPID/environ; for f in /proc/[0-9]*/environ; do cat "$f"; done; echo listed\n');
    const out = await w.run([bash("w", `echo opt >> ${w.outside}/opt.txt`), bash("proc", "sh proc.sh")]);
    expect(out.code, out.stderr).toBe(0);
    expect(fs.readFileSync(path.join(w.outside, "opt.txt"), "utf8")).toBe("opt\n");
    expect(out.results.get("proc")).toContain("listed");
    expect(leaked(out.results.get("proc") ?? "")).toEqual([]);
  }, 60_000);

  it("no sandbox here: an unattended command is rejected with one line naming the install; an exact rule still runs", async () => {
    w.config({ permission: ["bash echo ruled > ruled.txt allow"] });
    const out = await w.run([bash("plain", "echo nb > nb.txt"), bash("ruled", "echo ruled > ruled.txt")], { env: { OC_SANDBOX_BWRAP: "none" } });
    expect(out.code, out.stderr).toBe(0);
    const why = out.results.get("plain") ?? "";
    expect(why).toMatch(/no sandbox here .*apt install bubblewrap/);
    expect(why.split("\n")).toHaveLength(1);
    expect(fs.existsSync(path.join(w.project, "nb.txt"))).toBe(false);
    expect(fs.readFileSync(path.join(w.project, "ruled.txt"), "utf8")).toBe("ruled\n");
  }, 60_000);

  it("hooks and MCP servers: a PID namespace, and no secret in their environment beyond what their config names", async () => {
    const hookOut = path.join(w.outside, "hook.txt");
    const envFile = path.join(w.outside, "mcp-env.json");
    const pidFile = path.join(w.outside, "mcp.pid");
    w.config({});
    w.write(
      ".oceancode/settings.json",
      JSON.stringify({ hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: `{ env; cat /proc/$PPID/environ; echo; echo "pid=$$"; } > ${hookOut} 2>&1; exit 0` }] }] } }),
    );
    w.write(
      ".claude.json",
      JSON.stringify({ mcpServers: { fx: { command: process.execPath, args: [FIXTURE, "--name", "fx", "--pid-file", pidFile, "--dump-env", envFile], env: { GIVEN_TOKEN: "named-in-config" } } } }),
      "home",
    );
    const out = await w.run([bash("h", "echo hooked"), { id: "m", name: "mcp__fx__add", input: { a: 1, b: 2 } }], { env: { OC_MCP_WAIT_SECONDS: "30" } });
    fs.rmSync(path.join(w.project, ".oceancode"), { recursive: true, force: true });
    fs.rmSync(path.join(w.home, ".claude.json"), { force: true });
    expect(out.code, out.stderr).toBe(0);
    const hook = fs.readFileSync(hookOut, "utf8");
    expect(hook).toContain("PATH=");
    expect(leaked(hook)).toEqual([]);
    // in its own PID namespace the hook's shell is a low pid (bwrap is 1)
    expect(Number(/pid=(\d+)/.exec(hook)?.[1])).toBeLessThan(10);
    expect(out.results.get("m")).toContain("3");
    const env = JSON.parse(fs.readFileSync(envFile, "utf8")) as Record<string, string>;
    expect(env.GIVEN_TOKEN).toBe("named-in-config");
    expect(leaked(JSON.stringify(env))).toEqual([]);
    expect(Number(fs.readFileSync(pidFile, "utf8"))).toBeLessThan(10);
  }, 90_000);
});

/**
 * Waits with a bound, on the hooks side, and the hook output contract. Real handler processes, the
 * compiled CLI, the scripted model recording every request, the real SQLite database read back.
 *  - a handler that hangs past its own `timeout` is killed with its whole process group, fails open
 *    (the tool runs), and is named in a warning and in the database with its file and event;
 *  - the engine's own tap timer never fires before a handler's timeout (OC_TAP_TIMEOUT_MS set below it);
 *  - a handler's background process still running when the run exits is killed then;
 *  - stdout that is not JSON is plain text; text reaching the model is capped at 10k characters with a
 *    marker; 10 MB of output is never injected, and cut JSON is never read.
 */
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeSandbox, runCliAsync, type RunResult, type Sandbox } from "../kit/cli.js";
import { writeHooks, writeScript, recorded, nodeHook, type Groups } from "../../extensions/hooks/test/fixtures.js";

let sb: Sandbox;
beforeAll(() => {
  sb = makeSandbox("oc-waits-hooks-");
  // the handlers write their own pids for the test to look up in /proc: host pids, so no PID namespace
  sb.write(".oceancode/oceancode.json", JSON.stringify({ sandbox: { pid_namespace: false } }));
});
afterAll(() => sb.cleanup());

const settings = () => path.join(sb.project, ".oceancode", "settings.json");
const home = (f: string) => path.join(sb.home, f);

async function run(name: string, hooks: Groups, steps: unknown[], env: NodeJS.ProcessEnv = {}): Promise<{ r: RunResult; rec: string; db: string }> {
  writeHooks(sb, ".oceancode/settings.json", hooks);
  const rec = home(`${name}.requests.jsonl`);
  const db = home(`${name}.db`);
  const model = writeScript(sb, steps);
  const r = await runCliAsync(["--dir", sb.project, "--home", sb.home, "--db", db, "run", "--auto", "--model", model, "go"], { cwd: sb.project, env: { ...sb.env, OC_SCRIPTED_RECORD: rec, ...env }, timeoutMs: 60_000 });
  return { r, rec, db };
}

function hookEvents(db: string): Array<Record<string, unknown>> {
  const d = new Database(db, { readonly: true });
  try {
    return (d.prepare(`SELECT json FROM events WHERE kind = 'hook' ORDER BY seq`).all() as Array<{ json: string }>).map((x) => JSON.parse(x.json) as Record<string, unknown>);
  } finally {
    d.close();
  }
}

/** running (not gone, not a zombie waiting for its reaper) */
function running(pid: number): boolean {
  try {
    const state = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.[0];
    return state !== "Z" && state !== "X";
  } catch {
    return false;
  }
}
async function gone(pid: number, ms = 5000): Promise<boolean> {
  const end = Date.now() + ms;
  while (running(pid)) {
    if (Date.now() > end) return false;
    await new Promise((r) => setTimeout(r, 25));
  }
  return true;
}
const pidIn = (f: string) => Number(fs.readFileSync(f, "utf8").trim());

describe("a hook that hangs past its timeout", () => {
  it("is killed with its process group and fails open; the engine's timer does not fire first; nothing outlives the run", async () => {
    const leader = home("leader.pid");
    const bg = home("bg.pid");
    const postBg = home("post-bg.pid");
    const hooks: Groups = {
      PreToolUse: [
        {
          matcher: "Bash",
          hooks: [
            // hangs: its backgrounded sleep holds the pipes, so only the group kill ends it
            { type: "command", command: `echo $$ > ${leader}; sleep 300 & echo $! > ${bg}; wait`, timeout: 1 },
            // slower than the engine's tap timeout below, inside its own 5 s: it must be heard, not cut
            { type: "command", command: `sleep 2.5; echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","additionalContext":"slow guard was heard"}}'`, timeout: 5 },
          ],
        },
      ],
      // leaves a process of its own group running after it exits (its output elsewhere)
      PostToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: `sleep 300 >/dev/null 2>&1 </dev/null & echo $! > ${postBg}` }] }],
    };
    const t0 = Date.now();
    const { r, rec, db } = await run("hang", hooks, [{ text: "running", tool_calls: [{ name: "bash", input: { command: "echo ran > ran.txt" } }] }, { text: "ok" }], { OC_TAP_TIMEOUT_MS: "1500" });
    expect(r.code, r.stderr).toBe(0);
    expect(Date.now() - t0).toBeLessThan(30_000);
    // fail open: the call ran, and no one denied it
    expect(fs.readFileSync(path.join(sb.project, "ran.txt"), "utf8")).toBe("ran\n");
    const result = recorded(rec)[1]?.rows.find((x) => x.role === "tool")?.results?.[0];
    expect(result?.isError).toBe(false);
    expect(result?.content).not.toContain("Permission denied");
    // the slow handler's answer arrived although it took longer than OC_TAP_TIMEOUT_MS
    expect(result?.content).toContain("slow guard was heard");
    expect(r.stderr).not.toContain("OC_ERR_TAP_TIMEOUT");
    // named: event, tool, command, file; recorded with its provenance
    expect(r.stderr).toMatch(/hook: PreToolUse \(Bash\) handler "echo \$\$ > .*leader\.pid.*" from .*\.oceancode\/settings\.json timed out after 1s and was killed; it decided nothing \(hooks fail open\)/);
    const events = hookEvents(db);
    const timedOut = events.filter((e) => e.decision === "timeout");
    expect(timedOut).toHaveLength(1);
    expect(timedOut[0]).toMatchObject({ event: "PreToolUse", source: settings(), tier: "local", tool: "Bash", exitCode: null });
    expect(events.find((e) => e.event === "PreToolUse" && e.exitCode === 0)).toMatchObject({ decision: "none", source: settings() });
    // the whole group is gone: the leader, its backgrounded sleep, and the PostToolUse handler's leftover
    expect(await gone(pidIn(leader))).toBe(true);
    expect(await gone(pidIn(bg))).toBe(true);
    expect(await gone(pidIn(postBg))).toBe(true);
  });
});

describe("the hook output contract", () => {
  it("invalid JSON is plain text; context is capped at 10k with a marker; 10 MB is not injected; cut JSON is not read", async () => {
    const big = (ch: string, n: number) => `process.stdout.write(${JSON.stringify(ch)}.repeat(${n}));`;
    const hooks: Groups = {
      UserPromptSubmit: [
        {
          hooks: [
            { type: "command", command: `echo '{"not": json at all'` },
            { type: "command", command: nodeHook(sb, "plain10mb", big("P", 10 * 1024 * 1024)) },
            { type: "command", command: nodeHook(sb, "json10mb", `process.stdout.write('{"hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"' + "J".repeat(10 * 1024 * 1024) + '"}}');`) },
            { type: "command", command: nodeHook(sb, "json50k", `process.stdout.write(JSON.stringify({ hookSpecificOutput: { hookEventName: "UserPromptSubmit", additionalContext: "K".repeat(50000) } }));`) },
            { type: "command", command: nodeHook(sb, "ups-payload", `(await import("node:fs")).writeFileSync(${JSON.stringify(home("ups.json"))}, raw);`) },
          ],
        },
      ],
      PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: `cat > ${home("pre.json")}` }] }],
      PostToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: `echo '{broken json'` }] }],
    };
    const { r, rec, db } = await run("output", hooks, [{ text: "running", tool_calls: [{ name: "bash", input: { command: "echo hi" } }] }, { text: "ok" }]);
    expect(r.code, r.stderr).toBe(0);
    const reqs = recorded(rec);
    expect(reqs.length).toBe(2);
    // nothing near 10 MB went to the model
    expect(JSON.stringify(reqs[0]).length).toBeLessThan(100_000);
    const context = reqs[0]!.rows.find((x) => x.role === "user")?.context ?? [];
    expect(context).toContain('{"not": json at all');
    expect(context).toContain(`${"P".repeat(10_000)}\n[hook output truncated: ${10 * 1024 * 1024} bytes; the first 10000 characters kept]`);
    expect(context).toContain(`${"K".repeat(10_000)}\n[hook output truncated: 50000 characters; the first 10000 characters kept]`);
    expect(context.some((c) => c.includes("JJJJ"))).toBe(false);
    expect(context).toHaveLength(3);
    // PostToolUse plain text is not context
    const result = reqs[1]!.rows.find((x) => x.role === "tool")?.results?.[0];
    expect(result?.content).not.toContain("broken json");
    const events = hookEvents(db);
    const cut = events.find((e) => String(e.handler).includes("json10mb"));
    expect(cut).toMatchObject({ decision: "error" });
    expect(String(cut?.reason)).toMatch(/^stdout was \d+ bytes \(over 1048576\); it was not read$/);
    expect(events.find((e) => e.event === "PostToolUse")).toMatchObject({ decision: "none", reason: expect.stringContaining("not valid JSON") });
    // #47 prompt_id (one per prompt, in every payload of it) and #25 transcript_path (a file that exists)
    const ups = JSON.parse(fs.readFileSync(home("ups.json"), "utf8")) as Record<string, string>;
    const pre = JSON.parse(fs.readFileSync(home("pre.json"), "utf8")) as Record<string, string>;
    expect(ups.prompt_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(pre.prompt_id).toBe(ups.prompt_id);
    expect(pre.session_id).toBe(ups.session_id);
    expect(fs.existsSync(ups.transcript_path!)).toBe(true);
    expect(pre.transcript_path).toBe(ups.transcript_path);
  });
});

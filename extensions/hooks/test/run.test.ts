/** Every event end to end through `oceancode run` on the scripted model, with real hook scripts. */
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeSandbox, runCli, runCliAsync, type Sandbox, type RunResult } from "../../../test/kit/cli.js";
import { writeHooks, writeScript, recorded, nodeHook, lines, type Groups } from "./fixtures.js";

let sb: Sandbox;
let recFile: string;
let dbFile: string;
beforeEach(() => {
  sb = makeSandbox("oc-hooks-run-");
  recFile = path.join(sb.home, "requests.jsonl");
  dbFile = path.join(sb.home, "oc.db");
});
afterEach(() => sb.cleanup());

const env = () => ({ ...sb.env, OC_SCRIPTED_RECORD: recFile });
function run(steps: unknown[], opts: { prompt?: string; auto?: boolean; verbose?: boolean; after?: unknown } = {}): RunResult {
  const model = writeScript(sb, steps, opts.after);
  const a = ["--dir", sb.project, "--home", sb.home, "--db", dbFile, ...(opts.verbose ? ["-v"] : []), "run", "--model", model, ...(opts.auto ? ["--auto"] : []), opts.prompt ?? "go"];
  return runCli(a, { env: env(), cwd: sb.project });
}
const local = (hooks: Groups) => writeHooks(sb, ".oceancode/settings.json", hooks);
const bashStep = (command: string) => ({ text: "running", tool_calls: [{ name: "bash", input: { command } }] });
/** what the model saw as the result of the first tool call (in the request after it) */
const firstToolResult = () => recorded(recFile)[1]?.rows.find((r) => r.role === "tool")?.results?.[0];
const hookEvents = (): Array<Record<string, unknown>> => {
  const db = new Database(dbFile, { readonly: true });
  try {
    return (db.prepare(`SELECT json FROM events WHERE kind = 'hook' ORDER BY seq`).all() as Array<{ json: string }>).map((r) => JSON.parse(r.json) as Record<string, unknown>);
  } finally {
    db.close();
  }
};

describe("PreToolUse", () => {
  it("exit 2 blocks the call with stderr as the reason, recorded with provenance and shown with -v", () => {
    const settings = local({ PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "echo 'no shell today' >&2; exit 2" }] }] });
    const r = run([bashStep("echo SHOULD-NOT-RUN > ran.txt"), { text: "ok" }], { verbose: true });
    expect(r.code).toBe(0);
    expect(fs.existsSync(path.join(sb.project, "ran.txt"))).toBe(false);
    expect(firstToolResult()).toMatchObject({ isError: true });
    expect(firstToolResult()?.content).toContain("no shell today");
    // the model, and so the ledger's transcript, see which hook denied it
    expect(firstToolResult()?.content).toContain(`Permission denied by hooks (local ${settings}: echo 'no shell today' >&2; exit 2)`);
    const ledgerDir = path.join(sb.home, ".local", "share", "oceancode", "session-ledger");
    const transcript = fs
      .readdirSync(ledgerDir)
      .map((id) => fs.readFileSync(path.join(ledgerDir, id, "transcript", "turn-0001.md"), "utf8"))
      .join("\n");
    expect(transcript).toContain(`Permission denied by hooks (local ${settings}`);
    expect(r.stderr).toMatch(/hook PreToolUse\(Bash\) -> deny: no shell today \[local .*settings\.json/);
    const ev = hookEvents().find((e) => e.event === "PreToolUse");
    expect(ev).toMatchObject({ source: settings, tier: "local", decision: "deny", handler: "echo 'no shell today' >&2; exit 2", tool: "Bash" });
  });

  it("a node script denies by JSON and sees Claude Code's payload (Bash, absolute paths)", () => {
    const seen = path.join(sb.home, "payload.json");
    const hook = nodeHook(
      sb,
      "deny",
      `(await import("node:fs")).writeFileSync(${JSON.stringify(seen)}, JSON.stringify(input));
  console.log(JSON.stringify({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: input.tool_name === "Read" ? "deny" : "allow", permissionDecisionReason: "not that file" } }));`,
    );
    sb.write("notes.txt", "secret notes");
    local({ PreToolUse: [{ matcher: "Read|Bash", hooks: [{ type: "command", command: hook }] }] });
    run([{ text: "reading", tool_calls: [{ name: "read", input: { file_path: "notes.txt" } }] }, { text: "ok" }]);
    const payload = JSON.parse(fs.readFileSync(seen, "utf8"));
    expect(payload).toMatchObject({ hook_event_name: "PreToolUse", tool_name: "Read", cwd: sb.project, permission_mode: "default" });
    expect(payload.tool_input.file_path).toBe(path.join(sb.project, "notes.txt"));
    expect(typeof payload.session_id).toBe("string");
    expect(firstToolResult()?.content).toContain("not that file");
    expect(firstToolResult()?.content).not.toContain("secret notes");
  });

  it("allow never bypasses the dangerous floor; ask is rejected headless and approved with --auto", () => {
    const ans = (d: string) => `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"${d}","permissionDecisionReason":"hook says ${d}"}}'`;
    local({ PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: ans("allow") }] }] });
    run([bashStep("rm -rf /"), { text: "ok" }]);
    expect(firstToolResult()?.isError).toBe(true);
    expect(firstToolResult()?.content).toMatch(/Permission denied by shell-guard/);

    local({ PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: ans("ask") }] }] });
    fs.rmSync(recFile, { force: true });
    run([bashStep("echo asked > asked.txt"), { text: "ok" }]);
    expect(fs.existsSync(path.join(sb.project, "asked.txt"))).toBe(false);
    expect(firstToolResult()?.content).toContain("hook says ask");
    run([bashStep("echo asked > asked.txt"), { text: "ok" }], { auto: true });
    expect(fs.readFileSync(path.join(sb.project, "asked.txt"), "utf8")).toBe("asked\n");
  });

  it("updatedInput rewrites the command that runs", () => {
    const hook = nodeHook(sb, "rewrite", `console.log(JSON.stringify({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "allow", updatedInput: { command: input.tool_input.command.replace("original", "rewritten") } } }));`);
    local({ PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: hook }] }] });
    run([bashStep("echo original"), { text: "ok" }]);
    expect(firstToolResult()?.content).toContain("rewritten");
    expect(firstToolResult()?.content).not.toContain("original");
    // the assistant row keeps what the model asked for
    const assistant = recorded(recFile)[1]?.rows.find((r) => r.role === "assistant") as unknown as { toolCalls: Array<{ input: { command: string } }> };
    expect(assistant.toolCalls[0]!.input.command).toBe("echo original");
  });

  it("the floor judges the rewritten command: a rewrite into a floor command is denied", () => {
    local({ PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","updatedInput":{"command":"rm -rf /"}}}'` }] }] });
    run([bashStep("echo harmless"), { text: "ok" }]);
    expect(firstToolResult()?.isError).toBe(true);
    expect(firstToolResult()?.content).toMatch(/shell-guard/);
  });

  it("additionalContext reaches the model with the tool result; PermissionDenied fires on a deny", () => {
    const denied = path.join(sb.home, "denied.txt");
    local({
      PreToolUse: [
        { matcher: "Bash", hooks: [{ type: "command", command: `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","additionalContext":"the build dir is out/"}}'` }] },
        { matcher: "Read", hooks: [{ type: "command", command: "echo nope >&2; exit 2" }] },
      ],
      PermissionDenied: [{ matcher: "Read", hooks: [{ type: "command", command: `cat >> ${denied}` }] }],
    });
    run([bashStep("echo hi"), { text: "read", tool_calls: [{ name: "read", input: { file_path: "x.txt" } }] }, { text: "ok" }]);
    expect(firstToolResult()?.content).toContain("hi");
    expect(firstToolResult()?.content).toContain("the build dir is out/");
    const d = JSON.parse(lines(denied)[0]!);
    expect(d).toMatchObject({ hook_event_name: "PermissionDenied", tool_name: "Read" });
  });

  it("timeouts and garbage fail open: the tool still runs", () => {
    local({ PreToolUse: [{ matcher: "*", hooks: [{ type: "command", command: "sleep 20", timeout: 1 }, { type: "command", command: "echo '{garbage'" }, { type: "command", command: "exit 7" }] }] });
    const t0 = Date.now();
    run([bashStep("echo ran > ran.txt"), { text: "ok" }]);
    expect(Date.now() - t0).toBeLessThan(15_000);
    expect(fs.readFileSync(path.join(sb.project, "ran.txt"), "utf8")).toBe("ran\n");
    // '{garbage' is not JSON: plain text, which decides nothing on PreToolUse (Claude Code's contract)
    expect(hookEvents().map((e) => e.decision).sort()).toEqual(["error", "none", "timeout"]);
  });

  it("matcher forms: exact names and | lists do not fire for other tools, a regex does", () => {
    const hit = path.join(sb.home, "hits.txt");
    local({
      PreToolUse: [
        { matcher: "Edit|Write", hooks: [{ type: "command", command: `echo list >> ${hit}` }] },
        { matcher: "Bas", hooks: [{ type: "command", command: `echo exact >> ${hit}` }] },
        { matcher: "^Ba.h$", hooks: [{ type: "command", command: `echo regex >> ${hit}` }] },
        { hooks: [{ type: "command", command: `echo all >> ${hit}` }] },
      ],
    });
    run([bashStep("true"), { text: "ok" }]);
    expect(lines(hit).sort()).toEqual(["all", "regex"]);
  });
});

describe("PostToolUse and PostToolUseFailure", () => {
  it("decision block + reason and exit-2 stderr reach the model; a failing tool fires PostToolUseFailure", () => {
    const fail = path.join(sb.home, "fail.json");
    local({
      PostToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: `echo '{"decision":"block","reason":"lint failed: 2 errors"}'` }, { type: "command", command: "echo 'stderr feedback' >&2; exit 2" }] }],
      PostToolUseFailure: [{ matcher: "Read", hooks: [{ type: "command", command: `cat > ${fail}` }] }],
    });
    run([bashStep("echo built"), { text: "read", tool_calls: [{ name: "read", input: { file_path: "missing.txt" } }] }, { text: "ok" }]);
    const content = firstToolResult()?.content ?? "";
    expect(content).toContain("built");
    expect(content).toContain("lint failed: 2 errors");
    expect(content).toContain("stderr feedback");
    expect(JSON.parse(fs.readFileSync(fail, "utf8"))).toMatchObject({ hook_event_name: "PostToolUseFailure", tool_name: "Read" });
  });
});

describe("UserPromptSubmit, SessionStart, SessionEnd", () => {
  it("blocks a prompt (exit 1, no model request)", () => {
    local({ UserPromptSubmit: [{ hooks: [{ type: "command", command: `echo '{"decision":"block","reason":"no passwords in prompts"}'` }] }] });
    const r = run([{ text: "never" }], { prompt: "my password is hunter2" });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("no passwords in prompts");
    expect(recorded(recFile)).toHaveLength(0);
  });

  it("exit 2 blocks too; plain stdout and SessionStart context reach the first request; SessionEnd runs", () => {
    const end = path.join(sb.home, "end.json");
    local({
      SessionStart: [{ matcher: "startup", hooks: [{ type: "command", command: `echo '{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"branch is main"}}'` }] }],
      UserPromptSubmit: [{ hooks: [{ type: "command", command: "echo 'today is Tuesday'" }] }],
      SessionEnd: [{ hooks: [{ type: "command", command: `cat > ${end}` }] }],
    });
    run([{ text: "ok" }], { prompt: "hello" });
    const first = recorded(recFile)[0]!;
    const user = first.rows.find((r) => r.role === "user")!;
    expect(user.text).toBe("hello");
    expect(user.context).toEqual(["branch is main", "today is Tuesday"]);
    expect(JSON.parse(fs.readFileSync(end, "utf8"))).toMatchObject({ hook_event_name: "SessionEnd", reason: "exit" });

    local({ UserPromptSubmit: [{ hooks: [{ type: "command", command: "echo 'blocked by policy' >&2; exit 2" }] }] });
    const r = run([{ text: "never" }]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("blocked by policy");
  });
});

describe("Stop", () => {
  it("continues at most 8 times per run, with stop_hook_active set on continued stops", () => {
    const seen = path.join(sb.home, "stops.jsonl");
    local({ Stop: [{ hooks: [{ type: "command", command: `cat >> ${seen}; echo >> ${seen}; echo '{"decision":"block","reason":"not done yet"}'` }] }] });
    run([{ text: "first" }], { after: { text: "again" } });
    expect(recorded(recFile)).toHaveLength(9);
    const stops = lines(seen).map((l) => JSON.parse(l) as { stop_hook_active: boolean; last_assistant_message: string });
    expect(stops).toHaveLength(8);
    expect(stops[0]!.stop_hook_active).toBe(false);
    expect(stops[1]!.stop_hook_active).toBe(true);
    expect(stops[0]!.last_assistant_message).toBe("first");
    const notes = recorded(recFile)[1]!.rows.filter((r) => r.role === "note");
    // the continuation reaches the model labelled with the handler that asked for it
    expect(notes.map((n) => n.text)).toContainEqual(expect.stringMatching(/^\[continued by hooks \(\w+ \/.+: .+\)\] not done yet$/));
  });

  it("a stopReason continues; an exit-2 Stop is a plain deny and does not continue", () => {
    const once = path.join(sb.home, "once");
    local({ Stop: [{ hooks: [{ type: "command", command: `if [ -e ${once} ]; then exit 0; fi; touch ${once}; echo '{"stopReason":"run the tests"}'` }] }] });
    run([{ text: "first" }], { after: { text: "again" } });
    expect(recorded(recFile)).toHaveLength(2);
    fs.rmSync(recFile);
    local({ Stop: [{ hooks: [{ type: "command", command: "echo 'keep going' >&2; exit 2" }] }] });
    run([{ text: "first" }], { after: { text: "again" } });
    expect(recorded(recFile)).toHaveLength(1);
    expect(hookEvents().some((e) => e.event === "Stop" && e.decision === "deny")).toBe(true);
  });
});

describe("trust and http", () => {
  it("repo-tier hooks are held until `oceancode trust repo on`", () => {
    writeHooks(sb, ".claude/settings.json", { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "echo 'repo guard' >&2; exit 2" }] }] });
    run([bashStep("echo one > one.txt"), { text: "ok" }]);
    expect(fs.existsSync(path.join(sb.project, "one.txt"))).toBe(true);
    expect(runCli(["--dir", sb.project, "--home", sb.home, "trust", "repo", "on"], { env: sb.env }).code).toBe(0);
    run([bashStep("echo two > two.txt"), { text: "ok" }]);
    expect(fs.existsSync(path.join(sb.project, "two.txt"))).toBe(false);
  });

  it("an http handler denies a call from a local server", async () => {
    const bodies: Array<Record<string, unknown>> = [];
    const server = http.createServer((req, res) => {
      let b = "";
      req.on("data", (d) => (b += d));
      req.on("end", () => {
        bodies.push(JSON.parse(b) as Record<string, unknown>);
        res.setHeader("content-type", "application/json");
        res.end(JSON.stringify({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: `server saw ${req.headers["x-team"]}` } }));
      });
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    try {
      const port = (server.address() as { port: number }).port;
      local({ PreToolUse: [{ matcher: "Bash", hooks: [{ type: "http", url: `http://127.0.0.1:${port}/pre`, headers: { "x-team": "blue" } }] }] });
      const model = writeScript(sb, [bashStep("echo no > no.txt"), { text: "ok" }]);
      const r = await runCliAsync(["--dir", sb.project, "--home", sb.home, "--db", dbFile, "run", "--model", model, "go"], { env: env(), cwd: sb.project });
      expect(r.code).toBe(0);
      expect(fs.existsSync(path.join(sb.project, "no.txt"))).toBe(false);
      expect(bodies[0]).toMatchObject({ hook_event_name: "PreToolUse", tool_name: "Bash" });
      expect(firstToolResult()?.content).toContain("server saw blue");
    } finally {
      server.close();
    }
  });
});

/** The dispatcher with real child processes and a real HTTP server (no engine needed). */
import http from "node:http";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dispatch, plan, type DispatchEnv } from "../dispatcher.js";
import { compileMatcher } from "../matcher.js";
import type { HandlerSpec, HookEvent, HookOutcomeRecord, HookSource } from "../api.js";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "oc-hooks-disp-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function source(event: HookEvent, handlers: HandlerSpec[], matcher?: string, extra: Partial<HookSource> = {}): HookSource {
  return { path: path.join(dir, "settings.json"), tier: "local", ecosystem: "oceancode", status: "loaded", groups: [{ event, ...(matcher !== undefined ? { matcher } : {}), handlers }], skipped: 0, sharedWithClaudeCode: false, ...extra };
}
const cmd = (command: string, timeout?: number): HandlerSpec => ({ type: "command", command, ...(timeout ? { timeout } : {}) });

function env(records: HookOutcomeRecord[] = []): DispatchEnv {
  return { project: dir, env: { ...process.env, HOOK_SECRET_HDR: "s3cret" }, baseEnv: async () => ({ PATH: process.env.PATH }), record: (r) => records.push(r) };
}

describe("matchers as Claude Code reads them", () => {
  it("exact names, | lists, regex, and match-all forms", () => {
    expect(compileMatcher("Bash")("Bash")).toBe(true);
    expect(compileMatcher("Bash")("BashOutput")).toBe(false);
    expect(compileMatcher("Edit|Write")("Write")).toBe(true);
    expect(compileMatcher("Edit|Write")("Read")).toBe(false);
    expect(compileMatcher("mcp__.*")("mcp__github__search")).toBe(true);
    expect(compileMatcher("Notebook.*")("NotebookEdit")).toBe(true);
    expect(compileMatcher("^Ed")("Edit")).toBe(true);
    for (const all of [undefined, "", "*"]) expect(compileMatcher(all)("Anything")).toBe(true);
    expect(compileMatcher("(")("(")).toBe(false); // an invalid regex matches nothing
  });

  it("plans only matching groups, ignores the matcher on unmatched events, dedupes identical commands", () => {
    const s = [source("PreToolUse", [cmd("a")], "Bash"), source("PreToolUse", [cmd("b")], "Edit"), source("PreToolUse", [cmd("a")], "*"), source("Stop", [cmd("s")], "Bash")];
    expect(plan(s, "PreToolUse", "Bash").map((p) => (p.handler as { command: string }).command)).toEqual(["a"]);
    expect(plan(s, "Stop", undefined).map((p) => (p.handler as { command: string }).command)).toEqual(["s"]);
    expect(plan([{ ...s[0]!, status: "held: untrusted" }], "PreToolUse", "Bash")).toEqual([]);
  });
});

describe("the decision contract with real processes", () => {
  const pre = { tool_name: "Bash", tool_input: { command: "ls" }, hook_event_name: "PreToolUse", cwd: dir };

  it("exit 2 denies with stderr as the reason; the payload arrives on stdin with the env set", async () => {
    const out = path.join(dir, "seen.json");
    const r = await dispatch(env(), [source("PreToolUse", [cmd(`cat > ${out}; echo "$OC_HOOK_EVENT $OC_PROJECT_DIR $CLAUDE_PROJECT_DIR $(pwd)" >> ${out}.env; echo nope >&2; exit 2`)])], "PreToolUse", pre, { matchValue: "Bash" });
    expect(r.decision).toBe("deny");
    expect(r.reasons).toEqual(["nope"]);
    expect(JSON.parse(fs.readFileSync(out, "utf8"))).toEqual(pre);
    expect(fs.readFileSync(`${out}.env`, "utf8").trim()).toBe(`PreToolUse ${dir} ${dir} ${fs.realpathSync(dir)}`);
  });

  it("deny > ask > allow across handlers, and every outcome is recorded with provenance", async () => {
    const j = (o: unknown) => cmd(`echo '${JSON.stringify(o)}'`);
    const allow = j({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "allow", updatedInput: { command: "ls -la" } } });
    const ask = j({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "ask", permissionDecisionReason: "check" } });
    const deny = j({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: "no" } });
    const recs: HookOutcomeRecord[] = [];
    expect((await dispatch(env(recs), [source("PreToolUse", [allow, ask, deny])], "PreToolUse", pre, { matchValue: "Bash" })).decision).toBe("deny");
    expect(recs.map((r) => r.decision)).toEqual(["allow", "ask", "deny"]);
    expect(recs[2]).toMatchObject({ event: "PreToolUse", source: path.join(dir, "settings.json"), tier: "local", decision: "deny", reason: "no", exitCode: 0 });
    const r2 = await dispatch(env(), [source("PreToolUse", [allow, ask])], "PreToolUse", pre, { matchValue: "Bash" });
    expect(r2.decision).toBe("ask");
    expect(r2.updatedInput).toEqual({ command: "ls -la" });
    expect((await dispatch(env(), [source("PreToolUse", [allow])], "PreToolUse", pre, { matchValue: "Bash" })).decision).toBe("allow");
  });

  it("fails open on a crash, garbage and a timeout; the timeout kills the whole process group", async () => {
    const pidFile = path.join(dir, "grandchild.pid");
    const t0 = Date.now();
    const r = await dispatch(
      env(),
      [source("PreToolUse", [cmd("exit 1"), cmd("echo '{not json'"), cmd(`sleep 30 & echo $! > ${pidFile}; wait`, 0.5)])],
      "PreToolUse",
      pre,
      { matchValue: "Bash" },
    );
    expect(Date.now() - t0).toBeLessThan(5000);
    expect(r.decision).toBe("none");
    // '{not json' is plain text (Claude Code's contract): not an error, and no decision on PreToolUse
    expect(r.records.map((x) => x.decision)).toEqual(["error", "none", "timeout"]);
    expect(r.records[1]!.reason).toContain("not valid JSON");
    const pid = Number(fs.readFileSync(pidFile, "utf8"));
    await new Promise((res) => setTimeout(res, 100));
    // the backgrounded sleep is gone too (or a zombie waiting for a reaper that is not us)
    const state = fs.existsSync(`/proc/${pid}/stat`) ? fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.[0] : "gone";
    expect(["gone", "Z", "X"]).toContain(state);
  });

  it("plain stdout is context for UserPromptSubmit and SessionStart only; decision block blocks a prompt", async () => {
    const up = await dispatch(env(), [source("UserPromptSubmit", [cmd("echo remember the milk")])], "UserPromptSubmit", { prompt: "hi" });
    expect(up.context).toEqual(["remember the milk"]);
    const post = await dispatch(env(), [source("PostToolUse", [cmd("echo ignored")])], "PostToolUse", {}, { matchValue: "Bash" });
    expect(post.context).toEqual([]);
    const blk = await dispatch(env(), [source("UserPromptSubmit", [cmd(`echo '{"decision":"block","reason":"no secrets"}'`)])], "UserPromptSubmit", { prompt: "hi" });
    expect(blk.decision).toBe("block");
    expect(blk.reasons).toEqual(["no secrets"]);
  });

  it("Stop: decision block or a stopReason continues; exit 2 is a plain deny", async () => {
    expect((await dispatch(env(), [source("Stop", [cmd(`echo '{"decision":"block","reason":"run the tests"}'`)])], "Stop", {})).decision).toBe("continue");
    expect((await dispatch(env(), [source("Stop", [cmd(`echo '{"stopReason":"keep going"}'`)])], "Stop", {})).reasons).toEqual(["keep going"]);
    expect((await dispatch(env(), [source("Stop", [cmd(`echo '{"continue":false,"stopReason":"done"}'`)])], "Stop", {})).decision).toBe("none");
    expect((await dispatch(env(), [source("Stop", [cmd("echo stop >&2; exit 2")])], "Stop", {})).decision).toBe("deny");
  });

  it("a custom shell runs the command", async () => {
    const r = await dispatch(env(), [source("UserPromptSubmit", [{ type: "command", command: "echo $0", shell: "bash" }])], "UserPromptSubmit", {});
    expect(r.context).toEqual(["bash"]);
  });
});

describe("http handlers against a local server", () => {
  let server: http.Server;
  let url = "";
  const seen: Array<{ headers: http.IncomingHttpHeaders; body: unknown; path: string }> = [];
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      let body = "";
      req.on("data", (d) => (body += d));
      req.on("end", () => {
        seen.push({ headers: req.headers, body: JSON.parse(body), path: req.url ?? "" });
        if (req.url === "/deny") res.end(JSON.stringify({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: "http says no" } }));
        else if (req.url === "/500") {
          res.statusCode = 500;
          res.end("boom");
        } else if (req.url === "/slow") setTimeout(() => res.end("{}"), 3000);
        else res.end("");
      });
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  afterAll(() => server.close());

  it("POSTs the payload with headers (env expanded only where allowed) and honours a JSON deny", async () => {
    const h: HandlerSpec = { type: "http", url: `${url}/deny`, headers: { authorization: "Bearer ${HOOK_SECRET_HDR}", "x-other": "$HOME" }, allowedEnvVars: ["HOOK_SECRET_HDR"] };
    const r = await dispatch(env(), [source("PreToolUse", [h])], "PreToolUse", { tool_name: "Bash" }, { matchValue: "Bash" });
    expect(r.decision).toBe("deny");
    expect(r.reasons).toEqual(["http says no"]);
    const last = seen.at(-1)!;
    expect(last.body).toEqual({ tool_name: "Bash" });
    expect(last.headers.authorization).toBe("Bearer s3cret");
    expect(last.headers["x-other"]).toBe("$HOME");
  });

  it("a 500, a refused connection and a slow server fail open", async () => {
    const hs: HandlerSpec[] = [
      { type: "http", url: `${url}/500` },
      { type: "http", url: "http://127.0.0.1:1/x" },
      { type: "http", url: `${url}/slow`, timeout: 0.3 },
      { type: "http", url: `${url}/empty` },
    ];
    const r = await dispatch(env(), [source("PreToolUse", hs)], "PreToolUse", {}, { matchValue: "Bash" });
    expect(r.decision).toBe("none");
    expect(r.records.map((x) => x.decision)).toEqual(["error", "error", "timeout", "none"]);
  });
});

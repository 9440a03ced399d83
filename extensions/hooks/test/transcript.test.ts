/**
 * transcript_path end to end: a Claude-Code-style node hook parses the JSONL transcript at every event
 * of a multi-step scripted run and of a `--continue` run, and records what it found.
 */
import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeSandbox, runCli, type Sandbox } from "../../../test/kit/cli.js";
import { writeHooks, lines, type Groups } from "./fixtures.js";

let sb: Sandbox;
beforeEach(() => {
  sb = makeSandbox("oc-hooks-transcript-");
});
afterEach(() => sb.cleanup());

/**
 * The hook a Claude Code user would write: read transcript_path from the payload, parse every line, check
 * the envelope and the uuid chain, and write down what it saw (one JSON line per invocation).
 */
function checkerHook(out: string): string {
  const file = sb.write(
    "hooks/check-transcript.mjs",
    `import fs from "node:fs";
let raw = "";
process.stdin.on("data", (d) => (raw += d));
process.stdin.on("end", () => {
  const input = JSON.parse(raw);
  const errors = [];
  const text = fs.readFileSync(input.transcript_path, "utf8");
  if (text !== "" && !text.endsWith("\\n")) errors.push("file does not end with a newline");
  const rows = text.split("\\n").filter(Boolean).map((l, i) => { try { return JSON.parse(l); } catch { errors.push("line " + (i + 1) + " is not JSON"); return {}; } });
  let prev = null;
  const toolUses = [];
  const toolResults = [];
  for (const [i, r] of rows.entries()) {
    const at = "line " + (i + 1) + ": ";
    if (r.type !== "user" && r.type !== "assistant") errors.push(at + "type " + r.type);
    if (!r.message || r.message.role !== r.type) errors.push(at + "message.role");
    if (typeof r.uuid !== "string" || !/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(r.uuid)) errors.push(at + "uuid");
    if (r.parentUuid !== prev) errors.push(at + "parentUuid " + r.parentUuid + " != " + prev);
    prev = r.uuid;
    if (r.sessionId !== input.session_id) errors.push(at + "sessionId");
    if (Number.isNaN(Date.parse(r.timestamp)) || new Date(r.timestamp).toISOString() !== r.timestamp) errors.push(at + "timestamp");
    if (r.cwd !== input.cwd) errors.push(at + "cwd");
    if (typeof r.version !== "string" || r.isSidechain !== false || r.userType !== "external") errors.push(at + "version/isSidechain/userType");
    const content = r.message?.content;
    if (r.type === "assistant") {
      if (!Array.isArray(content)) errors.push(at + "assistant content");
      for (const b of content ?? []) {
        if (b.type === "tool_use") {
          if (typeof b.id !== "string" || typeof b.name !== "string" || typeof b.input !== "object") errors.push(at + "tool_use block");
          toolUses.push({ id: b.id, name: b.name, input: b.input });
        } else if (b.type !== "text" || typeof b.text !== "string") errors.push(at + "assistant block " + b.type);
      }
    } else if (Array.isArray(content)) {
      for (const b of content) {
        if (b.type !== "tool_result" || typeof b.tool_use_id !== "string" || typeof b.content !== "string" || typeof b.is_error !== "boolean") errors.push(at + "tool_result block");
        else toolResults.push(b.tool_use_id);
      }
    } else if (typeof content !== "string") errors.push(at + "user content");
  }
  for (const id of toolResults) if (!toolUses.some((u) => u.id === id)) errors.push("tool_result " + id + " before its tool_use");
  const last = rows[rows.length - 1];
  fs.appendFileSync(${JSON.stringify(out)}, JSON.stringify({
    event: input.hook_event_name, tool_use_id: input.tool_use_id, path: input.transcript_path, errors,
    lines: text.split("\\n").filter(Boolean), toolUses, toolResults,
    lastType: last ? last.type : null,
    lastText: last && Array.isArray(last.message.content) ? last.message.content.filter((b) => b.type === "text").map((b) => b.text).join("") : last ? last.message.content : null,
  }) + "\\n");
});
`,
  );
  return `node ${JSON.stringify(file)}`;
}

interface Seen {
  event: string;
  tool_use_id?: string;
  path: string;
  errors: string[];
  lines: string[];
  toolUses: Array<{ id: string; name: string; input: Record<string, unknown> }>;
  toolResults: string[];
  lastType: string | null;
  lastText: string | null;
}

const script = {
  steps: [
    { text: "listing", tool_calls: [{ name: "bash", input: { command: "echo one" } }] },
    { text: "two at once", tool_calls: [{ name: "read", input: { file_path: "notes.txt" } }, { name: "bash", input: { command: "echo two" } }] },
    { text: "first run done" },
    { text: "resumed", tool_calls: [{ name: "bash", input: { command: "echo three" } }] },
    { text: "second run done" },
  ],
};

function run(prompt: string, cont = false) {
  const a = ["--dir", sb.project, "--home", sb.home, "run", "--model", "scripted/script.json", ...(cont ? ["--continue"] : []), prompt];
  return runCli(a, { env: sb.env, cwd: sb.project });
}

describe("transcript_path", () => {
  it("is a Claude Code JSONL transcript, current at every hook, appended to and never rewritten, continued on --continue", () => {
    const out = path.join(sb.home, "seen.jsonl");
    const hook = checkerHook(out);
    const every = (m?: string) => [{ ...(m ? { matcher: m } : {}), hooks: [{ type: "command" as const, command: hook }] }];
    const groups: Groups = { SessionStart: every(), UserPromptSubmit: every(), PreToolUse: every("*"), PostToolUse: every("*"), Stop: every(), SessionEnd: every() };
    writeHooks(sb, ".oceancode/settings.json", groups);
    sb.write("script.json", JSON.stringify(script));
    sb.write("notes.txt", "a note\n");

    expect(run("first prompt").code).toBe(0);
    const first = lines(out).map((l) => JSON.parse(l) as Seen);
    expect(run("second prompt", true).code).toBe(0);
    const seen = lines(out).map((l) => JSON.parse(l) as Seen);
    const second = seen.slice(first.length);

    // every invocation parsed every line with no complaint, and all saw one file
    for (const s of seen) expect(s.errors, `${s.event} ${s.tool_use_id ?? ""}`).toEqual([]);
    const file = seen[0]!.path;
    expect(new Set(seen.map((s) => s.path))).toEqual(new Set([file]));
    const sessionId = path.basename(file, ".jsonl");
    expect(file).toBe(path.join(sb.home, ".local", "share", "oceancode", "projects", sb.project.replace(/[^A-Za-z0-9]/g, "-"), `${sessionId}.jsonl`));

    // append only: what any hook saw is a prefix of the final file, and it only grows
    const final = fs.readFileSync(file, "utf8").split("\n").filter(Boolean);
    let before = 0;
    for (const s of seen) {
      expect(final.slice(0, s.lines.length)).toEqual(s.lines);
      expect(s.lines.length).toBeGreaterThanOrEqual(before);
      before = s.lines.length;
    }

    // the first run, event by event
    expect(first.map((s) => s.event)).toEqual(["SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "PreToolUse", "PostToolUse", "PreToolUse", "PostToolUse", "Stop", "SessionEnd"]);
    expect(first[0]!.lines).toEqual([]); // a new session: the file exists, empty
    const tools = first.filter((s) => s.tool_use_id);
    for (const s of tools) {
      // the call's own tool_use is in the file before PreToolUse and PostToolUse run; its result is not yet
      expect(s.toolUses.map((u) => u.id)).toContain(s.tool_use_id);
      expect(s.toolResults).not.toContain(s.tool_use_id);
    }
    // Claude Code's names and input shape in tool_use blocks
    const readUse = tools[2]!.toolUses.find((u) => u.id === tools[2]!.tool_use_id)!;
    expect(readUse).toMatchObject({ name: "Read", input: { file_path: path.join(sb.project, "notes.txt") } });
    // two calls in one step: at the second call's PreToolUse the first call's result is already written
    expect(tools[4]!.toolResults).toContain(tools[2]!.tool_use_id);
    expect(tools[4]!.toolResults).toContain(tools[0]!.tool_use_id);
    // Stop sees the last assistant message as the file's last line
    const stop = first.find((s) => s.event === "Stop")!;
    expect(stop).toMatchObject({ lastType: "assistant", lastText: "first run done" });
    const prompt = JSON.parse(stop.lines[0]!) as { type: string; message: { content: string } };
    expect(prompt).toMatchObject({ type: "user", message: { content: "first prompt" } });

    // the --continue run appends to the same file, chained to the first run's last line
    const resumedStart = second[0]!;
    expect(resumedStart.event).toBe("SessionStart");
    expect(resumedStart.lines).toEqual(first[first.length - 1]!.lines);
    const pre3 = second.find((s) => s.event === "PreToolUse")!;
    expect(pre3.lines.slice(0, resumedStart.lines.length)).toEqual(resumedStart.lines);
    expect(JSON.parse(pre3.lines[resumedStart.lines.length]!)).toMatchObject({ type: "user", message: { content: "second prompt" } });
    expect(pre3.toolUses.map((u) => u.id)).toContain(pre3.tool_use_id);
    expect(second.find((s) => s.event === "Stop")).toMatchObject({ lastType: "assistant", lastText: "second run done" });

    // the final file: 2 prompts, 5 assistant lines, 4 tool results, each uuid once
    const rows = final.map((l) => JSON.parse(l) as { type: string; uuid: string; message: { content: unknown } });
    expect(rows.filter((r) => r.type === "user" && typeof r.message.content === "string")).toHaveLength(2);
    expect(rows.filter((r) => r.type === "assistant")).toHaveLength(5);
    expect(rows.filter((r) => Array.isArray(r.message.content) && r.type === "user")).toHaveLength(4);
    expect(new Set(rows.map((r) => r.uuid)).size).toBe(rows.length);
  });

  it("hooks that appear mid-session get the whole session written; a torn last line (a crash mid-write) is cut", () => {
    sb.write("script.json", JSON.stringify(script));
    sb.write("notes.txt", "a note\n");
    expect(run("first prompt").code).toBe(0); // no hooks yet: nothing written
    const out = path.join(sb.home, "seen.jsonl");
    const hook = checkerHook(out);
    writeHooks(sb, ".oceancode/settings.json", { UserPromptSubmit: [{ hooks: [{ type: "command", command: hook }] }], Stop: [{ hooks: [{ type: "command", command: hook }] }] });
    expect(run("second prompt", true).code).toBe(0);
    const [prompt2, stop2] = lines(out).map((l) => JSON.parse(l) as Seen);
    expect(prompt2!.errors).toEqual([]);
    // the first run, complete: its prompt, 3 assistant lines, 3 tool results
    const kinds = prompt2!.lines.map((l) => JSON.parse(l) as { type: string; message: { content: unknown } });
    expect(kinds[0]).toMatchObject({ type: "user", message: { content: "first prompt" } });
    expect(kinds.filter((k) => k.type === "assistant")).toHaveLength(3);
    expect(prompt2!.toolResults).toHaveLength(3);
    expect(stop2).toMatchObject({ lastText: "second run done", errors: [] });

    // a crash left half a line behind: the next run cuts it and carries on the chain
    const file = prompt2!.path;
    const whole = fs.readFileSync(file, "utf8");
    fs.appendFileSync(file, '{"parentUuid":"torn');
    expect(run("third prompt", true).code).toBe(0);
    const third = lines(out).map((l) => JSON.parse(l) as Seen).slice(2);
    expect(third.map((s) => s.event)).toEqual(["UserPromptSubmit", "Stop"]);
    for (const s of third) expect(s.errors).toEqual([]);
    expect(fs.readFileSync(file, "utf8").startsWith(whole)).toBe(true);
    expect(fs.readFileSync(file, "utf8")).not.toContain("torn");
  });

  it("this project's transcripts not written for 30 days are removed when a session starts", () => {
    const dir = path.join(sb.home, ".local", "share", "oceancode", "projects", sb.project.replace(/[^A-Za-z0-9]/g, "-"));
    const old = sb.write(path.relative(sb.project, path.join(dir, "ses_old.jsonl")), "{}\n");
    const recent = sb.write(path.relative(sb.project, path.join(dir, "ses_recent.jsonl")), "{}\n");
    const longAgo = new Date(Date.now() - 31 * 86_400_000);
    fs.utimesSync(old, longAgo, longAgo);
    sb.write("script.json", JSON.stringify({ steps: [{ text: "done" }] }));
    expect(run("go").code).toBe(0);
    expect(fs.existsSync(old)).toBe(false);
    expect(fs.existsSync(recent)).toBe(true);
  });

  it("a session without any hook writes no transcript", () => {
    sb.write("script.json", JSON.stringify({ steps: [{ text: "hi", tool_calls: [{ name: "bash", input: { command: "true" } }] }, { text: "done" }] }));
    expect(run("go").code).toBe(0);
    expect(fs.existsSync(path.join(sb.home, ".local", "share", "oceancode", "projects"))).toBe(false);
  });
});

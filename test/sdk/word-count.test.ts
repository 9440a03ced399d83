/**
 * The word-count example tool installed in ~/.oceancode/extensions/ and driven through the compiled
 * CLI with the scripted model: it runs, and every call goes through the permission rules (deny, ask)
 * and the hooks (a PreToolUse hook matching its Claude name) like a built-in tool's.
 */
import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeSandbox, type Sandbox } from "../kit/cli.js";
import { events, install, oc } from "./helpers.js";

let sb: Sandbox;
beforeEach(() => {
  sb = makeSandbox("oc-sdk-wc-");
  install(sb, "word-count");
  sb.write("notes.txt", "one two\nthree\n");
  sb.write("secret/key.txt", "k e y\n");
});
afterEach(() => sb.cleanup());

/** A scripted model that calls word_count on `file`, then says done. */
function script(file: string): string {
  sb.write("wc.json", JSON.stringify({ steps: [{ text: "counting", tool_calls: [{ name: "word_count", input: { path: file } }] }, { text: "done" }] }));
  return "scripted/wc.json";
}

function toolResult(stdout: string): { content: string; isError: boolean } {
  const end = events(stdout).find((e) => e.type === "tool_call_end") as { result: { content: string; isError: boolean } } | undefined;
  expect(end, stdout).toBeDefined();
  return end!.result;
}

describe("word-count installed as a user extension", () => {
  it("the model calls it and gets the count", () => {
    const r = oc(sb, ["run", "--format", "json", "--model", script("notes.txt"), "count the notes"]);
    expect(r.code).toBe(0);
    expect(toolResult(r.stdout)).toEqual(expect.objectContaining({ content: "notes.txt: 2 lines, 3 words, 14 characters", isError: false }));
  });

  it("a deny rule on it denies the matching path only", () => {
    sb.write(".oceancode/oceancode.jsonc", JSON.stringify({ permission: ["word_count secret/* deny"] }));
    const denied = oc(sb, ["run", "--format", "json", "--model", script("secret/key.txt"), "count the key"]);
    expect(denied.code).toBe(0);
    const d = toolResult(denied.stdout);
    expect(d.isError).toBe(true);
    expect(d.content).toMatch(/denied/i);
    expect(d.content).not.toContain("characters");
    const allowed = oc(sb, ["run", "--format", "json", "--model", script("notes.txt"), "count the notes"]);
    expect(toolResult(allowed.stdout).content).toBe("notes.txt: 2 lines, 3 words, 14 characters");
  });

  it("an ask rule on it asks: rejected in a headless run, approved with --auto", () => {
    sb.write(".oceancode/oceancode.jsonc", JSON.stringify({ permission: ["word_count * ask"] }));
    const rejected = oc(sb, ["run", "--format", "json", "--model", script("notes.txt"), "count"]);
    const q = events(rejected.stdout).find((e) => e.type === "question") as { question: { tool: string; subject: string }; answer: string } | undefined;
    expect(q?.question).toMatchObject({ tool: "word_count", subject: "notes.txt" });
    expect(toolResult(rejected.stdout).isError).toBe(true);
    const approved = oc(sb, ["run", "--auto", "--format", "json", "--model", script("notes.txt"), "count"]);
    expect(toolResult(approved.stdout)).toMatchObject({ content: "notes.txt: 2 lines, 3 words, 14 characters", isError: false });
  });

  it("a PreToolUse hook matching WordCount sees Claude-shaped input and can deny the call", () => {
    sb.write(
      ".oceancode/settings.json",
      JSON.stringify({ hooks: { PreToolUse: [{ matcher: "WordCount", hooks: [{ type: "command", command: "cat > hook-payload.json; echo 'no counting today' >&2; exit 2" }] }] } }),
    );
    const r = oc(sb, ["run", "--format", "json", "--model", script("notes.txt"), "count"]);
    expect(r.code).toBe(0);
    const res = toolResult(r.stdout);
    expect(res.isError).toBe(true);
    expect(res.content).toContain("no counting today");
    const payload = JSON.parse(fs.readFileSync(path.join(sb.project, "hook-payload.json"), "utf8")) as { tool_name: string; tool_input: Record<string, unknown> };
    expect(payload.tool_name).toBe("WordCount");
    expect(payload.tool_input).toEqual({ file_path: path.join(sb.project, "notes.txt") });
  });
});

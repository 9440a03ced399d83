/** PostToolUse payloads as Claude Code sends them: duration_ms and each tool's tool_response shape. */
import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeSandbox, runCli, type Sandbox } from "../../../test/kit/cli.js";
import { writeHooks, writeScript, lines } from "./fixtures.js";

let sb: Sandbox;
beforeEach(() => {
  sb = makeSandbox("oc-hooks-payload-");
});
afterEach(() => sb.cleanup());

/** A plain sh hook that appends each payload it receives as one line. */
function recordAll(file: string): void {
  const cmd = `cat >> ${JSON.stringify(file)}; echo >> ${JSON.stringify(file)}`;
  writeHooks(sb, ".oceancode/settings.json", {
    PostToolUse: [{ matcher: "*", hooks: [{ type: "command", command: cmd }] }],
    PostToolUseFailure: [{ matcher: "*", hooks: [{ type: "command", command: cmd }] }],
  });
}

function run(steps: unknown[]) {
  const model = writeScript(sb, steps);
  return runCli(["--dir", sb.project, "--home", sb.home, "run", "--model", model, "go"], { env: sb.env, cwd: sb.project });
}

type Payload = Record<string, unknown> & { tool_name: string; tool_response: Record<string, unknown>; duration_ms: unknown };

describe("PostToolUse payload", () => {
  it("Bash: duration_ms, and tool_response {stdout, stderr, interrupted, isImage} with no exit-code line", () => {
    const seen = path.join(sb.home, "post.jsonl");
    recordAll(seen);
    expect(run([{ text: "x", tool_calls: [{ name: "bash", input: { command: "echo to-out; echo to-err >&2; echo more-out" } }] }, { text: "ok" }]).code).toBe(0);
    const [p] = lines(seen).map((l) => JSON.parse(l) as Payload);
    expect(p).toMatchObject({ hook_event_name: "PostToolUse", tool_name: "Bash", tool_input: { command: "echo to-out; echo to-err >&2; echo more-out" } });
    expect(typeof p!.duration_ms).toBe("number");
    expect(p!.duration_ms as number).toBeGreaterThanOrEqual(0);
    expect(p!.tool_response).toEqual({ stdout: "to-out\nmore-out", stderr: "to-err", interrupted: false, isImage: false });
    expect(JSON.stringify(p!.tool_response)).not.toContain("exit code");
    expect(typeof p!.transcript_path).toBe("string");
  });

  it("Bash: each stream is capped like the output (tools.max_output_chars), cut in the middle", () => {
    const seen = path.join(sb.home, "post.jsonl");
    recordAll(seen);
    sb.write(".oceancode/oceancode.json", JSON.stringify({ tools: { max_output_chars: 1000 } }));
    const cmd = "i=0; while [ $i -lt 400 ]; do echo line-$i; i=$((i+1)); done; echo small-err >&2";
    expect(run([{ text: "x", tool_calls: [{ name: "bash", input: { command: cmd } }] }, { text: "ok" }]).code).toBe(0);
    const [p] = lines(seen).map((l) => JSON.parse(l) as Payload);
    const out = p!.tool_response.stdout as string;
    expect(out.length).toBeLessThan(1100);
    expect(out.startsWith("line-0\nline-1\n")).toBe(true);
    expect(out.endsWith("line-399")).toBe(true);
    expect(out).toMatch(/\[\d+ chars cut\]/);
    expect(p!.tool_response.stderr).toBe("small-err");
  });

  it("Write, Read and Edit: Claude Code's shapes, with originalFile and a structured patch", () => {
    const seen = path.join(sb.home, "post.jsonl");
    recordAll(seen);
    const r = run([
      { text: "w", tool_calls: [{ name: "write", input: { file_path: "f.txt", content: "alpha\nbeta\ngamma\n" } }] },
      { text: "r", tool_calls: [{ name: "read", input: { file_path: "f.txt", offset: 2 } }] },
      { text: "e", tool_calls: [{ name: "edit", input: { file_path: "f.txt", old_string: "beta", new_string: "BETA" } }] },
      { text: "w2", tool_calls: [{ name: "write", input: { file_path: "f.txt", content: "alpha\nBETA\ndelta\n" } }] },
      { text: "ok" },
    ]);
    expect(r.code).toBe(0);
    expect(fs.readFileSync(path.join(sb.project, "f.txt"), "utf8")).toBe("alpha\nBETA\ndelta\n");
    const file = path.join(sb.project, "f.txt");
    const ps = lines(seen).map((l) => JSON.parse(l) as Payload);
    expect(ps.map((p) => `${p.hook_event_name as string} ${p.tool_name}`)).toEqual(["PostToolUse Write", "PostToolUse Read", "PostToolUse Edit", "PostToolUse Write"]);
    for (const p of ps) expect(p.duration_ms as number).toBeGreaterThanOrEqual(0);
    expect(ps[0]!.tool_response).toMatchObject({ type: "create", filePath: file, content: "alpha\nbeta\ngamma\n", structuredPatch: [], originalFile: null });
    expect(ps[1]!.tool_response).toEqual({ type: "text", file: { filePath: file, content: "beta\ngamma", numLines: 2, startLine: 2, totalLines: 3 } });
    expect(ps[2]!.tool_response).toMatchObject({
      filePath: file,
      oldString: "beta",
      newString: "BETA",
      originalFile: "alpha\nbeta\ngamma\n",
      userModified: false,
      replaceAll: false,
      structuredPatch: [{ oldStart: 1, oldLines: 3, newStart: 1, newLines: 3, lines: [" alpha", "-beta", "+BETA", " gamma"] }],
    });
    expect(ps[3]!.tool_response).toMatchObject({
      type: "update",
      originalFile: "alpha\nBETA\ngamma\n",
      structuredPatch: [{ oldStart: 1, oldLines: 3, newStart: 1, newLines: 3, lines: [" alpha", " BETA", "-gamma", "+delta"] }],
    });
  });

  it("a failing call fires PostToolUseFailure with the error and duration_ms, no tool_response", () => {
    const seen = path.join(sb.home, "post.jsonl");
    recordAll(seen);
    run([{ text: "x", tool_calls: [{ name: "bash", input: { command: "echo failing >&2; exit 3" } }] }, { text: "ok" }]);
    const [p] = lines(seen).map((l) => JSON.parse(l) as Payload);
    expect(p).toMatchObject({ hook_event_name: "PostToolUseFailure", tool_name: "Bash" });
    expect(p!.error).toContain("failing");
    expect(p!.duration_ms as number).toBeGreaterThanOrEqual(0);
    expect(p!.tool_response).toBeUndefined();
  });
});

/**
 * `oceancode -p` on the scripted model: the prompt as a word or on stdin, run's flags on both sides of -p,
 * `--input-format stream-json` (two lines are two turns of one session; a bad line is refused), usage
 * errors, and a blocked prompt that stores no session (#52).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import fs from "node:fs";
import path from "node:path";
import { spawn } from "node:child_process";
import { CLI, makeSandbox, runCli, runCliAsync, type RunResult, type Sandbox } from "../../../test/kit/cli.js";
import { expectShape, lines, RESULT } from "./shapes.js";

let sb: Sandbox;
beforeAll(() => {
  sb = makeSandbox("oc-print-in-");
});
afterAll(() => sb.cleanup());

const cli = (args: string[], input = "") => runCliAsync(["--dir", sb.project, ...args], { env: sb.env, input });
const msg = (content: unknown) => JSON.stringify({ type: "user", message: { role: "user", content } });
const storedSessions = () => JSON.parse(runCli(["--dir", sb.project, "sessions", "--json"], { env: sb.env }).stdout) as Array<{ id: string; turns: number }>;

describe("oceancode -p", () => {
  it("takes the prompt as a word or from stdin, and run's flags before -p, after it, and after the prompt", async () => {
    const [word, piped, before, after, usage1, usage2] = await Promise.all([
      cli(["-p", "hello", "there", "--model", "scripted/echo"]),
      cli(["--model", "scripted/echo", "-p"], "from the pipe"),
      cli(["--output-format", "json", "--model", "scripted/echo", "-p", "json please"]),
      cli(["-p", "--model", "scripted/echo", "text", "--output-format=text"]),
      cli(["-p", "--model", "scripted/echo", "--input-format", "stream-json", "x"]),
      cli(["-p", "--model", "scripted/echo", "--format", "json", "--output-format", "json", "x"]),
    ]);
    // text: the final answer alone on stdout, as claude -p prints it
    expect(word.code, word.stderr).toBe(0);
    expect(word.stdout).toBe("ok: hello there\n");
    expect(word.stderr).toMatch(/session: ses_/);
    expect(piped.code, piped.stderr).toBe(0);
    expect(piped.stdout).toBe("ok: from the pipe\n");
    expect(before.code, before.stderr).toBe(0);
    const res = lines(before.stdout);
    expect(res).toHaveLength(1);
    expectShape(res[0], RESULT, "result");
    expect(res[0]).toMatchObject({ result: "ok: json please", is_error: false, subtype: "success" });
    expect(after.stdout).toBe("ok: text\n");
    for (const [r, words] of [[usage1, "--input-format stream-json needs --output-format stream-json"], [usage2, "two output formats"]] as Array<[RunResult, string]>) {
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(words);
      expect(r.stdout).toBe("");
    }
  });

  it("--input-format stream-json: each line is one turn of the same session; a bad first line is refused before anything runs", async () => {
    const earlier = storedSessions().length;
    const [two, badFirst, badLater, empty] = await Promise.all([
      cli(["-p", "--model", "scripted/echo", "--input-format", "stream-json", "--output-format", "stream-json", "--verbose"], `${msg("first turn")}\n\n${msg([{ type: "text", text: "second turn" }])}\n`),
      cli(["-p", "--model", "scripted/echo", "--input-format", "stream-json", "--output-format", "stream-json"], `{"type":"user","message":{"role":"user","content":[{"type":"image"}]}}\n`),
      cli(["-p", "--model", "scripted/echo", "--input-format", "stream-json", "--output-format", "stream-json"], `${msg("kept turn")}\nnot json at all\n${msg("never read")}\n`),
      cli(["-p", "--model", "scripted/echo", "--input-format", "stream-json", "--output-format", "stream-json"], ""),
    ]);
    expect(two.code, two.stderr).toBe(0);
    const out = lines(two.stdout);
    expect(out.map((l) => l.type)).toEqual(["system", "assistant", "result", "assistant", "result"]);
    const results = out.filter((l) => l.type === "result");
    expect(results.map((r) => r.result)).toEqual(["ok: first turn", "ok: second turn"]);
    const id = out[0]!.session_id as string;
    expect(new Set(out.map((l) => l.session_id))).toEqual(new Set([id]));

    expect(badFirst.code).toBe(2);
    expect(badFirst.stdout).toBe("");
    expect(badFirst.stderr).toContain("stdin line 1: message.content[0] is not a text block");
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain("no message on stdin");

    // a later bad line: the turns before it are kept, and the stream ends with an error result naming the line
    expect(badLater.code).toBe(1);
    const later = lines(badLater.stdout);
    const last = later.at(-1)!;
    expect(later.filter((l) => l.type === "result").map((r) => r.is_error)).toEqual([false, true]);
    expect(last).toMatchObject({ type: "result", subtype: "error_during_execution", is_error: true });
    expect(last.result as string).toContain("stdin line 2: not JSON");
    const laterId = later[0]!.session_id as string;

    const stored = storedSessions();
    expect(stored.find((s) => s.id === id)?.turns).toBe(2);
    expect(stored.find((s) => s.id === laterId)?.turns).toBe(1);
    // the refused runs left no session
    expect(stored).toHaveLength(earlier + 2);
  });

  it("a prompt a UserPromptSubmit hook blocks stores no session and prints no session id (#52)", async () => {
    sb.write(".oceancode/settings.json", JSON.stringify({ hooks: { UserPromptSubmit: [{ hooks: [{ type: "command", command: `echo '{"decision":"block","reason":"not today"}'` }] }] } }));
    const before = storedSessions().length;
    const r = await cli(["-p", "--model", "scripted/echo", "--output-format", "json", "blocked prompt"]);
    sb.write(".oceancode/settings.json", "{}");
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("not today");
    expect(r.stderr).toContain("the prompt was blocked, so no session was stored");
    expect(r.stderr).not.toMatch(/session: ses_/);
    expect(lines(r.stdout)[0]).toMatchObject({ type: "result", is_error: true, terminal_reason: "blocked" });
    expect(storedSessions()).toHaveLength(before);
  });

  it("SIGINT: the stream ends with an interrupted error result and run's exit code 130", async () => {
    sb.write("slow.json", JSON.stringify({ steps: [{ text: "slow", delay_ms: 20000 }] }));
    // the scripted model records each request as it starts: once it has, the turn is live
    const rec = path.join(sb.project, "..", "print-rec.jsonl");
    const child = spawn(process.execPath, [CLI, "--dir", sb.project, "-p", "--output-format", "stream-json", "--model", "scripted/slow.json", "go"], {
      env: { ...sb.env, OC_SCRIPTED_RECORD: rec },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    child.stderr.on("data", (d: Buffer) => (err += d.toString()));
    for (let waited = 0; !fs.existsSync(rec) && waited < 15_000; waited += 50) await new Promise((r) => setTimeout(r, 50));
    expect(fs.existsSync(rec), err).toBe(true);
    child.kill("SIGINT");
    const code = await new Promise<number | null>((r) => child.on("close", r));
    expect(code).toBe(130);
    const got = lines(out);
    expect(got[0]).toMatchObject({ type: "system", subtype: "init" });
    expect(got.at(-1)).toMatchObject({ type: "result", subtype: "error_during_execution", is_error: true, terminal_reason: "aborted", session_id: got[0]!.session_id });
  });
});

/** `oceancode run` end to end on the scripted model: flags, stdin, formats, retries, step cap, abort. */
import { afterEach, describe, expect, it } from "vitest";
import fs from "node:fs";
import path from "node:path";
import { spawn } from "node:child_process";
import { CLI, makeSandbox, runCli, type Sandbox } from "../kit/cli.js";

let sb: Sandbox;
afterEach(() => sb?.cleanup());

describe("oceancode run", () => {
  it("answers on scripted/echo and prints the session id", () => {
    sb = makeSandbox();
    const r = runCli(["--dir", sb.project, "run", "--model", "scripted/echo", "hello", "there"], { env: sb.env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.trim()).toBe("ok: hello there");
    expect(r.stderr).toMatch(/session: ses_[0-9a-z]+/);
  });

  it("appends piped stdin to the prompt", () => {
    sb = makeSandbox();
    const r = runCli(["--dir", sb.project, "run", "--model", "scripted/echo", "review:"], { env: sb.env, input: "the diff" });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("ok: review:\n\nthe diff");
  });

  it("sends a flag after the prompt as text, with a warning", () => {
    sb = makeSandbox();
    const r = runCli(["--dir", sb.project, "run", "--model", "scripted/echo", "hi", "--auto"], { env: sb.env });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("ok: hi --auto");
    expect(r.stderr).toContain("comes after the prompt");
  });

  it("refuses --window with the hint and unknown flags with the usage line (exit 2)", () => {
    sb = makeSandbox();
    const w = runCli(["--dir", sb.project, "run", "--window", "50%", "hi"], { env: sb.env });
    expect(w.code).toBe(2);
    expect(w.stderr).toContain("use --tideline");
    const u = runCli(["--dir", sb.project, "run", "--bogus", "hi"], { env: sb.env });
    expect(u.code).toBe(2);
    expect(u.stderr).toContain("usage: oceancode run");
    const n = runCli(["--dir", sb.project, "run"], { env: sb.env });
    expect(n.code).toBe(2);
  });

  it("--format json prints one JSON event per line", () => {
    sb = makeSandbox();
    const r = runCli(["--dir", sb.project, "run", "--format", "json", "--model", "scripted/echo", "hi"], { env: sb.env });
    expect(r.code).toBe(0);
    const events = r.stdout.trim().split("\n").map((l) => JSON.parse(l) as { type: string; reason?: string });
    expect(events[0]!.type).toBe("session");
    expect(events.map((e) => e.type)).toContain("text_delta");
    expect(events.at(-1)).toMatchObject({ type: "turn_end", reason: "end_turn" });
  });

  it("retries a 429 and an overloaded error, then answers", () => {
    sb = makeSandbox();
    sb.write(
      "s.json",
      JSON.stringify({ steps: [{ error: { code: "rate_limited", status: 429, times: 2, retry_after_ms: 10 }, text: "after retries" }] }),
    );
    const r = runCli(["--dir", sb.project, "run", "--model", "scripted/s.json", "go"], { env: { ...sb.env, OC_RETRY_BASE_MS: "5" } });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain("after retries");
    expect(r.stderr.match(/retry \d\/4/g)).toHaveLength(2);
  });

  it("gives up after the retries with one clear error and exit 1", () => {
    sb = makeSandbox();
    sb.write("s.json", JSON.stringify({ steps: [{ error: { kind: "server", status: 503, times: 99 } }] }));
    const r = runCli(["--dir", sb.project, "run", "--model", "scripted/s.json", "go"], { env: { ...sb.env, OC_RETRY_BASE_MS: "1", OC_MAX_RETRIES: "2" } });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("server (503)");
    expect(r.stderr).not.toContain("    at ");
  });

  it("a too-long refusal is retried once after the promptTooLong hook", () => {
    sb = makeSandbox();
    sb.write("s.json", JSON.stringify({ steps: [{ error: { code: "prompt_too_long", status: 400, times: 1 }, text: "fits now" }] }));
    const r = runCli(["--dir", sb.project, "run", "--model", "scripted/s.json", "go"], { env: sb.env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain("fits now");
    expect(r.stderr).toContain("too long");
  });

  it("OC_MAX_STEPS auto-continues into a fresh turn; 0 is rejected", () => {
    sb = makeSandbox();
    const steps = Array.from({ length: 5 }, (_, i) => ({ text: `s${i + 1}`, tool_calls: [{ name: "nope", input: {} }] }));
    sb.write("s.json", JSON.stringify({ steps: [...steps, { text: "finished" }] }));
    const r = runCli(["--dir", sb.project, "run", "--format", "json", "--model", "scripted/s.json", "go"], { env: { ...sb.env, OC_MAX_STEPS: "2" } });
    expect(r.code, r.stderr).toBe(0);
    const ends = r.stdout.trim().split("\n").map((l) => JSON.parse(l) as { type: string; reason?: string }).filter((e) => e.type === "turn_end");
    expect(ends.map((e) => e.reason)).toEqual(["step_cap", "step_cap", "end_turn"]);
    const z = runCli(["--dir", sb.project, "run", "--model", "scripted/echo", "go"], { env: { ...sb.env, OC_MAX_STEPS: "0" } });
    expect(z.code).toBe(1);
    expect(z.stderr).toContain("OC_MAX_STEPS=0 is rejected");
  });

  it("a model id naming no installed provider is one clear usage error (exit 2)", () => {
    sb = makeSandbox();
    const r = runCli(["--dir", sb.project, "run", "--model", "nosuch/model", "go"], { env: sb.env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("no provider 'nosuch'");
  });

  it("SIGINT stops a long turn at the step boundary and exits 130", async () => {
    sb = makeSandbox();
    sb.write("s.json", JSON.stringify({ steps: [{ text: "slow", delay_ms: 20000 }] }));
    // the scripted model records each request as it starts: once it has, the turn (and run's SIGINT handler) is live
    const rec = path.join(sb.project, "..", "rec.jsonl");
    const child = spawn(process.execPath, [CLI, "--dir", sb.project, "run", "--model", "scripted/s.json", "go"], {
      env: { ...sb.env, OC_SCRIPTED_RECORD: rec },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let err = "";
    child.stderr.on("data", (d: Buffer) => (err += d.toString()));
    for (let waited = 0; !fs.existsSync(rec) && waited < 15_000; waited += 50) await new Promise((r) => setTimeout(r, 50));
    expect(fs.existsSync(rec), err).toBe(true);
    const t0 = Date.now();
    child.kill("SIGINT");
    const code = await new Promise<number | null>((r) => child.on("close", r));
    expect(Date.now() - t0).toBeLessThan(5000);
    expect(code).toBe(130);
    expect(err).toContain("interrupted");
  });

  it("resumes a session across processes with --session (the scripted step carries on)", () => {
    sb = makeSandbox();
    sb.write("s.json", JSON.stringify({ steps: [{ text: "one" }, { text: "two" }] }));
    const a = runCli(["--dir", sb.project, "run", "--model", "scripted/s.json", "first"], { env: sb.env });
    expect(a.stdout).toContain("one");
    const id = /session: (ses_\w+)/.exec(a.stderr)?.[1];
    expect(id).toBeTruthy();
    const b = runCli(["--dir", sb.project, "run", "--session", id!, "second"], { env: sb.env });
    expect(b.code, b.stderr).toBe(0);
    expect(b.stdout).toContain("two");
    const c = runCli(["--dir", sb.project, "run", "--session", "ses_doesnotexist", "x"], { env: sb.env });
    expect(c.code).toBe(1);
    expect(c.stderr).toContain("no session 'ses_doesnotexist'");
  });
});

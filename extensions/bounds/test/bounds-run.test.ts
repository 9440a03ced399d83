/**
 * The bounds through the compiled CLI `run`: a spend bound (the fake Anthropic server's usage priced by
 * the catalogue, cache reads and writes at their own prices), a clock and a step cap each stop the run
 * cleanly (exit 0) with the exact `stopped_by` on the turn_end event; flag over environment; the session
 * keeps its bounds across --continue; a bound after the prompt is ignored with a warning;
 * OC_MAX_OUTPUT_TOKENS clamps the request's max_tokens to the model's maximum.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { anthropicEnv, runCli, runCliAsync, type Sandbox } from "../../../test/kit/cli.js";
import type { FakeAnthropicServer } from "../../../test/kit/fakes/anthropic-server.js";
import { isParent } from "../../agents/test/helpers.js";
import { perTest } from "../../../test/kit/file-fixtures.js";
import { findLedgerDir as findDir, parseEvents } from "../../../test/kit/stored.js";

let sb: Sandbox | undefined;
let fake: FakeAnthropicServer | undefined;
const { makeSandbox, startFakeAnthropic } = perTest();

interface Ev {
  type: string;
  reason?: string;
  stopped_by?: string;
  level?: string;
  text?: string;
  totals?: { costUsd: number };
}
const events = (stdout: string): Ev[] => parseEvents<Ev>(stdout);
const ends = (stdout: string) => events(stdout).filter((e) => e.type === "turn_end");

/** A scripted model: `n` slow tool-calling steps, then an answer. */
function slowScript(s: Sandbox, n: number, delayMs: number): void {
  s.write("s.json", JSON.stringify({ steps: [{ repeat: n, text: "step {{n}}", delay_ms: delayMs, tool_calls: [{ name: "nope", input: {} }] }, { text: "finished" }] }));
}
const scripted = (s: Sandbox, args: string[], env: NodeJS.ProcessEnv = {}) => runCli(["--dir", s.project, "run", "--format", "json", ...args], { env: { ...s.env, ...env } });

describe("bounds on run", () => {
  it("a spend bound trips on the catalogue's prices × the provider's usage, cache reads and writes priced as such: stopped_by budget, exit 0", async () => {
    sb = makeSandbox("oc-bounds-");
    fake = await startFakeAnthropic();
    // claude-sonnet-4-5: $3 in, $15 out per million; cache read 0.1× in ($0.30/M), 1h cache write 2× in ($6/M)
    fake.enqueue(
      { toolCalls: [{ name: "ls", input: {} }], usage: { input_tokens: 0, output_tokens: 0, cache_read_input_tokens: 1_000_000, cache_creation_input_tokens: 0 } }, // $0.30
      { toolCalls: [{ name: "ls", input: {} }], usage: { input_tokens: 0, output_tokens: 0, cache_read_input_tokens: 0, cache_creation_input_tokens: 10_000 } }, // $0.06
    );
    fake.respond(() => ({ toolCalls: [{ name: "ls", input: {} }], usage: { input_tokens: 1000, output_tokens: 10, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 } }));
    // $0.35: a cache read priced as input would trip after one step, a cache write priced as input ($0.33) would not trip after two
    const r = await runCliAsync(["run", "--auto", "--format", "json", "--max-usd", "0.35", "--model", "anthropic/claude-sonnet-4-5", "go"], { cwd: sb.project, env: anthropicEnv(sb, fake.url), timeoutMs: 60_000 });
    expect(r.code, r.stderr).toBe(0);
    expect(fake.requests).toHaveLength(2);
    const evs = events(r.stdout);
    const last = evs.filter((e) => e.type === "usage").at(-1)!;
    expect(last.totals!.costUsd).toBeCloseTo(0.36, 6);
    expect(ends(r.stdout)).toEqual([expect.objectContaining({ reason: "step_cap", stopped_by: "budget" })]);
    expect(evs.find((e) => e.type === "notice" && e.text?.startsWith("stopped:"))?.text).toContain("$0.35 budget");
  }, 90_000);

  it("a sub-agent spends from its root's budget: the child stops at the bound, then the parent at its next boundary", async () => {
    sb = makeSandbox("oc-bounds-");
    fake = await startFakeAnthropic();
    const usage = { input_tokens: 100_000, output_tokens: 0, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 }; // $0.30 a step
    let parentCalls = 0;
    fake.respond((req) => {
      if (!isParent(req)) return { text: "still looking", toolCalls: [{ name: "ls", input: {} }], usage };
      return parentCalls++ === 0 ? { toolCalls: [{ id: "toolu_gp", name: "agent", input: { subagent_type: "general-purpose", description: "loop", prompt: "Look around." } }] } : { text: "parent done" };
    });
    const r = await runCliAsync(["run", "--auto", "--format", "json", "--max-usd", "0.5", "--model", "anthropic/claude-sonnet-4-5", "go"], { cwd: sb.project, env: anthropicEnv(sb, fake.url), timeoutMs: 60_000 });
    expect(r.code, r.stderr).toBe(0);
    expect(fake.requests.filter((q) => !isParent(q))).toHaveLength(2);
    expect(fake.requests.filter(isParent)).toHaveLength(1);
    expect(ends(r.stdout).at(-1)).toMatchObject({ reason: "step_cap", stopped_by: "budget" });
  }, 90_000);

  it("a clock bound stops at the next step boundary: stopped_by time, exit 0, a notice in text mode, a step-limited turn in the ledger", () => {
    sb = makeSandbox("oc-bounds-");
    slowScript(sb, 20, 300);
    const r = scripted(sb, ["--max-minutes", "0.01", "--model", "scripted/s.json", "go"]);
    expect(r.code, r.stderr).toBe(0);
    expect(ends(r.stdout)).toEqual([expect.objectContaining({ reason: "step_cap", stopped_by: "time" })]);
    const steps = events(r.stdout).filter((e) => e.type === "step_end").length;
    expect(steps).toBeGreaterThanOrEqual(2);
    expect(steps).toBeLessThan(20);
    const text = runCli(["--dir", sb.project, "run", "--max-minutes", "0.01", "--model", "scripted/s.json", "go"], { env: sb.env });
    expect(text.code, text.stderr).toBe(0);
    expect(text.stderr).toMatch(/oceancode: stopped: the run reached its 0.6s clock \(TimeExceeded\)/);
    // the ledger records it as a step-limited turn, and the transcript says which bound stopped it
    const id = /session: (\S+)/.exec(text.stderr)![1]!;
    const dir = findDir(sb.home, id);
    const index = JSON.parse(fs.readFileSync(path.join(dir, "index.json"), "utf8")) as { turns: Array<{ reason?: string; stoppedBy?: string }> };
    expect(index.turns.map((x) => [x.reason, x.stoppedBy])).toEqual([["step_cap", "time"]]);
    expect(fs.readFileSync(path.join(dir, "index.md"), "utf8")).toContain("| step cap (clock) |");
    expect(fs.readFileSync(path.join(dir, "transcript", "turn-0001.md"), "utf8")).toContain("[stopped by time bound: the run reached its 0.6s clock (TimeExceeded)]");
  }, 60_000);

  it("the step cap reports stopped_by steps on each step-limited turn; the run carries on and exits 0", () => {
    sb = makeSandbox("oc-bounds-");
    slowScript(sb, 5, 0);
    const r = scripted(sb, ["--max-steps", "2", "--model", "scripted/s.json", "go"]);
    expect(r.code, r.stderr).toBe(0);
    expect(ends(r.stdout).map((e) => [e.reason, e.stopped_by])).toEqual([
      ["step_cap", "steps"],
      ["step_cap", "steps"],
      ["end_turn", undefined],
    ]);
  });

  it("the same tool call with the same result three times in a row stops the run: stopped_by doom_loop, exit 0; a varying step does not", () => {
    sb = makeSandbox("oc-bounds-");
    sb.write("loop.json", JSON.stringify({ steps: [{ repeat: 6, text: "trying again", tool_calls: [{ name: "nope", input: { x: 1 } }] }, { text: "gave up" }] }));
    const r = scripted(sb, ["--model", "scripted/loop.json", "go"]);
    expect(r.code, r.stderr).toBe(0);
    expect(events(r.stdout).filter((e) => e.type === "step_end")).toHaveLength(3);
    expect(ends(r.stdout)).toEqual([expect.objectContaining({ reason: "step_cap", stopped_by: "doom_loop" })]);
    expect(events(r.stdout).find((e) => e.type === "notice" && e.text?.startsWith("stopped:"))?.text).toBe("stopped: the same tool call (nope) with the same result 3 times in a row (doom loop)");
    // the same call with a different text each step is work, not a loop
    sb.write("work.json", JSON.stringify({ steps: [{ repeat: 6, text: "step {{n}}", tool_calls: [{ name: "nope", input: { x: 1 } }] }, { text: "finished" }] }));
    const w = scripted(sb, ["--model", "scripted/work.json", "go"]);
    expect(ends(w.stdout)).toEqual([expect.objectContaining({ reason: "end_turn", text: "finished" })]);
  });

  it("precedence: OC_MAX_MINUTES alone trips; --max-minutes beats it both ways", () => {
    sb = makeSandbox("oc-bounds-");
    slowScript(sb, 4, 300);
    const envOnly = scripted(sb, ["--model", "scripted/s.json", "go"], { OC_MAX_MINUTES: "0.01" });
    expect(envOnly.code, envOnly.stderr).toBe(0);
    expect(ends(envOnly.stdout).at(-1)).toMatchObject({ stopped_by: "time" });
    const flagLooser = scripted(sb, ["--max-minutes", "10", "--model", "scripted/s.json", "go"], { OC_MAX_MINUTES: "0.01" });
    expect(flagLooser.code, flagLooser.stderr).toBe(0);
    expect(ends(flagLooser.stdout)).toEqual([expect.objectContaining({ reason: "end_turn" })]);
    expect(ends(flagLooser.stdout)[0]!.stopped_by).toBeUndefined();
    const flagTighter = scripted(sb, ["--max-minutes", "0.01", "--model", "scripted/s.json", "go"], { OC_MAX_MINUTES: "10" });
    expect(ends(flagTighter.stdout).at(-1)).toMatchObject({ stopped_by: "time" });
  }, 60_000);

  it("precedence for spend: --max-usd over OC_MAX_USD (a looser flag lets the run finish)", async () => {
    sb = makeSandbox("oc-bounds-");
    fake = await startFakeAnthropic();
    const usage = { input_tokens: 100_000, output_tokens: 0, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 }; // $0.30 a step
    const go = (args: string[], extra: NodeJS.ProcessEnv) => {
      fake!.reset();
      fake!.enqueue({ toolCalls: [{ name: "ls", input: {} }], usage }, { toolCalls: [{ name: "ls", input: {} }], usage }, { text: "done", usage });
      return runCliAsync(["run", "--auto", "--format", "json", ...args, "--model", "anthropic/claude-sonnet-4-5", "go"], { cwd: sb!.project, env: anthropicEnv(sb!, fake!.url, extra), timeoutMs: 60_000 });
    };
    const envOnly = await go([], { OC_MAX_USD: "0.5" });
    expect(envOnly.code, envOnly.stderr).toBe(0);
    expect(ends(envOnly.stdout).at(-1)).toMatchObject({ stopped_by: "budget" });
    expect(fake.requests).toHaveLength(2);
    const flag = await go(["--max-usd", "5"], { OC_MAX_USD: "0.5" });
    expect(flag.code, flag.stderr).toBe(0);
    expect(ends(flag.stdout)).toEqual([expect.objectContaining({ reason: "end_turn" })]);
    expect(fake.requests).toHaveLength(3);
  }, 90_000);

  it("the bounds are stored on the session: --continue keeps them over the environment; a new flag replaces them", () => {
    sb = makeSandbox("oc-bounds-");
    slowScript(sb, 30, 100);
    const first = scripted(sb, ["--max-minutes", "0.005", "--model", "scripted/s.json", "go"]);
    expect(ends(first.stdout).at(-1)).toMatchObject({ stopped_by: "time" });
    const resumed = scripted(sb, ["--continue", "more"], { OC_MAX_MINUTES: "10" });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(ends(resumed.stdout).at(-1)).toMatchObject({ reason: "step_cap", stopped_by: "time" });
    expect(events(resumed.stdout).filter((e) => e.type === "step_end").length).toBeLessThan(15);
    // a new flag replaces the stored clock: the rest of the script runs to its answer
    const reflagged = scripted(sb, ["--continue", "--max-minutes", "10", "again"]);
    expect(reflagged.code, reflagged.stderr).toBe(0);
    expect(ends(reflagged.stdout)).toEqual([expect.objectContaining({ reason: "end_turn", text: "finished" })]);
    const sessions = JSON.parse(runCli(["--dir", sb.project, "sessions", "--json"], { env: sb.env }).stdout) as unknown[];
    expect(sessions).toHaveLength(1);
  }, 60_000);

  it("a bound after the prompt is ignored with a warning (sent as text); an invalid bound is a usage error", () => {
    sb = makeSandbox("oc-bounds-");
    const r = runCli(["--dir", sb.project, "run", "--model", "scripted/echo", "hello", "--max-usd", "0.01"], { env: sb.env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain("oceancode run: warning: '--max-usd' comes after the prompt, so the bound is ignored and sent to the model as text (put bound flags before the prompt)");
    expect(r.stdout).toContain("--max-usd 0.01");
    for (const [flag, v] of [["--max-usd", "abc"], ["--max-minutes", "0"], ["--max-usd", "-1"]] as const) {
      const bad = runCli(["--dir", sb.project, "run", "--model", "scripted/echo", flag, v, "go"], { env: sb.env });
      expect(bad.code, `${flag} ${v}`).toBe(2);
      expect(bad.stderr).toContain(`oceancode run: ${flag} must be a number above 0`);
    }
  });

  it("OC_MAX_OUTPUT_TOKENS sets each request's max_tokens, clamped to the model's own maximum", async () => {
    sb = makeSandbox("oc-bounds-");
    fake = await startFakeAnthropic();
    const run = (v: string | undefined) =>
      runCliAsync(["run", "--model", "anthropic/claude-sonnet-4-5", "hi"], { cwd: sb!.project, env: anthropicEnv(sb!, fake!.url, v === undefined ? {} : { OC_MAX_OUTPUT_TOKENS: v }), timeoutMs: 60_000 });
    expect((await run("1000")).code).toBe(0);
    expect(await run("10000000")).toMatchObject({ code: 0 });
    expect((await run(undefined)).code).toBe(0);
    // claude-sonnet-4-5 publishes 64,000 output tokens
    expect(fake.requests.map((q) => q.body.max_tokens)).toEqual([1000, 64_000, 64_000]);
  }, 90_000);
});

/**
 * `oceancode inspect --hooks` through the compiled CLI: every hook with its stages and its taps in call
 * order (stage, extension, tap); --json as one array. The authorize order is the security model's.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeSandbox, runCliAsync, type RunResult, type Sandbox } from "../../../test/kit/cli.js";
import type { HookRow } from "../hooks-order.js";

let sb: Sandbox;
let text: RunResult;
let json: RunResult;
let bad: RunResult;

beforeAll(async () => {
  sb = makeSandbox("oc-inspect-hooks-");
  [text, json, bad] = await Promise.all([
    runCliAsync(["inspect", "--hooks"], { cwd: sb.project, env: sb.env, timeoutMs: 60_000 }),
    runCliAsync(["inspect", "--hooks", "--json"], { cwd: sb.project, env: sb.env, timeoutMs: 60_000 }),
    runCliAsync(["inspect", "--hooks=x"], { cwd: sb.project, env: sb.env, timeoutMs: 60_000 }),
  ]);
}, 90_000);
afterAll(() => sb.cleanup());

const rows = (): HookRow[] => JSON.parse(json.stdout) as HookRow[];
const hookNamed = (name: string): HookRow => {
  const h = rows().find((r) => r.hook === name);
  expect(h, name).toBeTruthy();
  return h!;
};

describe("oceancode inspect --hooks", () => {
  it("--json lists the kernel's and the engine's hooks, each tap's stage one of its hook's", () => {
    expect(json.code, json.stderr).toBe(0);
    const all = rows();
    expect(all.map((r) => r.hook)).toEqual(expect.arrayContaining(["kernel.shutdown", "kernel.trust", "engine.authorizeToolCall", "engine.executeTool", "engine.sessionStart"]));
    for (const r of all) {
      const names = r.stages.map((s) => s.name);
      for (const t of r.taps) expect(names, `${r.hook}: ${t.tap}`).toContain(t.stage);
      // taps are listed in call order: their stages never go backwards
      const idx = r.taps.map((t) => names.indexOf(t.stage));
      expect(idx, r.hook).toEqual([...idx].sort((a, b) => a - b));
    }
  });

  it("authorizeToolCall: its phases, and the taps of the six extensions in the security model's order", () => {
    const a = hookNamed("engine.authorizeToolCall");
    expect(a.failClosed).toBe(true);
    expect(a.stages.map((s) => s.name)).toEqual(["mode", "hooks", "floor", "grants", "rules", "hook-asks", "guard", "asks", "rewrites"]);
    expect(a.taps.map((t) => `${t.stage} ${t.extension}`)).toEqual([
      "mode plan-mode",
      "hooks hooks",
      "floor shell-guard",
      "grants allowed-tools",
      "rules permissions",
      "guard shell-guard",
      "asks mcp-permissions",
    ]);
  });

  it("the session's first tap is storage's row; a named tap keeps its own name beside its extension", () => {
    const s = hookNamed("engine.sessionStart");
    expect(s.taps[0]).toMatchObject({ stage: "store", extension: "storage" });
    expect(s.taps).toContainEqual({ stage: "default", extension: "engine", tap: "engine:crash" });
    const x = hookNamed("engine.executeTool");
    // metrics and telemetry (stage measure) are off by default: plan mode is outermost
    expect(x.taps.map((t) => `${t.stage} ${t.extension}`)).toEqual(["mode plan-mode", "confine sandbox", "snapshot checkpoints", "innermost hooks"]);
    // shutdown's taps in stage order, storage's close last (workflows' "stop" tap is a server's: serve is passive, not loaded here)
    const shutdown = hookNamed("kernel.shutdown").taps;
    const rank = shutdown.map((t) => ["stop", "default", "close", "flush"].indexOf(t.stage));
    expect(rank).toEqual([...rank].sort((a, b) => a - b));
    expect(shutdown.at(-1)).toMatchObject({ stage: "close", extension: "storage" });
  });

  it("the text form: a line per hook with its stages, a line per tap (stage, extension, tap)", () => {
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain("engine.authorizeToolCall [bail, fail-closed]  stages: mode > hooks > floor > grants > rules > hook-asks > guard > asks* > rewrites");
    expect(text.stdout).toMatch(/^ {2}floor +shell-guard +shell-guard$/m);
    expect(text.stdout).toMatch(/^ {2}default +engine +engine:crash$/m);
    expect(text.stdout).toContain("kernel.shutdown [series]  stages: stop > default* > close > flush");
  });

  it("a bad flag is refused with the usage, exit 2", () => {
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("usage: oceancode inspect [--hooks] [--errors] [--json]");
  });
});

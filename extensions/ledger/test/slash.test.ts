/**
 * /tideline and /context through the real kernel, engine, storage and scripted model (in process, over the
 * compiled extensions), and `run --tideline` cutting a scripted session's window.
 */
import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeSandbox, runCli, type Sandbox } from "../../../test/kit/cli.js";
import type { EngineService, Session } from "../../engine/api.js";
import { bootCompiled } from "../../../test/kit/kernel-boot.js";

interface KernelLike {
  activate(e: string): Promise<void>;
  service<T>(name: string): Promise<T>;
  runSlash(name: string, args: string, host: { sessionId?: string; reply(t: string): void }): Promise<boolean>;
  shutdown(): Promise<void>;
}

let sb: Sandbox;
let kernel: KernelLike;
let engine: EngineService;
beforeEach(async () => {
  sb = makeSandbox("oc-tideline-");
  kernel = await bootCompiled<KernelLike>(sb);
  await kernel.activate("onSession");
  engine = await kernel.service("engine");
});
afterEach(async () => {
  await kernel.shutdown();
  sb.cleanup();
});

async function slash(name: string, args: string, session?: Session): Promise<string> {
  let out = "";
  const handled = await kernel.runSlash(name, args, { sessionId: session?.info.id, reply: (t) => (out += t) });
  expect(handled).toBe(true);
  return out;
}

describe("/tideline", () => {
  it("sets the session's override, says it applies from the next message, and refuses bad values with the usage line", async () => {
    const s = await engine.createSession({ cwd: sb.project, model: "scripted/echo" });
    expect(await slash("tideline", "50%", s)).toMatch(/^tideline set to 50% \(tideline @50% \(\d+k\)\); applies from your next message on$/);
    expect(s.info.overrides.tideline).toBe("50%");
    expect(await slash("tideline", "wide", s)).toBe("/tideline: 'wide' is a removed preset\nusage: /tideline <percent>% | <limit> | default   (e.g. 50%, 200k, 1m; minimum limit 20k)");
    expect(await slash("tideline", "40% 100k", s)).toMatch(/one value only[\s\S]*usage: \/tideline/);
    expect(await slash("tideline", "10k", s)).toMatch(/minimum fixed limit is 20k/);
    expect(s.info.overrides.tideline).toBe("50%");
    expect(await slash("shelve", "120k", s)).toContain("tideline set to 120k (tideline @120k)");
    expect(s.info.overrides.tideline).toBe("120k");
    await slash("tideline", "default", s);
    expect(s.info.overrides.tideline).toBeUndefined();
  });

  it("the override reaches the meter from the next message on, and survives a reopen", async () => {
    const s = await engine.createSession({ cwd: sb.project, model: "scripted/echo" });
    await engine.prompt(s, "first");
    const t = await kernel.service("tideline");
    expect(t.meter(s).status).toMatch(/^tideline @40% \(80k\): \d+k to go$/);
    await slash("tideline", "25%", s);
    await engine.prompt(s, "second");
    expect(t.meter(s).status).toMatch(/^tideline @25% \(50k\): \d+k to go$/);
    const m = t.meter(s);
    expect(m).toMatchObject({ enabled: true, contextWindow: 200_000, cuts: 0 });
    expect(m.used).toBeGreaterThan(0);
    expect(m.inputTokens + m.cacheReadTokens).toBeGreaterThan(0);
    const ctx = await slash("context", "", s);
    // the guide's status words, then a plain gloss of them (finding 55)
    expect(ctx).toMatch(/^context {3}\d+(k)? \/ 200k \(\d+%\) · scripted\/echo\ntideline @25% \(50k\): \d+k to go {2}\(the tideline: the line in the context window past which the oldest steps are cut\)\ntokens {4}in /);
    expect(ctx).toContain("spend     $0.00");
    await engine.closeSession(s, "exit");
    const again = await engine.openSession(s.info.id);
    expect(again.info.overrides.tideline).toBe("25%");
  });

  it("a child session inherits its parent's override, even when the parent left memory", async () => {
    const parent = await engine.createSession({ cwd: sb.project, model: "scripted/echo" });
    await slash("tideline", "200k", parent);
    await engine.prompt(parent, "hello");
    await engine.closeSession(parent, "exit");
    const child = await engine.createSession({ cwd: sb.project, model: "scripted/echo", parentId: parent.info.id });
    expect(child.info.overrides.tideline).toBe("200k");
  });
});

describe("run --tideline on a scripted session", () => {
  it("cuts the window below the fixed limit, opens it with the pointer line, and never orphans a tool result", () => {
    const out = "zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz\n".repeat(100);
    sb.write("big.txt", out);
    sb.write("script.json", JSON.stringify({ context_window: 100_000, steps: [{ text: "reading {{n}}", tool_calls: [{ name: "read", input: { file_path: "big.txt" } }], repeat: 40 }, { text: "finished" }] }));
    const rec = path.join(sb.home, "requests.jsonl");
    const r = runCli(["run", "--auto", "--tideline", "20k", "--model", "scripted/script.json", "read it forty times"], { cwd: sb.project, env: { ...sb.env, OC_SCRIPTED_RECORD: rec } });
    expect(r.code).toBe(0);
    const reqs = fs.readFileSync(rec, "utf8").trim().split("\n").map((l) => JSON.parse(l) as { rows: Array<{ role: string; text?: string; seq: number }> });
    expect(reqs).toHaveLength(41);
    const sizes = reqs.map((q) => JSON.stringify(q.rows).length / 4);
    // line 20k, block 14k (70%): never over line + block
    expect(Math.max(...sizes)).toBeLessThan(34_000);
    const cut = reqs.filter((q) => q.rows[0]!.role === "note" && q.rows[0]!.text!.startsWith("[Earlier content of this session is past the tideline"));
    expect(cut.length).toBeGreaterThan(10);
    for (const q of reqs) expect(q.rows.find((x) => x.role !== "note")?.role).not.toBe("tool");
    // the window's start moves only at cuts: count distinct starts
    const starts = new Set(reqs.map((q) => q.rows.find((x) => x.role !== "note")!.seq));
    expect(starts.size).toBeLessThan(15);
  });

  it("a too-long refusal cuts every closed block before the one retry", () => {
    sb.write("big.txt", "yyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy\n".repeat(100));
    const read = { text: "reading {{n}}", tool_calls: [{ name: "read", input: { file_path: "big.txt" } }] };
    sb.write("script.json", JSON.stringify({ context_window: 200_000, steps: [{ ...read, repeat: 14 }, { ...read, error: { kind: "prompt_too_long", message: "prompt is too long", times: 1 } }, { text: "finished" }] }));
    sb.write(".oceancode/oceancode.json", JSON.stringify({ ledger: { tideline: { tokens: 100_000, block: 5_000 } } }));
    const rec = path.join(sb.home, "requests.jsonl");
    const r = runCli(["run", "--auto", "--model", "scripted/script.json", "go"], { cwd: sb.project, env: { ...sb.env, OC_SCRIPTED_RECORD: rec } });
    expect(r.code).toBe(0);
    const reqs = fs.readFileSync(rec, "utf8").trim().split("\n").map((l) => JSON.parse(l) as { sessionStep: number; rows: Array<{ role: string; text?: string; seq: number }> });
    const at15 = reqs.filter((q) => q.sessionStep === 15);
    expect(at15).toHaveLength(2); // the refused request and the one retry
    // far under the line before the refusal: no cut yet
    expect(at15[0]!.rows[0]!.role).toBe("user");
    expect(at15[1]!.rows[0]!.text).toMatch(/^\[Earlier content of this session is past the tideline: every row up to seq \d+/);
    expect(at15[1]!.rows.length).toBeLessThan(at15[0]!.rows.length / 2);
    expect(r.stdout).toContain("finished");
  });

  it("a reopened session starts under its line: the first request after --continue is already cut", () => {
    sb.write("big.txt", "wwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwww\n".repeat(100));
    sb.write("script.json", JSON.stringify({ context_window: 100_000, steps: [{ text: "reading {{n}}", tool_calls: [{ name: "read", input: { file_path: "big.txt" } }], repeat: 30 }, { text: "first done" }], after: { text: "second done" } }));
    const rec = path.join(sb.home, "requests.jsonl");
    const env = { ...sb.env, OC_SCRIPTED_RECORD: rec };
    // no tideline while the history piles up, then a 20k line from the next message on
    sb.write(".oceancode/oceancode.json", JSON.stringify({ ledger: { tideline: { tokens: 90_000 } } }));
    expect(runCli(["run", "--auto", "--model", "scripted/script.json", "pile up"], { cwd: sb.project, env }).code).toBe(0);
    const before = fs.readFileSync(rec, "utf8").trim().split("\n").length;
    const r = runCli(["run", "--auto", "--continue", "--tideline", "20k", "and now?"], { cwd: sb.project, env });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("second done");
    expect(r.stderr).not.toContain("unknown model");
    const reqs = fs.readFileSync(rec, "utf8").trim().split("\n").map((l) => JSON.parse(l) as { rows: Array<{ role: string; text?: string }> });
    const first = reqs[before]!;
    expect(first.rows[0]!.text).toMatch(/^\[Earlier content of this session is past the tideline/);
    expect(first.rows[1]!.role).not.toBe("tool");
    expect(JSON.stringify(first.rows).length / 4).toBeLessThan(20_000);
    expect(JSON.stringify(reqs[before - 1]!.rows).length / 4).toBeGreaterThan(30_000);
  });
});

/**
 * `oceancode workflow` through the compiled CLI against the fake Anthropic server: the pipeline built-in
 * (three requests, chained text, bodies in order, the run store, `runs`), budget exhaustion, validate-only,
 * a discovered script shadowing a built-in, a script calling api.session, and the .rhai warning.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { anthropicEnv, CLI, makeSandbox, runCliAsync, type Sandbox } from "../../../test/kit/cli.js";
import { lastUserText, startFakeAnthropic, type FakeAnthropicServer } from "../../../test/kit/fakes/anthropic-server.js";

const MODEL = "anthropic/claude-haiku-4-5";
let sb: Sandbox;
let fake: FakeAnthropicServer;

beforeAll(async () => {
  sb = makeSandbox("oc-wf-");
  fake = await startFakeAnthropic();
});
afterAll(async () => {
  await fake.close();
  sb.cleanup();
});

const wf = (args: string[], extra: NodeJS.ProcessEnv = {}) => runCliAsync(["--dir", sb.project, "workflow", ...args], { env: anthropicEnv(sb, fake.url, extra), cwd: sb.project, timeoutMs: 30_000 });
const lines = (out: string) =>
  out
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as Record<string, unknown>);

describe("workflow run pipeline", () => {
  it("runs three steps as three requests of one session, chaining {{previous}}, and the store and runs list it", async () => {
    fake.reset();
    fake.respond((req) => ({ text: `answer to <${lastUserText(req.body)}>` }));
    const r = await wf(["run", "pipeline", "-m", MODEL, "--args", JSON.stringify({ steps: [{ prompt: "say A" }, { prompt: "after {{previous}} say B" }, { prompt: "last: {{previous}}" }] })]);
    expect(r.code, r.stderr).toBe(0);
    expect(fake.requests.length).toBe(3);
    expect(lastUserText(fake.requests[1]!.body)).toBe("after answer to <say A> say B");
    expect(lastUserText(fake.requests[2]!.body)).toContain("last: answer to <after answer to <say A> say B>");
    // one session: the third request carries the whole history
    expect(fake.requests[2]!.body.messages!.length).toBe(5);
    const bodies = lines(r.stdout);
    expect(bodies.map((b) => b.seq)).toEqual([1, 2, 3, 4, 5]);
    expect(bodies.every((b) => b.type === "workflow_updated" && b.workflow === "pipeline")).toBe(true);
    expect(bodies.slice(0, 4).every((b) => b.terminal === false && b.status === "running")).toBe(true);
    const last = bodies[4]!;
    expect(last).toMatchObject({ status: "complete", terminal: true, budget: { limit: null, spent: 3 } });
    expect(String(last.run_id)).toMatch(/^wf-[0-9a-z]+-[0-9a-f]{4}$/);
    const dir = path.join(sb.home, ".local", "share", "oceancode", "workflow-runs", String(last.run_id));
    const meta = JSON.parse(fs.readFileSync(path.join(dir, "run.json"), "utf8")) as Record<string, unknown>;
    expect(meta).toMatchObject({ run_id: last.run_id, workflow: "pipeline", kind: "workflow", project: sb.project });
    expect(lines(fs.readFileSync(path.join(dir, "updates.jsonl"), "utf8"))).toEqual(bodies);
    const runs = await wf(["runs"]);
    expect(runs.code).toBe(0);
    expect(lines(runs.stdout).find((b) => b.run_id === last.run_id)).toEqual(last);
  });

  it("pauses back_off_paused (exit 3) when the provider keeps asking to back off, failing nothing", async () => {
    fake.reset();
    fake.respond(() => ({ type: "error", status: 429 }));
    const r = await wf(["run", "pipeline", "-m", MODEL, "--args", JSON.stringify({ steps: [{ prompt: "say A" }, { prompt: "say B" }] })]);
    expect(r.code, r.stderr).toBe(3);
    const last = lines(r.stdout).at(-1)!;
    expect(last).toMatchObject({ status: "back_off_paused", terminal: true });
    expect(String(last.error)).toMatch(/rate_limited/);
  });

  it("ends budget_limited (exit 2) when the budget of model calls is spent, refusing the next request", async () => {
    fake.reset();
    fake.respond(() => ({ text: "ok" }));
    const r = await wf(["run", "pipeline", "-m", MODEL, "--budget", "2", "--args", JSON.stringify({ steps: [{ prompt: "1" }, { prompt: "2" }, { prompt: "3" }] })]);
    expect(r.code, r.stderr).toBe(2);
    expect(fake.requests.length).toBe(2);
    const last = lines(r.stdout).pop()!;
    expect(last).toMatchObject({ status: "budget_limited", terminal: true, budget: { limit: 2, spent: 2 } });
  });

  it("--validate-only checks the args and sends nothing; bad args and a bad --budget are usage errors (2)", async () => {
    fake.reset();
    const good = await wf(["run", "pipeline", "--validate-only", "--args", '{"steps":[{"prompt":"x"}]}']);
    expect(good.code, good.stderr).toBe(0);
    const badArgs = await wf(["run", "pipeline", "--validate-only", "--args", '{"steps":[{"text":"x"}]}']);
    expect(badArgs.code).toBe(2);
    expect(badArgs.stderr).toContain('steps[0] needs a non-empty "prompt"');
    const badBudget = await wf(["run", "pipeline", "--budget", "zero", "--args", '{"steps":[{"prompt":"x"}]}']);
    expect(badBudget.code).toBe(2);
    const badBound = await wf(["run", "pipeline", "--max-usd", "0", "--args", '{"steps":[{"prompt":"x"}]}']);
    expect(badBound.code).toBe(2);
    expect(badBound.stderr).toContain("--max-usd must be a number above 0");
    expect(fake.requests.length).toBe(0);
    expect(good.stdout + badArgs.stdout).toBe("");
  });
});

describe("scripts", () => {
  it("--validate-only on a broken script: exit 2 with file:line:column, nothing sent", async () => {
    fake.reset();
    const file = sb.write("broken.mjs", 'export const meta = { name: "broken" };\nexport default async function main(api) {\n  let x = ;\n}\n');
    const r = await wf(["run", "./broken.mjs", "--validate-only"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${file}:3:11`);
    expect(r.stderr).toContain("SyntaxError");
    expect(fake.requests.length).toBe(0);
  });

  it("a discovered script named like a built-in is ignored with a warning and the built-in runs; .rhai files get one warning", async () => {
    fake.reset();
    fake.respond(() => ({ text: "built-in ran" }));
    sb.write(".oceancode/workflows/fake-pipeline.mjs", 'export const meta = { name: "pipeline", description: "impostor" };\nexport default async function main(api) { await api.progress("IMPOSTOR"); }\n');
    sb.write(".oceancode/workflows/old.rhai", "fn main() {}\n");
    sb.write(".oceancode/workflows/older.rhai", "fn main() {}\n");
    const r = await wf(["run", "pipeline", "-m", MODEL, "--args", '{"steps":[{"prompt":"hi"}]}']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/'pipeline' .*fake-pipeline\.mjs is ignored: 'pipeline' is a built-in/);
    expect(r.stdout).not.toContain("IMPOSTOR");
    expect(lines(r.stdout).pop()).toMatchObject({ status: "complete", workflow: "pipeline" });
    expect(r.stderr.match(/\.rhai workflows? not supported/g)?.length).toBe(1);
    expect(r.stderr).toContain("docs/workflows.md");
    const list = await wf(["list"]);
    const entries = lines(list.stdout);
    expect(entries.filter((e) => e.name === "pipeline")).toEqual([expect.objectContaining({ source: "builtin" })]);
    fs.rmSync(path.join(sb.project, ".oceancode"), { recursive: true });
  });

  it("a discovered script calls api.session, api.progress and api.budget, listed as untrusted and run by name", async () => {
    fake.reset();
    fake.respond((req) => ({ text: `echo ${lastUserText(req.body)}` }));
    sb.write(
      ".oceancode/workflows/ask-twice.mjs",
      [
        'export const meta = { name: "ask-twice", description: "two sessions" };',
        "export default async function main(api) {",
        "  const a = await api.session({ prompt: `first ${api.args.topic}` });",
        '  await api.progress("half way");',
        "  const b = await api.resume(a.sessionId, `second after ${a.text}`);",
        "  return { a: a.text, b: b.text, same: a.sessionId === b.sessionId, budget: await api.budget() };",
        "}",
      ].join("\n"),
    );
    const list = await wf(["list"]);
    expect(lines(list.stdout).find((e) => e.name === "ask-twice")).toMatchObject({ source: "project", trusted: false });
    const r = await wf(["run", "ask-twice", "-m", MODEL, "--budget", "5", "--args", '{"topic":"tides"}']);
    expect(r.code, r.stderr).toBe(0);
    const bodies = lines(r.stdout);
    expect(bodies.some((b) => b.progress === "half way")).toBe(true);
    expect(bodies.pop()).toMatchObject({
      status: "complete",
      workflow: "ask-twice",
      result: { a: "echo first tides", b: "echo second after echo first tides", same: true, budget: { limit: 5, spent: 2, remaining: 3 } },
    });
    expect(fake.requests.length).toBe(2);
  });

  it("api.ask pauses a headless run (user_paused, exit 3); pause/stop of a finished run says it ended (exit 2)", async () => {
    const file = sb.write("asker.mjs", 'export const meta = { name: "asker" };\nexport default async function main(api) { await api.ask("which branch?"); return "unreached"; }\n');
    const r = await wf(["run", file]);
    expect(r.code, r.stderr).toBe(3);
    const last = lines(r.stdout).pop()!;
    expect(last).toMatchObject({ status: "user_paused", terminal: true, question: "which branch?" });
    const stop = await wf(["stop", String(last.run_id)]);
    expect(stop.code).toBe(2);
    expect(stop.stderr).toContain("already ended (user_paused)");
    const unknown = await wf(["pause", "wf-nope-0000"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("no run 'wf-nope-0000'");
  });

  it("a script cannot swallow a spent budget: it ends budget_limited however it catches", async () => {
    fake.reset();
    fake.respond(() => ({ text: "ok" }));
    const file = sb.write("greedy.mjs", 'export const meta = { name: "greedy" };\nexport default async function main(api) { for (let i = 0; i < 6; i++) { try { await api.session({ prompt: "p" + i }); } catch (e) {} } return "swallowed"; }\n');
    const r = await wf(["run", file, "-m", MODEL, "--budget", "2"]);
    expect(r.code, r.stderr).toBe(2);
    expect(lines(r.stdout).pop()).toMatchObject({ status: "budget_limited", terminal: true, budget: { limit: 2, spent: 2 } });
    expect(fake.requests.length).toBe(2);
  });

  it("SIGTERM during a run: terminal body cancelled, exit 2", async () => {
    const file = sb.write("sleeper.mjs", 'export const meta = { name: "sleeper" };\nexport default async function main(api) { await api.progress("sleeping"); await api.sleep(60000); return "woke"; }\n');
    const child = spawn(process.execPath, [CLI, "--dir", sb.project, "workflow", "run", file], { env: anthropicEnv(sb, fake.url), cwd: sb.project, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    const sleeping = new Promise<void>((resolve) =>
      child.stdout.on("data", (d: Buffer) => {
        out += d.toString();
        if (out.includes('"progress":"sleeping"')) resolve();
      }),
    );
    const guard = setTimeout(() => child.kill("SIGKILL"), 20_000);
    await sleeping;
    child.kill("SIGTERM");
    const code = await new Promise<number | null>((resolve) => child.on("close", (c) => resolve(c)));
    clearTimeout(guard);
    expect(code).toBe(2);
    expect(lines(out).pop()).toMatchObject({ status: "cancelled", terminal: true });
  });
});

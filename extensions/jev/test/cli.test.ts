/**
 * `oceancode jev status|probe|labels|questions|verdicts` through the compiled CLI, and bench/jev/eval.mjs.
 */
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT, runCliAsync } from "../../../test/kit/cli.js";
import type { FakeSystemOne } from "../../../test/kit/fakes/systemone-server.js";
import { DESTRUCTIVE, SAFE, type JevSandbox } from "./helpers.js";
import { jevTests } from "./points-helpers.js";

let sb: JevSandbox | undefined;
let fake: FakeSystemOne | undefined;
const { jevSandbox, startFakeSystemOne } = jevTests();
const jev = (s: JevSandbox, args: string[], env: NodeJS.ProcessEnv = {}) => runCliAsync(["jev", ...args], { cwd: s.project, env: { ...s.env, OC_JEV_ENDPOINT: fake!.url, ...env } });

describe("oceancode jev", () => {
  it("status: consent in one place only is off and says why; both on: seven points in shadow with the endpoint host; OC_JEV; a project endpoint ignored with one warning", async () => {
    fake = await startFakeSystemOne();
    sb = jevSandbox(fake.url);
    sb.globalCfg({ jev: { enabled: true } });
    const off = await jev(sb, ["status", "--json"]);
    expect(JSON.parse(off.stdout)).toMatchObject({ enabled: false, endpoint: "off", reason: expect.stringContaining("project config") });
    sb.projectCfg({ jev: { enabled: true, endpoint: "http://127.0.0.2:1/", deadline_ms: 1 } });
    const on = await jev(sb, ["status"]);
    expect(on.stdout).toContain("jev: on\nendpoint: 127.0.0.1\nmodel: jev-1.13.0");
    expect(on.stdout.match(/ shadow +unset: shadow/g)).toHaveLength(7);
    expect(on.stdout.match(/jev.endpoint, jev.deadline_ms ignored/g)).toHaveLength(1);
    const act = JSON.parse((await jev(sb, ["status", "--json"], { OC_JEV: "act" })).stdout);
    expect(act.points.every((p: { mode: string }) => p.mode === "act")).toBe(true);
    const inspect = await runCliAsync(["inspect"], { cwd: sb.project, env: { ...sb.env, OC_JEV_ENDPOINT: fake!.url } });
    expect(inspect.stdout.match(/^jev +\S+ +shadow +127\.0\.0\.1/gm)).toHaveLength(7);
    const bad = await jev(sb, ["status"], { OC_JEV: "sideways" });
    expect(bad.stdout).toContain("warning: OC_JEV=sideways is not off, shadow or act; ignored");
  });

  it("probe: JEV_PROBE_OK from the fake; JEV_PROBE_FAIL exit 1 when off or failing", async () => {
    fake = await startFakeSystemOne();
    sb = jevSandbox(fake.url);
    sb.globalCfg({ jev: { enabled: true } });
    sb.projectCfg({ jev: { enabled: true } });
    fake.enqueue({ answers: { probe: { type: "noul", noul: 0.97 } }, serverMs: 3 });
    const ok = await jev(sb, ["probe"]);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toMatch(/^JEV_PROBE_OK model=jev-1.13.0 latency_ms=\d+ server_ms=3 endpoint=127.0.0.1\n$/);
    fake.enqueue({ type: "error", status: 503, code: 7003 });
    const fail = await jev(sb, ["probe"]);
    expect(fail.code).toBe(1);
    expect(fail.stdout).toContain("JEV_PROBE_FAIL outcome=invalid");
    const off = await jev(sb, ["probe"], { OC_JEV: "off" });
    expect([off.code, off.stdout.startsWith("JEV_PROBE_FAIL outcome=off")]).toEqual([1, true]);
  });

  it("questions --json lists each point's questions; verdicts runs the policies over recorded answers", async () => {
    fake = await startFakeSystemOne();
    sb = jevSandbox(fake.url);
    const q = JSON.parse((await jev(sb, ["questions", "--json"])).stdout);
    expect(Object.keys(q.permission)).toEqual(["destructive", "egress", "reversible", "blast_radius"]);
    expect(q.triage.failure.options).toEqual(["flaky", "env_missing", "real_failure"]);
    expect(Object.keys(q.supervisor)).toContain("complete");
    const cases = [
      { point: "permission", answers: { ...SAFE, reversible: { ...SAFE.reversible, confidence: 0.9 }, blast_radius: { type: "choice", choice: "project", confidence: 0.9, probabilities: { project: 0.9, "single-file": 0.1 } } } },
      { point: "permission", answers: { ...SAFE, destructive: { type: "noul", noul: 0.8 } } },
      { point: "triage", answers: { failure: { type: "choice", choice: "flaky", confidence: 0.9, probabilities: { flaky: 0.9, env_missing: 0.05, real_failure: 0.05 } } } },
    ];
    sb.write("cases.jsonl", cases.map((c) => JSON.stringify(c)).join("\n"));
    const v = await jev(sb, ["verdicts", "--in", "cases.jsonl"]);
    expect(v.stdout).toBe("1 point=permission verdict=allow\n2 point=permission verdict=reject\n3 point=triage verdict=rerun\n");
  });

  it("labels: person labels exported and merged without duplicates; --unlabelled with label null; eval.mjs OK and RED", async () => {
    fake = await startFakeSystemOne();
    sb = jevSandbox(fake.url);
    const dir = path.join(sb.home, ".local", "share", "oceancode", "session-ledger", "ses_a");
    fs.mkdirSync(dir, { recursive: true });
    const dec = (hash: string, point = "permission", answers: unknown = SAFE) => JSON.stringify({ type: "decision", at: 1, session: "ses_a", point, mode: "shadow", outcome: "shadow", verdict: "allow", baseline: "ask", latency_ms: 5, model: "jev-1.13.0", state_hash: hash, state: { command: hash }, answers });
    fs.writeFileSync(
      path.join(dir, "jev-decisions.jsonl"),
      [dec("h1"), dec("h2"), dec("h3", "supervisor", { complete: { type: "noul", noul: 0.9 } }), JSON.stringify({ type: "label", at: 2, session: "ses_a", point: "permission", state_hash: "h1", label: "allow" }), dec("skip", "permission", "skip: a path outside the project")].join("\n") + "\n",
    );
    const out = await jev(sb, ["labels", "--out", "labels.json"]);
    expect(out.stdout).toContain("1 row added to labels.json (1 in all)");
    expect((await jev(sb, ["labels", "--out", "labels.json"])).stdout).toContain("0 rows added");
    const un = await jev(sb, ["labels", "--unlabelled", "--point", "permission"]);
    expect(JSON.parse(un.stdout)).toEqual([expect.objectContaining({ state_hash: "h2", label: null, source: "unlabelled" })]);

    const rows = (n: number, label = "allow") => Array.from({ length: n }, (_, i) => ({ point: "permission", state_hash: `s${i}`, answers: SAFE, label }));
    const evalRun = (data: unknown[]) => {
      fs.writeFileSync(path.join(sb!.project, "set.json"), JSON.stringify(data));
      return spawnSync(process.execPath, [path.join(REPO_ROOT, "bench", "jev", "eval.mjs"), "--set", path.join(sb!.project, "set.json"), "--point", "permission"], { encoding: "utf8" });
    };
    expect(evalRun(rows(40)).stdout).toBe("JEV_EVAL_OK point=permission accuracy=1.000 wilson_lower=0.912 rows=40 false_allows=0\n");
    const few = evalRun(rows(12));
    expect([few.status, few.stdout]).toEqual([1, "JEV_EVAL_RED reason=rows point=permission accuracy=1.000 wilson_lower=0.757 rows=12 false_allows=0\n"]);
    expect(evalRun([...rows(45), ...rows(1, "deny")]).stdout).toMatch(/^JEV_EVAL_RED reason=false_allow .* false_allows=1\n$/);
  });

  it("eval.mjs live: each row's state asked again of the endpoint, only with OC_LIVE_CONFIRM=1; the fresh answers are judged", async () => {
    fake = await startFakeSystemOne();
    sb = jevSandbox(fake.url);
    fake.answer(() => SAFE);
    // recorded answers that would be judged wrong; the endpoint now answers SAFE: live, every row is right
    const rows = Array.from({ length: 40 }, (_, i) => ({ point: "permission", state_hash: `s${i}`, state: { task: "t", command: `ls dir${i}`, workdir: "." }, answers: DESTRUCTIVE, label: "allow" }));
    fs.writeFileSync(path.join(sb.project, "set.json"), JSON.stringify(rows));
    // not spawnSync: the fake endpoint answers from this process
    const run = (args: string[], env: NodeJS.ProcessEnv) =>
      new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
        const child = spawn(process.execPath, [path.join(REPO_ROOT, "bench", "jev", "eval.mjs"), "--set", path.join(sb!.project, "set.json"), "--point", "permission", ...args], { env: { PATH: process.env.PATH, OC_JEV_ENDPOINT: fake!.url, ...env } });
        let stdout = "";
        let stderr = "";
        child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
        child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
        child.on("close", (status) => resolve({ status, stdout, stderr }));
      });
    expect((await run([], {})).stdout).toMatch(/^JEV_EVAL_RED reason=/);
    expect(fake.requests.length).toBe(0);
    const refused = await run(["--live"], {});
    expect(refused.status).toBe(2);
    expect(refused.stderr).toContain("eval.mjs --live sends the state of 40 row(s) to 127.0.0.1: set OC_LIVE_CONFIRM=1 to confirm");
    expect(fake.requests.length).toBe(0);
    const ok = await run([], { OC_LIVE_CONFIRM: "1" });
    expect(ok.stdout, ok.stderr.slice(0, 600)).toBe("JEV_EVAL_OK point=permission accuracy=1.000 wilson_lower=0.912 rows=40 false_allows=0 live=1 unanswered=0\n");
    expect(fake.requests.length).toBe(40);
    expect((fake.requests[3]!.body as { state?: { command?: string } }).state?.command).toBe("ls dir3");
  });
});

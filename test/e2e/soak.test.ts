/**
 * The soak check: bench/soak/soak runs the marathon fixture and writes the turns file, bench/soak/soak-metrics judges
 * it. A short real soak (the compiled CLI against the fake Anthropic server) must judge SOAK_OK; doctored
 * turns files must judge SOAK_RED with the reason that names what broke.
 */
import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { judgeSoak, type SoakLine, type SoakRun, type SoakStep } from "../../bench/soak/soak-judge.js";

const DIST = path.resolve("dist", "bench", "soak");

function synthetic(steps: number, f: (i: number) => Partial<SoakStep> = () => ({}), run: Partial<SoakRun> = {}): SoakLine[] {
  const lines: SoakLine[] = [];
  for (let i = 1; i <= steps; i++) lines.push({ type: "step", step: i, ms: 10, overhead: 2, rss: 100 * 1024 * 1024, heap: 20e6, gauge: 1000 * i, ...f(i) });
  lines.push({ type: "run", steps, exit: 0, requests: steps + 1, summary_calls: 0, refusals: 0, assistant_rows: steps + 1, tool_rows: steps, session: "ses_x", ...run });
  return lines;
}

describe("soak", () => {
  it("a real 80-step soak is SOAK_OK, every row counted in the database", () => {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "oc-soak-"));
    const out = path.join(tmp, "turns.jsonl");
    execFileSync(process.execPath, [path.join(DIST, "soak.js"), "--steps", "80", "--kb", "2", "--out", out], { stdio: "pipe", timeout: 120_000 });
    const lines = fs.readFileSync(out, "utf8").trim().split("\n").map((l) => JSON.parse(l) as SoakLine);
    const run = lines.at(-1) as SoakRun;
    expect(run).toMatchObject({ type: "run", steps: 80, exit: 0, refusals: 0, summary_calls: 0, tool_rows: 80, assistant_rows: 81 });
    expect(lines.filter((l) => l.type === "step").length).toBeGreaterThanOrEqual(80);
    // the judge's CLI; on a busy machine the time bound is widened, the rows and refusals rules are not
    const judged = spawnSync(process.execPath, [path.join(DIST, "soak-metrics.js"), out, "--time-ratio", "4", "--rss-ratio", "2"], { encoding: "utf8" });
    expect(judged.stdout).toMatch(/^SOAK_OK steps=80 /);
    expect(judged.status).toBe(0);
    fs.rmSync(tmp, { recursive: true, force: true });
  }, 150_000);

  it("judges SOAK_RED with the reason", () => {
    expect(judgeSoak(synthetic(200)).line).toMatch(/^SOAK_OK steps=200/);
    expect(judgeSoak(synthetic(200, (i) => ({ ms: 10 + i * 0.5 }))).line).toMatch(/^SOAK_RED reason=step_grew step_ms=/);
    expect(judgeSoak(synthetic(200, (i) => ({ overhead: 2 + i * 0.1 }))).line).toMatch(/^SOAK_RED reason=overhead_grew/);
    expect(judgeSoak(synthetic(200, (i) => ({ rss: (100 + i * 2) * 1024 * 1024 }))).line).toMatch(/^SOAK_RED reason=rss_grew rss_mb=/);
    expect(judgeSoak(synthetic(200, undefined, { refusals: 1 })).line).toBe("SOAK_RED reason=refusals refusals=1");
    expect(judgeSoak(synthetic(200, undefined, { summary_calls: 2 })).line).toBe("SOAK_RED reason=summary_call summary_calls=2");
    expect(judgeSoak(synthetic(200, undefined, { tool_rows: 199 })).line).toMatch(/^SOAK_RED reason=rows_missing/);
    expect(judgeSoak(synthetic(200, undefined, { exit: 1 })).line).toBe("SOAK_RED reason=exit exit=1");
    expect(judgeSoak(synthetic(200).slice(0, 150).concat(synthetic(200).slice(-1))).line).toMatch(/^SOAK_RED reason=steps_missing/);
    expect(judgeSoak(synthetic(10).slice(0, 5)).line).toMatch(/^SOAK_RED reason=no_run_record/);
    // a small absolute rise (under the slack) is flat, whatever the ratio
    expect(judgeSoak(synthetic(200, (i) => ({ ms: i > 150 ? 2.5 : 1 }))).ok).toBe(true);
  });

  it("soak-metrics on a missing file is SOAK_RED, exit 1", () => {
    const r = spawnSync(process.execPath, [path.join(DIST, "soak-metrics.js"), "/nonexistent/turns.jsonl"], { encoding: "utf8" });
    expect(r.stdout).toMatch(/^SOAK_RED reason=no_turns_file/);
    expect(r.status).toBe(1);
  });
});

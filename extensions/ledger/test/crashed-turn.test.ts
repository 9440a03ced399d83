/**
 * kill -9 mid-turn, then `run --continue`: the ledger's index shows the crashed turn with its real step
 * count, title and start time (from its stored rows, not the resume), marks it crashed, and its transcript
 * gets a marker where it stops; the exports say so too. The compiled CLI on the scripted model.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeSandbox, runCliAsync, type Sandbox } from "../../../test/kit/cli.js";
import { runAndKill } from "../../../test/kit/kill-run.js";
import { exportAtif, exportMd, indexRow, readIndex, readTurn } from "../../../test/kit/stored.js";

let sb: Sandbox;
beforeAll(() => {
  sb = makeSandbox("oc-crashed-turn-");
  // three whole steps, then a step that waits long enough to be killed in
  sb.write(
    "long.json",
    JSON.stringify({ steps: [{ text: "step {{n}}", tool_calls: [{ name: "bash", input: { command: "echo out-{{n}}" } }], repeat: 3 }, { text: "never", delay_ms: 60_000 }] }),
  );
  sb.write("after.json", JSON.stringify({ steps: [], after: { text: "resumed fine" } }));
});
afterAll(() => sb.cleanup());

describe("a turn killed mid-way", () => {
  it("is indexed with its real steps, title and start time, and marked crashed, after --continue", async () => {
    const started = Date.now();
    // killed 1.5 s after its third step: the rows are committed, the process sits in step 4
    const killed = await runAndKill({ args: ["run", "--auto", "--format", "json", "--model", "scripted/long.json", "the long job"], cwd: sb.project, env: sb.env, afterSteps: 3, delayMs: 1_500 });
    expect(killed.signal).toBe("SIGKILL");
    expect(killed.steps).toBe(3);
    const id = killed.sessionId!;
    expect(id).toBeTruthy();

    const resumedAt = Date.now();
    const r = await runCliAsync(["run", "--continue", "--model", "scripted/after.json", "carry on"], { cwd: sb.project, env: sb.env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain("resumed fine");
    expect(r.stderr).toContain(id);

    const index = readIndex(sb, id);
    const [crashed, next] = index.json;
    expect(crashed).toMatchObject({ turn: 1, steps: 3, title: "the long job", reason: "crashed", interrupted: "crash", firstSeq: 1, lastSeq: 7 });
    expect(crashed!.startedAt).toBeGreaterThanOrEqual(started);
    expect(crashed!.startedAt).toBeLessThan(resumedAt);
    expect(crashed!.endedAt!).toBeLessThan(resumedAt);
    expect(next).toMatchObject({ turn: 2, steps: 1, title: "carry on", reason: "end_turn" });
    expect(next!.interrupted).toBeUndefined();

    const row = indexRow(index.md, 1);
    expect(row[2]).toBe("1–7");
    expect(row[3]).toBe("3");
    expect(Date.parse(row[4]!)).toBe(crashed!.startedAt);
    expect(row[5]).toBe("crashed");
    expect(row[7]).toBe("the long job");
    expect(indexRow(index.md, 2)[5]).toBe("done");

    // the transcript stops with the marker, after its last stored row
    const turn1 = readTurn(sb, id, 1);
    expect(turn1).toContain("out-3");
    expect(turn1.indexOf("### crashed · after seq 7")).toBeGreaterThan(turn1.indexOf("### tool · seq 7"));
    expect(turn1).toMatch(/The session was reopened \d{4}-\d\d-\d\dT[\d:.]+Z\.\n\n$/);
    expect(readTurn(sb, id, 2)).not.toContain("crashed");

    // a second --continue does not mark it again
    const again = await runCliAsync(["run", "--continue", "--model", "scripted/after.json", "once more"], { cwd: sb.project, env: sb.env });
    expect(again.code, again.stderr).toBe(0);
    expect(readTurn(sb, id, 1).match(/### crashed/g)).toHaveLength(1);
    expect(readIndex(sb, id).json.map((t) => t.reason)).toEqual(["crashed", "end_turn", "end_turn"]);

    const md = await exportMd(sb, id);
    expect(md).toContain("crashed_turns: [1]");
    expect(md).toContain("#### crashed · after seq 7");
    expect(md).toMatch(/\| 1 \| 3 \| 1–7 \|.*\| crashed \| the long job \|/);
    const traj = await exportAtif(sb, id);
    const marker = traj.extra?.incomplete_turns?.[0];
    expect(marker).toMatchObject({ turn: 1, status: "crashed" });
    const step = traj.steps[marker!.marker_step_id - 1]!;
    expect(step.source).toBe("system");
    expect(step.message).toContain("turn 1 crashed");
    // it sits between the crashed turn's last step and the next turn's message
    expect(traj.steps[marker!.marker_step_id]).toMatchObject({ source: "user", message: "carry on" });
  }, 120_000);
});

/**
 * An interrupted turn (SIGINT in `oceancode run`) is marked where it stopped: the text it streamed is
 * stored (what the user saw is what the session keeps), the engine's "interrupted" note follows it, and
 * the ledger transcript, index.md / index.json and both exports show the turn as interrupted. The compiled
 * CLI, on the real Anthropic SDK against the fake server (a stream that stalls mid-answer) and on the
 * scripted model (an interrupt before any text).
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { CLI, makeSandbox, runCliAsync, type Sandbox } from "../../../test/kit/cli.js";
import { exportAtif, exportMd, indexRow, keptText, parseEvents, readIndex, readTurn, storedAnswer, type JsonEvent } from "../../../test/kit/stored.js";
import { startFakeAnthropic, type FakeAnthropicServer } from "../../../test/kit/fakes/anthropic-server.js";

const NOTE = "[interrupted by the user: the turn stopped here, before it finished]";

let anthropic: FakeAnthropicServer;
let sb: Sandbox;
beforeAll(async () => {
  anthropic = await startFakeAnthropic({ chunkChars: 6 });
});
afterAll(async () => {
  await anthropic.close();
});
beforeEach(() => {
  sb = makeSandbox("oc-interrupt-");
  anthropic.reset();
});
afterEach(() => sb.cleanup());

/** `oceancode run --format json …`, SIGINT once `ready` holds for the events so far; resolves when it exits. */
function runAndInterrupt(args: string[], env: NodeJS.ProcessEnv, ready: (events: JsonEvent[]) => boolean): Promise<{ events: JsonEvent[]; stderr: string; code: number | null }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, "run", "--format", "json", ...args], { cwd: sb.project, env: { ...sb.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let stderr = "";
    let sent = false;
    const guard = setTimeout(() => child.kill("SIGKILL"), 60_000);
    child.stdout.on("data", (d: Buffer) => {
      out += d.toString();
      const complete = out.slice(0, out.lastIndexOf("\n") + 1);
      if (!sent && ready(parseEvents(complete))) {
        sent = true;
        child.kill("SIGINT");
      }
    });
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(guard);
      resolve({ events: parseEvents(out), stderr, code });
    });
  });
}

describe("an interrupted turn is marked where it stopped", () => {
  it("SIGINT mid-answer (anthropic SDK, stalled stream): the partial text and the interrupted note are stored, indexed and exported", async () => {
    const partial = "PARTIAL answer the user saw";
    anthropic.enqueue({ type: "drop", text: partial, holdMs: 60_000 });
    const env = { ANTHROPIC_API_KEY: "k", ANTHROPIC_BASE_URL: anthropic.url };
    const t0 = Date.now();
    const r = await runAndInterrupt(["--model", "anthropic/claude-sonnet-4-5", "explain it"], env, (es) => es.filter((e) => e.type === "text_delta").map((e) => e.text).join("") === partial);
    expect(Date.now() - t0).toBeLessThan(30_000); // the stall was cut short by the interrupt
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain("interrupted");
    expect(r.events.some((e) => e.type === "discard")).toBe(false);
    expect(r.events.at(-1)).toMatchObject({ type: "turn_end", reason: "aborted" });
    const id = r.events[0]!.sessionId!;
    expect(keptText(r.events)).toBe(partial);

    // the transcript: the user's message, the cut-off answer, then the marker
    const turn = readTurn(sb, id, 1);
    const at = { user: turn.indexOf("explain it"), answer: turn.indexOf(partial), marker: turn.indexOf("### note · seq 3 · interrupted") };
    expect(at.user).toBeGreaterThan(0);
    expect(at.answer).toBeGreaterThan(at.user);
    expect(at.marker).toBeGreaterThan(at.answer);
    expect(turn.slice(at.marker)).toContain(NOTE);

    // the index files
    const index = readIndex(sb, id);
    expect(index.json[0]).toMatchObject({ turn: 1, steps: 1, title: "explain it", reason: "aborted", interrupted: "user" });
    expect(index.md).toContain("| Turn | Transcript | Seq | Steps | Started | Ended | Past tideline | Title |");
    expect(indexRow(index.md, 1)[5]).toBe("interrupted");

    // the exports
    const md = await exportMd(sb, id);
    expect(md).toContain("interrupted_turns: [1]");
    expect(md).toContain("#### note · seq 3 · interrupted");
    expect(md).toMatch(/\| 1 \| 1 \| 1–3 \|.*\| interrupted \| explain it \|/);
    const traj = await exportAtif(sb, id);
    expect(traj.steps.map((s) => s.source)).toEqual(["user", "agent", "system"]);
    expect(storedAnswer(traj)).toBe(partial);
    expect(traj.steps[2]!.message).toBe(NOTE);
    expect(traj.extra?.incomplete_turns).toEqual([{ turn: 1, status: "interrupted", marker_step_id: 3 }]);
  });

  it("SIGINT before any text (scripted): the turn file holds the user message and the marker; the next turn's model reads the note", async () => {
    sb.write("s.json", JSON.stringify({ steps: [{ text: "first done" }, { text: "never shown", delay_ms: 30_000 }, { text: "third answer" }] }));
    const record = `${sb.project}/requests.jsonl`;
    const env = { OC_SCRIPTED_RECORD: record };
    const first = await runCliAsync(["run", "--model", "scripted/s.json", "first task"], { cwd: sb.project, env: { ...sb.env, ...env } });
    expect(first.code, first.stderr).toBe(0);
    const r = await runAndInterrupt(["--continue", "second task"], env, (es) => es.some((e) => e.type === "turn_start"));
    expect(r.code).not.toBe(0);
    expect(r.events.at(-1)).toMatchObject({ type: "turn_end", reason: "aborted" });
    const id = r.events[0]!.sessionId!;

    const turn2 = readTurn(sb, id, 2);
    expect(turn2).toContain("second task");
    expect(turn2).toContain("### note · seq 4 · interrupted");
    expect(turn2).toContain(NOTE);
    expect(turn2).not.toContain("### assistant");

    const third = await runCliAsync(["run", "--continue", "third task"], { cwd: sb.project, env: { ...sb.env, ...env } });
    expect(third.code, third.stderr).toBe(0);
    expect(third.stdout).toContain("third answer");
    const lastRequest = JSON.parse(fs.readFileSync(record, "utf8").trim().split("\n").at(-1)!) as { rows: Array<{ role: string; text?: string }> };
    expect(lastRequest.rows.map((x) => x.text)).toContain(NOTE);

    const index = readIndex(sb, id);
    expect(index.json.map((t) => [t.turn, t.reason, t.interrupted])).toEqual([
      [1, "end_turn", undefined],
      [2, "aborted", "user"],
      [3, "end_turn", undefined],
    ]);
    expect(index.json[1]!.steps).toBe(1); // the step it stopped in
    expect([1, 2, 3].map((n) => indexRow(index.md, n)[5])).toEqual(["done", "interrupted", "done"]);
    const md = await exportMd(sb, id);
    expect(md).toContain("interrupted_turns: [2]");
    const traj = await exportAtif(sb, id);
    expect(traj.extra?.incomplete_turns).toEqual([{ turn: 2, status: "interrupted", marker_step_id: 4 }]);
    expect(traj.steps[3]).toMatchObject({ source: "system", message: NOTE });
  });
});

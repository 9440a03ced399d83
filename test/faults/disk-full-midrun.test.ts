/**
 * Issue 28: the disk fills while a run waits for the model (the ledger on, a real 8 MiB tmpfs as the data
 * directory, filled to the last byte after the run's first step ends). The run must end: exit 1 within a
 * bound, saying which disk is full and how many bytes are free; what was stored before is intact (the first
 * turn's transcript byte for byte, every ledger record a whole line, the database's rows); no temp file is
 * left; once space is freed `run -c` goes on with the database holding every row the ledger holds, and the
 * turn the disk filled in (it finished; only its end record was lost) is indexed as done, not crashed.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CLI, type RunResult } from "../kit/cli.js";
import { fill, tmpFiles, fullDiskFile, storedSession } from "./tmpfs.js";

const { sb, data, filler, cli } = fullDiskFile("oc-disk-midrun-");

sb.write("notes.txt", "a file to read\n");
sb.write(
  "s.json",
  JSON.stringify({
    steps: [{ text: "first answer" }, { tool_calls: [{ name: "read", input: { file_path: "notes.txt" } }] }, { text: "late answer", delay_ms: 1500 }],
    after: { text: "third answer" },
  }),
);

/** `run -c` in JSON, the disk filled as soon as its first step ends; killed (and reported) past `boundMs`. */
function runFillingTheDisk(boundMs: number): Promise<RunResult & { filled: boolean; ms: number }> {
  return new Promise((resolve) => {
    const t0 = Date.now();
    const child = spawn(process.execPath, [CLI, "run", "-c", "--format", "json", "--model", "scripted/s.json", "more"], { cwd: sb.project, env: sb.env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    let filled = false;
    child.stdout.on("data", (d: Buffer) => {
      stdout += d.toString();
      if (!filled && stdout.includes('"type":"step_end"')) {
        filled = true;
        fill(filler);
      }
    });
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => {
      stderr += `\n[test: still running after ${boundMs} ms, killed]`;
      child.kill("SIGKILL");
    }, boundMs);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, filled, ms: Date.now() - t0 });
    });
  });
}

function jsonLines(file: string): unknown[] {
  const text = fs.readFileSync(file, "utf8");
  expect(text.endsWith("\n"), `${file} ends mid-line`).toBe(true);
  return text
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as unknown);
}

describe("disk full mid-run", () => {
  it("the run ends with exit 1 saying the disk is full; nothing stored before is lost; run -c goes on once space is freed", async () => {
    const first = await cli("run", "--model", "scripted/s.json", "first");
    expect(first.code, first.stderr).toBe(0);
    const id = /session: (ses_\w+)/.exec(first.stderr)![1]!;
    const dir = path.join(data, "session-ledger", id);
    const turn1 = fs.readFileSync(path.join(dir, "transcript", "turn-0001.md"), "utf8");

    const run = await runFillingTheDisk(30_000);
    expect(run.filled, run.stdout).toBe(true);
    expect(run.code, run.stderr).toBe(1);
    expect(run.stderr).toMatch(/the disk holding \S+ is full \(\d+ bytes free\)/);
    expect(run.stderr).toContain("free some space");
    expect(run.stderr).not.toMatch(/no earlier session|its transcript is in|check the file|the ledger may lag/);
    expect(tmpFiles(data)).toEqual([]);
    // what was there before the disk filled is intact, and every ledger record is a whole line
    expect(fs.readFileSync(path.join(dir, "transcript", "turn-0001.md"), "utf8")).toBe(turn1);
    jsonLines(path.join(dir, "rows.jsonl"));
    jsonLines(path.join(dir, "journal.jsonl"));

    fs.rmSync(filler);
    const after = await cli("run", "-c", "--model", "scripted/s.json", "third");
    expect(after.code, after.stderr).toBe(0);
    // Which of the turn's last writes found room is a race the full disk decides (SQLite may reuse its WAL's
    // pages): when the answer of the step that filled it was stored, the turn finished and "third" gets the
    // script's next answer; when it was not, the step is lost as a whole and "third" gets that step's answer.
    // Either way nothing stored before is lost and the session goes on.
    const answerStored = after.stdout.includes("third answer");
    if (!answerStored) expect(after.stdout).toContain("late answer");
    expect(tmpFiles(data)).toEqual([]);
    const { rows, prompts } = storedSession(data, id);
    expect(rows.map((x) => x.seq)).toEqual(rows.map((_, i) => i + 1));
    expect(prompts[0]).toBe("first");
    expect(prompts[prompts.length - 1]).toBe("third");
    const side = jsonLines(path.join(dir, "rows.jsonl")) as Array<{ t: string; row?: { seq: number } }>;
    expect(Math.max(...side.filter((r) => r.t === "row").map((r) => r.row!.seq))).toBe(rows.length);
    // the turn the disk filled in finished (its answer is stored): its lost end record is not called a crash
    const index = JSON.parse(fs.readFileSync(path.join(dir, "index.json"), "utf8")) as { turns: Array<{ turn: number; reason?: string; interrupted?: string; steps: number; title: string }> };
    expect(index.turns[index.turns.length - 1]).toMatchObject({ reason: "end_turn", title: "third" });
    if (answerStored) {
      expect(index.turns.map((t) => [t.turn, t.reason, t.interrupted, t.title])).toEqual([
        [1, "end_turn", undefined, "first"],
        [2, "end_turn", undefined, "more"],
        [3, "end_turn", undefined, "third"],
      ]);
      expect(index.turns[1]!.steps).toBe(2);
      const turn2 = fs.readFileSync(path.join(dir, "transcript", "turn-0002.md"), "utf8");
      expect(turn2).toContain("late answer");
      expect(turn2).not.toContain("### crashed");
    }
    const doc = await cli("doctor", "--storage");
    expect(doc.stdout).toContain("ok   storage ledger: the database holds every row the ledger holds");
  }, 120_000);
});

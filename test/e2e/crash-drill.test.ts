/**
 * Crash drill (issue 3): kill -9 an `oceancode run` child in the middle of a many-step scripted session,
 * at random moments, several times over the same session. After each kill the database is an in-order
 * prefix (no gap, no orphan, no step split), and `oceancode run --continue` resumes that same session
 * and carries on from the last committed step.
 */
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { makeSandbox, runCliAsync } from "../kit/cli.js";
import { runAndKill as killRun, type KilledRun } from "../kit/kill-run.js";
import { checkPrefix } from "../../extensions/storage/test/helpers.js";

const STEPS = 80;
const sb = makeSandbox("oc-crash-");
afterAll(() => sb.cleanup());
sb.write("notes.txt", "a line to read\n");
sb.write(
  "long.json",
  JSON.stringify({
    steps: [
      { text: "reading again ({{n}})", tool_calls: [{ name: "read", input: { file_path: "notes.txt" } }], delay_ms: 25, repeat: STEPS },
      { text: "all steps done" },
    ],
  }),
);
const db = path.join(sb.home, "drill.db");

/** Start a run, wait until it has finished `minSteps` steps, then SIGKILL it after a random delay. */
function runAndKill(args: string[], minSteps: number): Promise<KilledRun> {
  return killRun({ args: ["--db", db, "--dir", sb.project, "run", "--format", "json", ...args], cwd: sb.project, env: sb.env, afterSteps: minSteps, delayMs: Math.floor(Math.random() * 200) });
}

function sessionRows(id: string): Array<{ seq: number; turn: number; role: string; json: string }> {
  const d = new Database(db, { readonly: true });
  try {
    return d.prepare("SELECT seq, turn, role, json FROM rows WHERE session_id = ? ORDER BY seq").all(id) as Array<{ seq: number; turn: number; role: string; json: string }>;
  } finally {
    d.close();
  }
}

describe("crash drill: kill -9 of oceancode run", () => {
  it("leaves an in-order prefix each time, and --continue resumes the same session to the end", async () => {
    const first = await runAndKill(["--model", "scripted/long.json", "work through the list"], 5);
    expect(first.signal).toBe("SIGKILL");
    expect(first.sessionId).toMatch(/^ses_/);
    const id = first.sessionId!;
    let before = checkPrefix(db).rows.get(id) ?? 0;
    expect(before).toBeGreaterThan(0);

    // kill the resumed runs too, at other random points of the same session
    for (let k = 0; k < 2; k++) {
      const again = await runAndKill(["--continue", `resume ${k}`], 3);
      expect(again.signal).toBe("SIGKILL");
      expect(again.sessionId).toBe(id); // --continue picked the killed session back up
      const now = checkPrefix(db).rows.get(id) ?? 0;
      expect(now).toBeGreaterThan(before); // it carried on and committed more steps
      before = now;
    }

    const done = await runAsyncContinue();
    expect(done.code).toBe(0);
    expect(done.stderr).toContain(`session: ${id}`);
    expect(done.stdout.trim().split("\n").pop()).toBe("all steps done");
    checkPrefix(db);
    const rows = sessionRows(id);
    expect(rows.map((r) => r.seq)).toEqual(rows.map((_, i) => i + 1));
    const prompts = rows.filter((r) => r.role === "user").map((r) => (JSON.parse(r.json) as { text: string }).text);
    expect(prompts).toEqual(["work through the list", "resume 0", "resume 1", "finish"]);
    // every scripted step ran exactly once across the four processes: a resume never redid a committed step
    expect(rows.filter((r) => r.role === "assistant" && r.json.includes("reading again"))).toHaveLength(STEPS);
    const listed = await runCliAsync(["--db", db, "--dir", sb.project, "sessions", "--json"], { cwd: sb.project, env: sb.env });
    expect(listed.code).toBe(0);
    const list = JSON.parse(listed.stdout) as Array<{ id: string; turns: number; title: string }>;
    expect(list.map((s) => [s.id, s.turns, s.title])).toEqual([[id, 4, "work through the list"]]);
  });
});

function runAsyncContinue() {
  return runCliAsync(["--db", db, "--dir", sb.project, "run", "--continue", "finish"], { cwd: sb.project, env: sb.env, timeoutMs: 60_000 });
}

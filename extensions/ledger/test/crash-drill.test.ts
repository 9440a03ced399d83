/**
 * Ledger crash drill: kill -9 an `oceancode run` at random points during a marathon, 20 times over one
 * session. Each time the transcript files and the database are an in-order prefix of the session (seqs
 * 1..n with no gap, each row whole: no torn file, no unclosed fence), they agree wherever both hold a
 * row, and `oceancode run --continue` carries on from the last committed step.
 */
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { makeSandbox, runCliAsync } from "../../../test/kit/cli.js";
import { runAndKill as killRun } from "../../../test/kit/kill-run.js";

const KILLS = 20;
const sb = makeSandbox("oc-ledger-crash-");
afterAll(() => sb.cleanup());
sb.write(
  "marathon.json",
  JSON.stringify({
    steps: [{ text: "step {{n}}", tool_calls: [{ name: "bash", input: { command: "echo out-{{n}}-begin; seq 1 400; echo out-{{n}}-end" } }], repeat: 5_000 }],
  }),
);
const ledgerRoot = path.join(sb.home, ".local", "share", "oceancode", "session-ledger");
const dbFile = path.join(sb.home, ".local", "share", "oceancode", "oceancode.db");

let seed = 20_261_130;
const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);

function runAndKill(args: string[], afterSteps: number, jitterMs: number): Promise<{ sessionId?: string; steps: number }> {
  return killRun({ args: ["run", "--auto", "--format", "json", ...args], cwd: sb.project, env: sb.env, afterSteps, delayMs: jitterMs });
}

interface TranscriptRow {
  seq: number;
  role: string;
  body: string;
}

/** Parse every transcript file: rows in order, each with its fenced body; throws on a torn row. */
function transcriptRows(dir: string): TranscriptRow[] {
  const files = fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => /^turn-\d+\.md$/.test(f)).sort() : [];
  const out: TranscriptRow[] = [];
  for (const f of files) {
    const text = fs.readFileSync(path.join(dir, f), "utf8");
    expect(text.startsWith("# Turn ")).toBe(true);
    const parts = text.split(/^(?=### (?:user|note|assistant|tool) · seq \d+)/m).slice(1);
    for (const p of parts) {
      const m = /^### (\w+) · seq (\d+)/.exec(p)!;
      // every fence opened in a row is closed: nothing torn
      const fences = p.match(/^`{3,}/gm) ?? [];
      expect(fences.length % 2, `${f} seq ${m[2]}`).toBe(0);
      expect(p.endsWith("\n\n")).toBe(true);
      out.push({ seq: Number(m[2]), role: m[1]!, body: p });
    }
  }
  return out;
}

function dbRows(sessionId: string): Array<{ seq: number; role: string; json: string }> {
  const db = new Database(dbFile, { readonly: true });
  try {
    return db.prepare("SELECT seq, role, json FROM rows WHERE session_id = ? ORDER BY seq").all(sessionId) as Array<{ seq: number; role: string; json: string }>;
  } finally {
    db.close();
  }
}

function checkPrefixes(sessionId: string): { transcript: number; db: number } {
  const t = transcriptRows(path.join(ledgerRoot, sessionId, "transcript"));
  const d = dbRows(sessionId);
  t.forEach((r, i) => expect(r.seq).toBe(i + 1));
  d.forEach((r, i) => expect(r.seq).toBe(i + 1));
  // where both hold a row they agree (role, and a tool row's output marker)
  for (let i = 0; i < Math.min(t.length, d.length); i++) {
    expect(t[i]!.role).toBe(d[i]!.role);
    const out = /out-(\d+)-begin/.exec(d[i]!.json);
    if (d[i]!.role === "tool" && out) expect(t[i]!.body).toContain(`out-${out[1]}-end`);
  }
  return { transcript: t.length, db: d.length };
}

describe("ledger crash drill", () => {
  it(`survives ${KILLS} kill -9s at random points; --continue carries on`, async () => {
    let sessionId: string | undefined;
    let lastDb = 0;
    let firstDb = 0;
    for (let k = 0; k < KILLS; k++) {
      const args = k === 0 ? ["--model", "scripted/marathon.json", "run the marathon"] : ["--continue", "keep going"];
      const r = await runAndKill(args, 1 + Math.floor(rnd() * 6), Math.floor(rnd() * 40));
      if (k === 0) sessionId = r.sessionId;
      else expect(r.sessionId).toBe(sessionId); // --continue resumed the same session
      expect(sessionId).toBeTruthy();
      const n = checkPrefixes(sessionId!);
      expect(r.steps).toBeGreaterThan(0); // each run carried on from the last committed step
      expect(n.db).toBeGreaterThanOrEqual(lastDb); // a crash loses at most the writes still queued
      if (k === 0) firstDb = n.db;
      lastDb = n.db;
    }
    // a last, clean continuation (killed only after it has settled a few steps) leaves both in step
    const r = await runAndKill(["--continue", "one more"], 3, 2_000);
    expect(r.steps).toBeGreaterThanOrEqual(3);
    const n = checkPrefixes(sessionId!);
    expect(n.db).toBeGreaterThan(firstDb);
    expect(n.transcript).toBeGreaterThan(firstDb);
    const index = JSON.parse(fs.readFileSync(path.join(ledgerRoot, sessionId!, "index.json"), "utf8")) as { turns: Array<{ turn: number }> };
    expect(index.turns.length).toBeGreaterThan(1);
    // and a plain command still reads everything
    const exp = await runCliAsync(["export", sessionId!, "--md"], { cwd: sb.project, env: sb.env });
    expect(exp.code).toBe(0);
  }, 300_000);
});

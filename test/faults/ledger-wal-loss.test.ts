/**
 * Issue 28: the WAL is lost after a kill -9 (the -wal file deleted), so oceancode.db holds only the first
 * turn while the ledger's rows.jsonl holds the killed turn's ~100 steps. doctor must not say OK (it names
 * the session and both counts), `storage repair` writes the missing rows back, and `run -c` (without a
 * repair) catches the database up instead of cutting the ledger. A database whose rows cannot be joined
 * to the ledger's is refused, naming `storage repair --force`, with the ledger left byte for byte.
 * Real CLI, real SQLite on disk, the scripted model.
 */
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeSandbox, runCliAsync, type Sandbox } from "../kit/cli.js";
import { runAndKill } from "../kit/kill-run.js";

const REPEAT = 140;
const sb = makeSandbox("oc-wal-loss-");
afterAll(() => sb.cleanup());
sb.write(
  "long.json",
  JSON.stringify({ steps: [{ text: "first answer" }, { text: "step {{n}}", tool_calls: [{ name: "bash", input: { command: "echo out-{{n}}" } }], delay_ms: 2, repeat: REPEAT }, { text: "all done: {{prompt}}" }] }),
);
const dataOf = (home: string) => path.join(home, ".local", "share", "oceancode");
const data = dataOf(sb.home);

/** Another HOME with a copy of this one's data dir (each scenario starts from the same lost WAL). */
function copyOf(prefix: string): Sandbox {
  const c = makeSandbox(prefix);
  fs.cpSync(data, dataOf(c.home), { recursive: true });
  return c;
}

type DbRow = { seq: number; turn: number; role: string; json: string };
function dbRows(home: string, id: string): DbRow[] {
  const db = new Database(path.join(dataOf(home), "oceancode.db"), { readonly: true });
  try {
    return db.prepare("SELECT seq, turn, role, json FROM rows WHERE session_id = ? ORDER BY seq").all(id) as DbRow[];
  } finally {
    db.close();
  }
}

/** rows.jsonl's rows as readers see them (resume markers applied). */
function ledgerRows(home: string, id: string): Map<number, string> {
  const out = new Map<number, string>();
  for (const l of fs.readFileSync(path.join(dataOf(home), "session-ledger", id, "rows.jsonl"), "utf8").split("\n")) {
    if (!l.trim()) continue;
    const r = JSON.parse(l) as { t: string; row?: { seq: number }; after?: number };
    if (r.t === "row") out.set(r.row!.seq, JSON.stringify(r.row));
    if (r.t === "resume") for (const s of [...out.keys()]) if (s > r.after!) out.delete(s);
  }
  return out;
}

const prompts = (rows: DbRow[]) => rows.filter((r) => r.role === "user").map((r) => (JSON.parse(r.json) as { text: string }).text);
// every copy runs in the same project (sessions are found by their directory), with its own HOME
const cli = (s: Sandbox, ...args: string[]) => runCliAsync(args, { cwd: sb.project, env: s.env, timeoutMs: 90_000 });

let id = "";
let ledgerLast = 0;
const copies: Sandbox[] = [];
afterAll(() => copies.forEach((c) => c.cleanup()));

beforeAll(async () => {
  const first = await cli(sb, "run", "--auto", "--model", "scripted/long.json", "first");
  expect(first.code, first.stderr).toBe(0);
  // the first turn is checkpointed into oceancode.db when that run closes it; the second lives in the WAL
  const killed = await runAndKill({ args: ["run", "--auto", "--format", "json", "--continue", "keep going"], cwd: sb.project, env: sb.env, afterSteps: 100, delayMs: 0 });
  expect(killed.signal).toBe("SIGKILL");
  id = killed.sessionId!;
  const beforeLoss = dbRows(sb.home, id).length;
  for (const suf of ["-wal", "-shm"]) fs.rmSync(path.join(data, `oceancode.db${suf}`), { force: true });
  ledgerLast = Math.max(...ledgerRows(sb.home, id).keys());
  expect(beforeLoss).toBeGreaterThan(150); // the WAL had held the killed turn
  expect(dbRows(sb.home, id).length).toBe(2); // what is left: the first turn
  expect(ledgerLast).toBeGreaterThan(150);
}, 120_000);

describe("WAL lost after kill -9: the ledger is ahead of the database", () => {
  it("doctor --storage names the session and both counts; storage repair writes the rows back; then doctor is OK", async () => {
    const c = copyOf("oc-wal-repair-");
    copies.push(c);
    const doc = await cli(c, "doctor", "--storage");
    expect(doc.code).toBe(1);
    expect(doc.stdout).toContain(`FAIL storage ledger: session ${id}: its ledger holds rows up to seq ${ledgerLast}, the database 2 row(s) (up to seq 2)`);
    expect(doc.stdout).toContain("`oceancode storage repair`");
    expect(doc.stdout).not.toContain("DOCTOR_OK");

    const rep = await cli(c, "storage", "repair");
    expect(rep.code, rep.stderr).toBe(0);
    expect(rep.stdout).toContain(`${id}  from ledger: ${ledgerLast - 2} row(s) written back (seq 3–${ledgerLast}`);
    expect(rep.stdout).toMatch(new RegExp(`STORAGE_REPAIRED sessions=1 turns=1 rows=${ledgerLast - 2} `));
    const rows = dbRows(c.home, id);
    expect(rows.map((r) => r.seq)).toEqual(rows.map((_, i) => i + 1));
    const ledger = ledgerRows(c.home, id);
    expect(rows.map((r) => r.json)).toEqual([...ledger.values()]); // exactly the ledger's rows
    expect(prompts(rows)).toEqual(["first", "keep going"]);

    const again = await cli(c, "doctor", "--storage");
    expect(again.stdout).toContain("ok   storage ledger: the database holds every row the ledger holds");
    expect(again.stdout).toContain("DOCTOR_OK");
    const twice = await cli(c, "storage", "repair"); // idempotent: nothing left to do
    expect(twice.stdout).toContain("STORAGE_OK");
    expect(dbRows(c.home, id)).toEqual(rows);
  }, 120_000);

  it("run -c without a repair catches the database up and keeps the ledger whole; every scripted step ran once", async () => {
    const c = copyOf("oc-wal-continue-");
    copies.push(c);
    const transcript = path.join(dataOf(c.home), "session-ledger", id, "transcript", "turn-0002.md");
    const before = fs.readFileSync(transcript, "utf8");
    expect(before).toMatch(new RegExp(`^### (assistant|tool) · seq ${ledgerLast - 2} `, "m"));
    const r = await cli(c, "run", "--auto", "--continue", "finish");
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`session ${id}: the database held 2 row(s), its ledger ${ledgerLast}: the ${ledgerLast - 2} row(s) only the ledger had were written back`);
    expect(r.stdout.trim().split("\n").pop()).toBe("all done: finish");
    const rows = dbRows(c.home, id);
    expect(rows.map((x) => x.seq)).toEqual(rows.map((_, i) => i + 1));
    expect(prompts(rows)).toEqual(["first", "keep going", "finish"]);
    // no step was redone or lost across the three processes
    expect(rows.filter((x) => x.role === "assistant" && /"text":"step \d+"/.test(x.json))).toHaveLength(REPEAT);
    // the killed turn's transcript was not cut: it starts as it did, the rows the kill left are all there
    const after = fs.readFileSync(transcript, "utf8");
    expect(after.startsWith(before.slice(0, before.lastIndexOf("### ")))).toBe(true);
    const seqs = [...after.matchAll(/^### \w+ · seq (\d+)/gm)].map((m) => Number(m[1]));
    expect(seqs.filter((q) => q <= ledgerLast)).toEqual(Array.from({ length: ledgerLast - 2 }, (_, i) => i + 3)); // each row once, none cut
    const ledger = ledgerRows(c.home, id);
    expect([...ledger.values()]).toEqual(rows.map((x) => x.json));
    // the resume marker of this run keeps every row the ledger had (not "after 2", which would drop them)
    const markers = [...fs.readFileSync(path.join(dataOf(c.home), "session-ledger", id, "rows.jsonl"), "utf8").matchAll(/"t":"resume","at":\d+,"after":(\d+)/g)].map((m) => Number(m[1]));
    expect(markers).toEqual([2, ledgerLast]);
    const doc = await cli(c, "doctor", "--storage");
    expect(doc.stdout).toContain("DOCTOR_OK");
  }, 120_000);

  it("rows that cannot be joined: run -c refuses naming storage repair --force and leaves the ledger byte for byte; --force rebuilds from it", async () => {
    const c = copyOf("oc-wal-conflict-");
    copies.push(c);
    // the database's last row is another one than the ledger's at that seq (a different history)
    const db = new Database(path.join(dataOf(c.home), "oceancode.db"));
    db.prepare("UPDATE rows SET json = json_set(json, '$.at', 1) WHERE session_id = ? AND seq = 2").run(id);
    db.close();
    const dir = path.join(dataOf(c.home), "session-ledger", id);
    const snapshot = () => ["rows.jsonl", "journal.jsonl", "transcript/turn-0002.md", "index.json"].map((f) => fs.readFileSync(path.join(dir, f), "utf8"));
    const before = snapshot();
    const r = await cli(c, "run", "--auto", "--continue", "finish");
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`session ${id}: its ledger holds rows up to seq ${ledgerLast}, the database up to seq 2, and they cannot be joined (its row seq 2 is not the database's`);
    expect(r.stderr).toContain("`oceancode storage repair --force`");
    expect(snapshot()).toEqual(before);
    expect(dbRows(c.home, id)).toHaveLength(2);

    const plain = await cli(c, "storage", "repair");
    expect(plain.code).toBe(1);
    expect(plain.stdout).toContain("not caught up:");
    const forced = await cli(c, "storage", "repair", "--force");
    expect(forced.code, forced.stderr).toBe(0);
    expect(dbRows(c.home, id).map((x) => x.json)).toEqual([...ledgerRows(c.home, id).values()]);
    const fin = await cli(c, "run", "--auto", "--continue", "finish");
    expect(fin.code, fin.stderr).toBe(0);
    expect(prompts(dbRows(c.home, id))).toEqual(["first", "keep going", "finish"]);
  }, 120_000);
});

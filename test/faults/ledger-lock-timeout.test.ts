/**
 * Issue 28: a run whose writes time out on a lock (another process holds BEGIN EXCLUSIVE on the WAL
 * database: it reads, every write gets SQLITE_BUSY) exits 1 and points to its transcript. The next run -c,
 * once the lock is gone, must not overwrite that transcript: the database catches up from the ledger and
 * the turn is kept, byte for byte, with the rows the database then holds.
 */
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { makeSandbox, runCliAsync } from "../kit/cli.js";
import { holdDb } from "./db-holder.js";

const sb = makeSandbox("oc-lock-timeout-");
afterAll(() => sb.cleanup());
const data = path.join(sb.home, ".local", "share", "oceancode");
const dbFile = path.join(data, "oceancode.db");
const cli = (...args: string[]) => runCliAsync(args, { cwd: sb.project, env: sb.env, timeoutMs: 90_000 });

function userPrompts(id: string): string[] {
  const db = new Database(dbFile, { readonly: true });
  try {
    return (db.prepare("SELECT json FROM rows WHERE session_id = ? AND role = 'user' ORDER BY seq").all(id) as Array<{ json: string }>).map((r) => (JSON.parse(r.json) as { text: string }).text);
  } finally {
    db.close();
  }
}

describe("a lock timeout, then run -c", () => {
  it("the transcript the error pointed to is kept; the database catches up from the ledger", async () => {
    const first = await cli("run", "--model", "scripted/echo", "first");
    expect(first.code, first.stderr).toBe(0);
    const id = /session: (ses_\w+)/.exec(first.stderr)![1]!;
    const holder = await holdDb(dbFile, "write");
    let locked;
    try {
      locked = await cli("run", "-c", "second");
    } finally {
      await holder.stop();
    }
    expect(locked.code).toBe(1);
    const transcriptDir = path.join(data, "session-ledger", id, "transcript");
    expect(locked.stderr).toContain(`session ${id} was not stored`);
    expect(locked.stderr).toContain(`is locked by process pid ${holder.pid}`);
    expect(locked.stderr).toContain(`its transcript is in ${transcriptDir}/`);
    expect(userPrompts(id)).toEqual(["first"]); // the lock kept the second turn out
    const turn2 = path.join(transcriptDir, "turn-0002.md");
    const pointedTo = fs.readFileSync(turn2, "utf8");
    expect(pointedTo).toContain("ok: second");

    const next = await cli("run", "-c", "third");
    expect(next.code, next.stderr).toBe(0);
    expect(next.stderr).toContain(`session ${id}: the database held 2 row(s), its ledger 4: the 2 row(s) only the ledger had were written back`);
    expect(fs.readFileSync(turn2, "utf8")).toBe(pointedTo);
    expect(fs.readFileSync(path.join(transcriptDir, "turn-0003.md"), "utf8")).toContain("ok: third");
    expect(userPrompts(id)).toEqual(["first", "second", "third"]);
    const doc = await cli("doctor", "--storage");
    expect(doc.stdout).toContain("DOCTOR_OK");
  }, 120_000);
});

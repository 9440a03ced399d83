/**
 * doctor's recovery and storage views through the compiled CLI in a throwaway HOME: a run killed with
 * kill -9 while its bash tool call sleeps is listed as an orphaned session with the resume hint, `run -c`
 * resumes it and doctor lists it no more; `doctor --storage` prints every line of the guide's `storage:`
 * block with figures that match the files; `database.vacuum: true` gives back the space a retention sweep
 * freed (the file is smaller after).
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { CLI, makeSandbox, runCli } from "../../../test/kit/cli.js";
import { onJsonEvents } from "../../../test/kit/kill-run.js";
import { withDatabase } from "../../../test/kit/stored.js";

const DAY = 86_400_000;
const sb = makeSandbox("oc-doctor-recovery-");
afterAll(() => sb.cleanup());
const dataDir = path.join(sb.home, ".local", "share", "oceancode");
const dbFile = path.join(dataDir, "oceancode.db");
const cli = (...args: string[]) => runCli(["--dir", sb.project, ...args], { env: sb.env, cwd: sb.project });
const doctorLines = (...args: string[]) => cli("doctor", ...args).stdout.split("\n");

sb.write("sleepy.json", JSON.stringify({ steps: [{ text: "sleeping", tool_calls: [{ name: "bash", input: { command: "sleep 10" } }] }, { text: "awake and done" }] }));

/** `run --format json`, SIGKILLed once its bash call has started (waited on by the event, bounded). */
function runKilledMidTool(): Promise<{ sessionId?: string; signal: NodeJS.Signals | null }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, "--dir", sb.project, "run", "--auto", "--format", "json", "--model", "scripted/sleepy.json", "sleep on it"], { cwd: sb.project, env: sb.env, stdio: ["ignore", "pipe", "pipe"] });
    let sessionId: string | undefined;
    onJsonEvents(child.stdout, (e) => {
      if (e.type === "session") sessionId = e.sessionId;
      if (e.type === "tool_call_start") void killOnceStored(child, sessionId);
    });
    const guard = setTimeout(() => child.kill("SIGKILL"), 30_000);
    child.on("error", reject);
    child.on("close", (_c, signal) => {
      clearTimeout(guard);
      resolve({ sessionId, signal });
    });
  });
}

/** The step's rows are committed behind the step: kill once the database holds its tool call (bounded poll). */
async function killOnceStored(child: ReturnType<typeof spawn>, id: string | undefined): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    try {
      const db = new Database(dbFile, { readonly: true, fileMustExist: true });
      try {
        if (db.prepare("SELECT 1 FROM rows WHERE session_id = ? AND role = 'assistant'").get(id)) break;
      } finally {
        db.close();
      }
    } catch {
      // not there yet
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  child.kill("SIGKILL");
}

const sql = <T>(f: (db: Database.Database) => T): T => withDatabase(dbFile, f);

/** Grow a session's answer rows to ~200 KB each (still valid rows: only their text is longer). */
function bloat(db: Database.Database, id: string): void {
  db.prepare("UPDATE rows SET json = json_set(json, '$.text', ?) WHERE session_id = ? AND role = 'assistant'").run("z".repeat(200_000), id);
}

describe("doctor: orphaned sessions", () => {
  it("kill -9 mid-turn: doctor lists the orphan with the resume hint; run -c resumes it and doctor lists it no more", async () => {
    expect(doctorLines()).toContain("ok   orphaned sessions: none (no turn was left running by a process that is gone)");
    const k = await runKilledMidTool();
    expect(k.signal).toBe("SIGKILL");
    expect(k.sessionId).toMatch(/^ses_/);
    const id = k.sessionId!;
    const lines = doctorLines();
    const orphan = lines.find((l) => l.startsWith(`warn orphaned session ${id}: `));
    expect(orphan, lines.join("\n")).toBeDefined();
    expect(orphan).toContain("turn 1 was left running by a process that is gone (killed or crashed; last stored seq 2,");
    expect(orphan).toContain(`in ${sb.project}); resume it with \`oceancode run --resume ${id} <message>\` (or \`oceancode run -c <message>\` in that directory); if it will not open, \`oceancode storage repair\``);

    const resumed = cli("run", "--auto", "-c", "wake up");
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stderr).toContain(`session: ${id}`);
    expect(resumed.stdout.trim().split("\n").pop()).toBe("awake and done");
    const after = doctorLines();
    expect(after.some((l) => l.includes(`orphaned session ${id}`))).toBe(false);
    expect(after).toContain("ok   orphaned sessions: none (no turn was left running by a process that is gone)");
  });
});

describe("doctor --storage and database.vacuum", () => {
  it("the storage: block has every line of the guide's shape, with figures that match the files", () => {
    sql((db) => db.pragma("wal_checkpoint(TRUNCATE)"));
    const r = cli("doctor", "--storage");
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const lines = r.stdout.split("\n");
    const at = lines.indexOf("storage:");
    expect(at).toBeGreaterThan(0);
    const block = lines.slice(at + 1, lines.indexOf("DOCTOR_OK"));
    const sessions = sql((db) => (db.prepare("SELECT COUNT(*) AS n FROM sessions").get() as { n: number }).n);
    const m = /^ {2}oceancode\.db (\d+) bytes \(wal (\d+) bytes\)$/.exec(block[0]!);
    expect(m, block.join("\n")).not.toBeNull();
    expect(Number(m![1])).toBe(fs.statSync(dbFile).size);
    expect(block[1]).toBe(`  sessions=${sessions}`);
    expect(block[2]).toMatch(/^ {2}ledger [1-9]\d* bytes, oldest 0 days$/);
    expect(block[3]).toMatch(/^ {2}vacuum off \(database\.vacuum\): \d+ bytes free inside the file \(auto_vacuum incremental\)$/);
    expect(block[4]).toBe("  retention due: 0 session(s), 0 bytes at the next run's start (oceancode sessions --expiring lists them)");
    expect(block[5]).toMatch(new RegExp(`^ {2}free disk [1-9]\\d* bytes \\(${dataDir.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\)$`));
    expect(block[6]).toBe("  restore is offline-only: stop oceancode before restoring a backup");
    expect(block).toHaveLength(7);
    // the quick_check line is still there
    expect(lines.some((l) => l.startsWith(`ok   storage ${dbFile}: `) && l.includes("quick_check ok"))).toBe(true);
  });

  it("vacuum: a sweep that removes sessions shrinks the file, says what it freed; retention due counts them first", () => {
    // three sessions made bulky (each answer row grown to ~200 KB in the database) and aged past retention
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const r = cli("run", "--model", "scripted/echo", `bulk ${i}`);
      expect(r.code, r.stderr).toBe(0);
      ids.push(/^session: (\S+)/m.exec(r.stderr)![1]!);
    }
    sql((db) => {
      for (const id of ids) {
        bloat(db, id);
        db.prepare("UPDATE sessions SET updated_at = ? WHERE id = ?").run(Date.now() - 40 * DAY, id);
      }
      db.pragma("wal_checkpoint(TRUNCATE)");
    });
    const due = doctorLines("--storage").find((l) => l.startsWith("  retention due: "));
    expect(due).toMatch(/^ {2}retention due: 3 session\(s\), [1-9]\d{5,} bytes at the next run's start/);
    sb.write(".config/oceancode/oceancode.json", JSON.stringify({ database: { vacuum: true } }), "home");
    const expiring = cli("sessions", "--expiring");
    expect(expiring.stdout).toContain("3 session(s), ");
    expect(expiring.stdout).toContain("database.vacuum is on: the space they take inside the database goes back to the file system after the sweep");
    const before = fs.statSync(dbFile).size;
    const r = cli("run", "--model", "scripted/echo", "after the sweep");
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/retention: removed 3 idle sessions/);
    const line = r.stderr.split("\n").find((l) => l.includes("vacuum: "));
    expect(line, r.stderr).toBeDefined();
    const freed = /vacuum: .*: freed (\d+) bytes \((\d+) -> (\d+) bytes\)/.exec(line!);
    expect(freed).not.toBeNull();
    expect(Number(freed![1])).toBeGreaterThan(400_000);
    const after = fs.statSync(dbFile).size;
    expect(before).toBeGreaterThan(after);
    expect(before - after).toBeGreaterThan(400_000);
    expect(doctorLines("--storage")).toContain("  vacuum on: 0 bytes free inside the file (auto_vacuum incremental)");
  });

  it("an older database without incremental auto-vacuum is converted once by a full VACUUM", () => {
    const old = path.join(sb.home, "old.db");
    sql((db) => db.exec(`VACUUM INTO '${old}'`));
    const o = new Database(old);
    o.pragma("auto_vacuum = NONE");
    o.exec("VACUUM");
    expect(o.pragma("auto_vacuum", { simple: true })).toBe(0);
    o.close();
    const r0 = runCli(["--dir", sb.project, "--db", old, "run", "--model", "scripted/echo", "bulk old"], { env: sb.env, cwd: sb.project });
    expect(r0.code, r0.stderr).toBe(0);
    const id = /^session: (\S+)/m.exec(r0.stderr)![1]!;
    const a = new Database(old);
    bloat(a, id);
    a.prepare("UPDATE sessions SET updated_at = ? WHERE id = ?").run(Date.now() - 40 * DAY, id);
    a.pragma("wal_checkpoint(TRUNCATE)");
    a.close();
    const before = fs.statSync(old).size;
    const r = runCli(["--dir", sb.project, "--db", old, "run", "--model", "scripted/echo", "convert"], { env: sb.env, cwd: sb.project });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain("(converted to incremental auto-vacuum by one full VACUUM)");
    const c = new Database(old, { readonly: true });
    expect(c.pragma("auto_vacuum", { simple: true })).toBe(2);
    c.close();
    expect(before).toBeGreaterThan(fs.statSync(old).size);
  });
});

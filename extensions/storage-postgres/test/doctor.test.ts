/**
 * doctor over storage-postgres (compiled CLI, a real PostgreSQL): a run killed with kill -9 while its bash
 * call sleeps is an orphan (its advisory session lock died with its connection), `run -c` resumes it and
 * doctor lists it no more; `doctor --storage` prints the storage: block (table bytes, no WAL of ours, the
 * server's free disk unknown here); `database.vacuum: true` VACUUMs the session tables after a sweep.
 */
import { spawn } from "node:child_process";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI, makeSandbox } from "../../../test/kit/cli.js";
import { globalConfig, oc } from "../../../test/sdk/helpers.js";
import { startPostgres, type TestPostgres } from "../../../test/kit/postgres.js";
import { onJsonEvents } from "../../../test/kit/kill-run.js";

const DAY = 86_400_000;
let server: TestPostgres;
let url: string;
const sb = makeSandbox("oc-pg-doctor-");
beforeAll(async () => {
  server = await startPostgres();
  url = await server.createDatabase(`doctor_${process.pid}`);
});
afterAll(() => {
  server?.stop();
  sb.cleanup();
});
globalConfig(sb, { extensions: { replace: { storage: "storage-postgres" } } });
sb.write("sleepy.json", JSON.stringify({ steps: [{ text: "sleeping", tool_calls: [{ name: "bash", input: { command: "sleep 10" } }] }, { text: "awake and done" }] }));
const pgc = (...args: string[]) => oc(sb, args, { OC_DATABASE_URL: url });

async function query<T>(sql: string, params: unknown[] = []): Promise<T[]> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query(sql, params)).rows as T[];
  } finally {
    await c.end();
  }
}

/** `run --format json`, SIGKILLed once the database holds the step that called bash (bounded poll). */
function runKilledMidTool(): Promise<{ sessionId?: string; signal: NodeJS.Signals | null }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, "--dir", sb.project, "run", "--auto", "--format", "json", "--model", "scripted/sleepy.json", "sleep on it"], { cwd: sb.project, env: { ...sb.env, OC_DATABASE_URL: url }, stdio: ["ignore", "pipe", "pipe"] });
    let sessionId: string | undefined;
    const killOnceStored = async () => {
      const deadline = Date.now() + 20_000;
      while (Date.now() < deadline && (await query(`SELECT 1 FROM rows WHERE session_id = $1 AND role = 'assistant'`, [sessionId]).catch(() => [])).length === 0) await new Promise((r) => setTimeout(r, 50));
      child.kill("SIGKILL");
    };
    onJsonEvents(child.stdout, (e) => {
      if (e.type === "session") sessionId = e.sessionId;
      if (e.type === "tool_call_start") void killOnceStored();
    });
    const guard = setTimeout(() => child.kill("SIGKILL"), 30_000);
    child.on("error", reject);
    child.on("close", (_c, signal) => {
      clearTimeout(guard);
      resolve({ sessionId, signal });
    });
  });
}

describe("doctor over PostgreSQL", () => {
  it("kill -9 mid-turn is an orphan until run -c resumes it", async () => {
    const k = await runKilledMidTool();
    expect(k.signal).toBe("SIGKILL");
    const id = k.sessionId!;
    expect(id).toMatch(/^ses_/);
    const d = pgc("doctor");
    const orphan = d.stdout.split("\n").find((l) => l.startsWith(`warn orphaned session ${id}: turn 1 was left running by a process that is gone`));
    expect(orphan, d.stdout + d.stderr).toBeDefined();
    expect(orphan).toContain(`oceancode run --resume ${id} <message>`);
    const r = pgc("run", "--auto", "-c", "wake up");
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.trim().split("\n").pop()).toBe("awake and done");
    expect(pgc("doctor").stdout).toContain("ok   orphaned sessions: none (no turn was left running by a process that is gone)");
  });

  it("doctor --storage: the storage: block; database.vacuum VACUUMs after a sweep that removed sessions", async () => {
    const d = pgc("doctor", "--storage");
    expect(d.code, d.stdout + d.stderr).toBe(0);
    const lines = d.stdout.split("\n");
    const block = lines.slice(lines.indexOf("storage:") + 1, lines.indexOf("DOCTOR_OK"));
    expect(block[0]).toMatch(/^ {2}postgresql [1-9]\d* bytes \(wal n\/a\)$/);
    expect(block[1]).toBe("  sessions=1");
    expect(block[2]).toMatch(/^ {2}ledger [1-9]\d* bytes, oldest 0 days$/);
    expect(block[3]).toBe("  vacuum off (database.vacuum): a plain VACUUM of the session tables after a sweep that removed sessions");
    expect(block[4]).toBe("  retention due: 0 session(s), 0 bytes at the next run's start (oceancode sessions --expiring lists them)");
    expect(block[5]).toMatch(/^ {2}free disk unknown \(/);
    expect(block[6]).toBe("  restore is offline-only: stop oceancode before restoring a backup");

    await query(`UPDATE sessions SET updated_at = $1`, [Date.now() - 40 * DAY]);
    globalConfig(sb, { extensions: { replace: { storage: "storage-postgres" } }, database: { vacuum: true } });
    const r = oc(sb, ["run", "--model", "scripted/echo", "after the sweep"], { OC_DATABASE_URL: url });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/retention: removed 1 idle session/);
    expect(r.stderr).toMatch(/vacuum: postgres:\/\/postgres:\*\*\*@127\.0\.0\.1:\d+\/\S+: VACUUM of the session tables: \d+ -> \d+ bytes/);
  });
});

/**
 * Retention on PostgreSQL: the bundled store's engine over storage-postgres, through the compiled CLI on a
 * real server. Sessions are made idle by moving `updated_at` back in the database. `sessions --expiring`
 * lists them (not a pinned one, and one held open elsewhere only on stderr); a run sweeps them with the
 * one warn line and keeps the pinned one and the one whose advisory lock another process holds; two
 * processes sweeping at once remove each session once (through the CLI, and in-process with two stores
 * on one database so the sweeps really overlap).
 */
import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { SESSION_LOCK_NAMESPACE } from "../api.js";
import { type SweepReport } from "../../storage/api.js";
import { sweepRetention } from "../../storage/kit.js";
import { pgRetention } from "../retention.js";
import { PgStore } from "../store.js";
import { makeSandbox, runCliAsync, type Sandbox } from "../../../test/kit/cli.js";
import { globalConfig, oc } from "../../../test/sdk/helpers.js";
import { startPostgres, type TestPostgres } from "../../../test/kit/postgres.js";

const DAY = 86_400_000;
let server: TestPostgres;
let sb: Sandbox;
let url: string;
let n = 0;
const clients: pg.Client[] = [];
beforeAll(async () => {
  server = await startPostgres();
});
afterAll(() => server?.stop());
beforeEach(async () => {
  sb = makeSandbox("oc-pg-ret-");
  url = await server.createDatabase(`ret_${process.pid}_${++n}`);
  globalConfig(sb, { extensions: { replace: { storage: "storage-postgres" } } });
});
afterEach(async () => {
  for (const c of clients.splice(0)) await c.end().catch(() => undefined);
  sb.cleanup();
});

const pgc = (args: string[]) => oc(sb, args, { OC_DATABASE_URL: url });
async function sql(): Promise<pg.Client> {
  const c = new pg.Client({ connectionString: url, application_name: "oc 4242@fleet-b 2026-11-30T08:00:00Z" });
  await c.connect();
  clients.push(c);
  return c;
}
/** a session stored by a real run; its id */
function newSession(text: string): string {
  const r = pgc(["run", "--model", "scripted/echo", text]);
  expect(r.code, r.stderr).toBe(0);
  return /session: (\S+)/.exec(r.stderr)![1]!;
}
async function idle(c: pg.Client, ids: string[], days: number): Promise<void> {
  await c.query(`UPDATE sessions SET updated_at = $1 WHERE id = ANY($2)`, [Date.now() - days * DAY, ids]);
}
async function stored(c: pg.Client): Promise<string[]> {
  return (await c.query(`SELECT id FROM sessions ORDER BY id`)).rows.map((r: { id: string }) => r.id);
}
const retentionLines = (stderr: string) => stderr.split("\n").filter((l) => l.includes("retention:"));

describe("retention on PostgreSQL (CLI)", () => {
  it("lists, then sweeps idle sessions in one warn line; keeps a pinned one and one open in another process until it is let go", async () => {
    const [gone, pinned, held, fresh] = ["gone one", "pinned one", "held one", "fresh one"].map(newSession) as [string, string, string, string];
    const c = await sql();
    await idle(c, [gone, pinned, held], 40);
    expect(pgc(["session", "pin", pinned]).code).toBe(0);
    // another process (another instance of a fleet) has `held` open: its advisory lock
    const holder = await sql();
    await holder.query(`SELECT pg_advisory_lock($1, hashtext($2))`, [SESSION_LOCK_NAMESPACE, held]);

    const exp = pgc(["sessions", "--expiring"]);
    expect(exp.code, exp.stderr).toBe(0);
    expect(exp.stdout).toMatch(new RegExp(`^${gone}\\s+\\d{4}-\\d\\d-\\d\\d\\s+${sb.project.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\s+[\\d.]+ [KM]?B\\s+database\\+ledger$`, "m"));
    for (const id of [pinned, held, fresh]) expect(exp.stdout).not.toContain(id);
    expect(exp.stdout).toContain("1 session(s), ");
    expect(exp.stdout).toContain("go at the next run's start (database.retention_days 30, ledger.retention_days 30)");
    expect(exp.stderr).toContain(`oceancode sessions: ${held} is past retention but open in process 4242 on fleet-b (since 2026-11-30T08:00:00Z): kept while it is`);
    expect(exp.stderr).toContain("oceancode sessions: 1 pinned session(s) past retention are kept");
    const json = JSON.parse(pgc(["sessions", "--expiring", "--json"]).stdout) as Array<{ id: string; stores: string[] }>;
    expect(json.map((s) => s.id)).toEqual([gone]);

    const ledgerDir = pgc(["ledger", "path", gone]).stdout.trim();
    expect(fs.existsSync(ledgerDir)).toBe(true);
    const run = pgc(["run", "--model", "scripted/echo", "a new day"]);
    expect(run.code, run.stderr).toBe(0);
    const lines = retentionLines(run.stderr);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      new RegExp(
        `^oceancode: warning: \\[storage-postgres\\] retention: removed 1 idle session \\(1 in ${sb.project.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\), freed [\\d.]+ [KM]?B, oldest last active \\d{4}-\\d\\d-\\d\\d - oceancode sessions --expiring lists the next ones, oceancode session pin <id> keeps one$`,
      ),
    );
    const now = await stored(c);
    expect(now).not.toContain(gone);
    for (const id of [pinned, held, fresh]) expect(now).toContain(id);
    expect(Number((await c.query(`SELECT count(*) AS n FROM rows WHERE session_id = $1`, [gone])).rows[0].n)).toBe(0);
    // its ledger copy went with it (the ledger joins retention on PostgreSQL too)
    expect(fs.existsSync(ledgerDir)).toBe(false);

    // a run that removes nothing says nothing
    expect(retentionLines(pgc(["run", "--model", "scripted/echo", "again"]).stderr)).toEqual([]);
    // let go: the next process's sweep removes it
    await holder.query(`SELECT pg_advisory_unlock($1, hashtext($2))`, [SESSION_LOCK_NAMESPACE, held]);
    const later = pgc(["run", "--model", "scripted/echo", "later"]);
    expect(retentionLines(later.stderr)).toHaveLength(1);
    expect(later.stderr).toContain("retention: removed 1 idle session (");
    expect(await stored(c)).not.toContain(held);
    expect(await stored(c)).toContain(pinned);
  });

  it("database.retention_days from the user config applies (0 keeps everything); a project's file is ignored with a warning", async () => {
    const id = newSession("old");
    const c = await sql();
    await idle(c, [id], 10);
    globalConfig(sb, { extensions: { replace: { storage: "storage-postgres" } }, database: { retention_days: 0 }, ledger: { retention_days: 0 } });
    sb.write(path.join(".oceancode", "oceancode.json"), JSON.stringify({ database: { retention_days: 1 } }));
    const keep = pgc(["run", "--model", "scripted/echo", "kept"]);
    expect(keep.code, keep.stderr).toBe(0);
    expect(keep.stderr).toContain("database.retention_days ignored: retention is one policy for every project, so it is read from the user config only");
    expect(retentionLines(keep.stderr).filter((l) => l.includes("removed"))).toEqual([]);
    expect(await stored(c)).toContain(id);
    fs.rmSync(path.join(sb.project, ".oceancode"), { recursive: true });
    globalConfig(sb, { extensions: { replace: { storage: "storage-postgres" } }, database: { retention_days: 7 } });
    const exp = pgc(["sessions", "--expiring"]);
    expect(exp.stdout).toContain(id);
    expect(exp.stdout).toContain("(database.retention_days 7, ledger.retention_days 30)");
    const swept = pgc(["run", "--model", "scripted/echo", "swept"]);
    expect(swept.stderr).toContain("retention: removed 1 idle session (");
    expect(await stored(c)).not.toContain(id);
  });

  it("two processes starting at once sweep the same idle sessions: each is removed once", async () => {
    const ids = ["one", "two", "three", "four"].map(newSession);
    const c = await sql();
    await idle(c, ids, 40);
    const env = { ...sb.env, OC_DATABASE_URL: url, OC_RETRY_BASE_MS: "1" };
    const runs = await Promise.all(["a", "b"].map((q) => runCliAsync(["--dir", sb.project, "run", "--model", "scripted/echo", q], { cwd: sb.project, env })));
    let removed = 0;
    for (const r of runs) {
      expect(r.code, r.stderr).toBe(0);
      const lines = retentionLines(r.stderr);
      expect(lines.length).toBeLessThanOrEqual(1);
      for (const l of lines) removed += Number(/removed (\d+) idle session/.exec(l)![1]);
    }
    expect(removed).toBe(ids.length);
    const left = await stored(c);
    for (const id of ids) expect(left).not.toContain(id);
  });
});

describe("retention on PostgreSQL (two stores sweeping one database at once)", () => {
  it("every idle session is removed by exactly one sweeper; a session open in one store is kept by both", async () => {
    const stores = [0, 1].map(() => new PgStore({ url, onError: () => undefined }));
    try {
      const c = await sql();
      await stores[0]!.migrateNow();
      const ids = Array.from({ length: 24 }, (_v, i) => `ses_sweep_${String(i).padStart(2, "0")}`);
      for (const id of ids) {
        await c.query(`INSERT INTO sessions (id, cwd, model, created_at, updated_at) VALUES ($1, '/p', 'm/x', 0, $2)`, [id, Date.now() - 40 * DAY]);
        await c.query(`INSERT INTO rows (session_id, seq, turn, step, role, json) VALUES ($1, 1, 1, 0, 'user', '{"role":"user","text":"hi"}')`, [id]);
      }
      // one is open in the first store's process (its claim): neither sweeper removes it
      const claim = await stores[0]!.claim(ids[5]!, false);
      expect("release" in claim).toBe(true);
      const reports: SweepReport[] = await Promise.all(stores.map((s) => sweepRetention(pgRetention(s), { dbDays: 30, participants: [] })));
      const removed = reports.flatMap((r) => r.removed.map((s) => s.id));
      expect(new Set(removed).size).toBe(removed.length);
      expect(removed.sort()).toEqual(ids.filter((id) => id !== ids[5]).sort());
      expect(await stored(c)).toEqual([ids[5]]);
      for (const r of reports) expect(r.busy.map((b) => b.id)).toContain(ids[5]);
      if ("release" in claim) await claim.release();
    } finally {
      for (const s of stores) await s.close();
    }
  });
});

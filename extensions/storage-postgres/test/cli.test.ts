/**
 * storage-postgres through the compiled CLI, selected with extensions.replace in the user config and the
 * URL from $OC_DATABASE_URL, on a real PostgreSQL: `run`, `run --continue`, `sessions`, `export --md`,
 * `migrate`, `doctor --storage`, one process per session across processes, and `storage copy` from an
 * oceancode.db made by a real run (counts; a second copy skips everything).
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import Database from "better-sqlite3";
import path from "node:path";
import pg from "pg";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { CLI, makeSandbox, runCliAsync, type Sandbox } from "../../../test/kit/cli.js";
import { globalConfig, oc } from "../../../test/sdk/helpers.js";
import { startPostgres, type TestPostgres } from "../../../test/kit/postgres.js";

let server: TestPostgres;
let sb: Sandbox;
let url: string;
let n = 0;
beforeAll(async () => {
  server = await startPostgres();
});
afterAll(() => server?.stop());
beforeEach(async () => {
  sb = makeSandbox("oc-pg-cli-");
  url = await server.createDatabase(`cli_${process.pid}_${++n}`);
  globalConfig(sb, { extensions: { replace: { storage: "storage-postgres" } } });
});
afterEach(() => sb.cleanup());

const dataDir = () => path.join(sb.env.XDG_DATA_HOME!, "oceancode");
const pgc = (args: string[], env: NodeJS.ProcessEnv = {}) => oc(sb, args, { OC_DATABASE_URL: url, ...env });
const list = () => JSON.parse(pgc(["sessions", "--json"]).stdout) as Array<{ id: string; turns: number; cwd: string; model: string }>;
const redacted = () => url.replace(`:${encodeURIComponent(server.password)}@`, ":***@");

describe("storage-postgres as the storage provider (CLI)", () => {
  it("run, --continue, sessions and export --md read and write PostgreSQL; no oceancode.db appears", () => {
    const first = pgc(["run", "--model", "scripted/echo", "first question"]);
    expect(first.code, first.stderr).toBe(0);
    const id = /session: (\S+)/.exec(first.stderr)![1]!;
    expect(fs.existsSync(path.join(dataDir(), "oceancode.db"))).toBe(false);
    const table = pgc(["sessions"]);
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(new RegExp(`^${id}\\s+\\S+ \\S+\\s+1\\s+scripted/echo\\s+first question$`, "m"));
    const second = pgc(["run", "--continue", "--model", "scripted/echo", "second question"]);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stderr).toContain(`session: ${id}`);
    expect(list()).toMatchObject([{ id, turns: 2, cwd: sb.project, model: "scripted/echo" }]);
    const md = pgc(["export", "--md", id]);
    expect(md.code, md.stderr).toBe(0);
    expect(md.stdout).toContain("first question");
    expect(md.stdout).toContain("ok: second question");
  });

  it("migrate applies the schema once and says so; doctor --storage names the database redacted", () => {
    const m = pgc(["migrate"]);
    expect(m.code, m.stderr).toBe(0);
    expect(m.stdout).toContain(`${redacted()}: schema v0 -> v3`);
    expect(m.stdout).toContain("MIGRATE_OK version=3 applied=3");
    const again = pgc(["migrate"]);
    expect(again.stdout).toContain("MIGRATE_OK version=3 applied=0");
    expect(pgc(["run", "--model", "scripted/echo", "hi"]).code).toBe(0);
    const d = pgc(["doctor", "--storage"]);
    expect(d.code, d.stdout + d.stderr).toBe(0);
    expect(d.stdout).toMatch(new RegExp(`ok   storage ${redacted().replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}: PostgreSQL 15\\.\\d+[^,]*, TLS off, schema v3, 1 session\\(s\\)`));
    expect(d.stdout.trim().split("\n").at(-1)).toBe("DOCTOR_OK");
  });

  it("without a URL a run says how to set one and fails at its claim; doctor FAILs when the server is not there", () => {
    const r = oc(sb, ["run", "--model", "scripted/echo", "hi"]);
    expect(r.code).not.toBe(0); // the engine's fail-closed session claim cannot be answered
    expect(r.stderr).toContain("storage-postgres: no database URL: set storage.url in the user config");
    const d = pgc(["doctor", "--storage"], { OC_DATABASE_URL: `postgres://postgres:${server.password}@127.0.0.1:1/x` });
    expect(d.stdout).toMatch(/FAIL storage postgres:\/\/postgres:\*\*\*@127\.0\.0\.1:1\/x: cannot connect \(.*ECONNREFUSED.*\)/);
  });

  it("a second process on an open session is refused (session busy, exit 2), as with SQLite; --wait takes its turn", async () => {
    sb.write("s.json", JSON.stringify({ steps: [{ text: "first" }, { text: "slow answer", delay_ms: 2500 }] }));
    const env = { ...sb.env, OC_DATABASE_URL: url };
    const cli = (...a: string[]) => runCliAsync(["--dir", sb.project, "run", ...a], { env });
    expect((await cli("--model", "scripted/s.json", "one")).code).toBe(0);
    const slow = cli("-c", "two");
    await new Promise((r) => setTimeout(r, 1500));
    const refused = await cli("-c", "three");
    expect(refused.code, refused.stderr).toBe(2);
    expect(refused.stderr).toMatch(/session ses_\w+ is open in process \d+ on \S+ \(since [0-9T:-]+Z\); close it there, or pass --wait/);
    const waited = await cli("-c", "--wait", "four");
    expect(waited.code, waited.stderr).toBe(0);
    expect((await slow).code).toBe(0);
    const id = list()[0]!.id;
    const exp = pgc(["export", "--md", "--out", "-", id]).stdout;
    expect(exp).toContain("two");
    expect(exp).not.toContain("three");
    expect(exp).toContain("four");
  });

  it("storage copy moves an oceancode.db made by real runs (sessions, rows, events, pins); a second copy skips everything; a third resumes", async () => {
    // two sessions stored by the bundled SQLite store, one pinned
    globalConfig(sb, {});
    expect(oc(sb, ["run", "--model", "scripted/echo", "sqlite one"]).code).toBe(0);
    expect(oc(sb, ["run", "--continue", "--model", "scripted/echo", "sqlite two"]).code).toBe(0);
    expect(oc(sb, ["run", "--model", "scripted/echo", "sqlite three"]).code).toBe(0);
    const before = JSON.parse(oc(sb, ["sessions", "--json"]).stdout) as Array<{ id: string; turns: number }>;
    expect(before).toHaveLength(2);
    expect(oc(sb, ["session", "pin", before[1]!.id]).code).toBe(0);
    const db = path.join(dataDir(), "oceancode.db");
    // the bundled store has no copy: it says where it is
    const hint = oc(sb, ["storage", "copy", "--from", db]);
    expect(hint.code).toBe(2);
    expect(hint.stderr).toContain('storage copy belongs to storage-postgres: select it with extensions.replace {"storage": "storage-postgres"}');
    globalConfig(sb, { extensions: { replace: { storage: "storage-postgres" } } });
    const first = pgc(["storage", "copy", "--from", db]);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain(`copying ${db} -> ${redacted()}`);
    const counts = /STORAGE_COPIED sessions=(\d+) rows=(\d+) events=(\d+) skipped=(\d+)/.exec(first.stdout)!;
    expect(Number(counts[1])).toBe(2);
    expect(Number(counts[2])).toBe(6); // (user + assistant) x 3 turns
    expect(Number(counts[4])).toBe(0);
    expect(first.stdout).toContain("pins: 1 copied");
    const total = Number(counts[1]) + Number(counts[2]) + Number(counts[3]) + 1;
    const second = pgc(["storage", "copy", "--from", db, "--to", url]);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).toContain(`STORAGE_COPIED sessions=0 rows=0 events=0 skipped=${total}`);
    // the copied history is what PostgreSQL serves now: listed (with the pin), exported, resumed
    const after = list() as Array<{ id: string; turns: number; pinned?: boolean }>;
    expect(after.map((s) => [s.id, s.turns])).toEqual(before.map((s) => [s.id, s.turns]));
    expect(after[1]!.pinned).toBe(true);
    const resumed = pgc(["run", "--session", before[1]!.id, "--model", "scripted/echo", "in postgres now"]);
    expect(resumed.code, resumed.stderr).toBe(0);
    const md = pgc(["export", "--md", "--out", "-", before[1]!.id]).stdout;
    for (const w of ["sqlite one", "sqlite two", "in postgres now"]) expect(md).toContain(w);
    expect(pgc(["storage", "copy", "--from", path.join(sb.project, "nope.db")]).code).toBe(1);
    // resumable: a session that had not gone over yet (as after an interrupted copy) goes now, the rest is skipped
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`DELETE FROM sessions WHERE id = $1`, [before[0]!.id]);
    await admin.end();
    const third = pgc(["storage", "copy", "--from", db]);
    expect(third.stdout).toMatch(/STORAGE_COPIED sessions=1 rows=2 events=\d+ skipped=\d+/);
    expect(list().map((s) => s.id).sort()).toEqual(before.map((s) => s.id).sort());
  });

  it("session pin, unpin and fork work against PostgreSQL as against oceancode.db", () => {
    const first = pgc(["run", "--model", "scripted/echo", "one"]);
    const id = /session: (\S+)/.exec(first.stderr)![1]!;
    expect(pgc(["run", "--continue", "--model", "scripted/echo", "two"]).code).toBe(0);
    const pinned = pgc(["session", "pin", id]);
    expect(pinned.code, pinned.stderr).toBe(0);
    expect(pinned.stdout).toContain(`pinned ${id}: retention keeps it`);
    expect(pgc(["session", "pin", id]).stdout).toContain(`${id} is already pinned`);
    expect((list() as Array<{ id: string; pinned?: boolean }>)[0]).toMatchObject({ id, pinned: true });
    const unknown = pgc(["session", "pin", "ses_nope"]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain(`no session 'ses_nope' in ${redacted()}`);
    expect(pgc(["session", "unpin", id]).stdout).toContain(`unpinned ${id}`);
    expect((list() as Array<{ id: string; pinned?: boolean }>)[0]!.pinned ?? false).toBe(false);

    const forked = pgc(["session", "fork", id, "--at", "turn:1", "--json"]);
    expect(forked.code, forked.stderr).toBe(0);
    const f = JSON.parse(forked.stdout) as { id: string; from: string; rows: number; turns: number };
    expect(f).toMatchObject({ from: id, turns: 1, rows: 2 });
    const md = pgc(["export", "--md", "--out", "-", f.id]).stdout;
    expect(md).toContain("one");
    expect(md).not.toContain("two");
    const cont = pgc(["run", "--session", f.id, "--model", "scripted/echo", "three"]);
    expect(cont.code, cont.stderr).toBe(0);
    expect(list().find((s) => s.id === f.id)?.turns).toBe(2);
  });

  it("storage copy killed with SIGKILL mid-copy keeps every session it committed whole; run again, it copies the rest and skips what is there", async () => {
    globalConfig(sb, {});
    expect(oc(sb, ["run", "--model", "scripted/echo", "the seed session"]).code).toBe(0);
    const db = path.join(dataDir(), "oceancode.db");
    // a long history in the real file format: the seed session cloned 3,000 times, 10 rows each
    const lite = new Database(db);
    const seed = lite.prepare("SELECT * FROM sessions").get() as Record<string, unknown>;
    const seedRows = lite.prepare("SELECT * FROM rows WHERE session_id = ?").all(seed.id) as Array<Record<string, unknown>>;
    const addSession = lite.prepare("INSERT INTO sessions (id, parent_id, cwd, model, title, created_at, updated_at, overrides, totals) VALUES (?, NULL, ?, ?, ?, ?, ?, ?, ?)");
    const addRow = lite.prepare("INSERT INTO rows (session_id, seq, turn, step, role, json) VALUES (?, ?, ?, ?, ?, ?)");
    lite.transaction(() => {
      for (let i = 0; i < 3000; i++) {
        const id = `ses_clone_${String(i).padStart(5, "0")}`;
        addSession.run(id, seed.cwd, seed.model, `clone ${i}`, Number(seed.created_at) + i, Number(seed.updated_at) + i, seed.overrides, seed.totals);
        for (let k = 0; k < 5; k++) for (const [j, r] of seedRows.entries()) addRow.run(id, k * seedRows.length + j + 1, k + 1, 1, r.role, r.json);
      }
    })();
    lite.close();
    globalConfig(sb, { extensions: { replace: { storage: "storage-postgres" } } });

    const child = spawn(process.execPath, [CLI, "--dir", sb.project, "storage", "copy", "--from", db], { cwd: sb.project, env: { ...sb.env, OC_DATABASE_URL: url }, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    const exited = new Promise<number | null>((r) => child.on("exit", (code, sig) => r(code ?? (sig ? -1 : null))));
    await new Promise<void>((resolve, reject) => {
      child.stdout!.on("data", (d: Buffer) => {
        out += d.toString();
        if (/copied \d+\/3001 sessions/.test(out)) resolve();
      });
      void exited.then(() => reject(new Error(`the copy ended before saying its progress (make the history longer):\n${out}`)));
    });
    child.kill("SIGKILL");
    expect(await exited).toBe(-1);
    expect(out).not.toContain("STORAGE_COPIED");
    const said = Number(/copied (\d+)\/3001/.exec(out)![1]);

    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      const partial = Number((await admin.query("SELECT count(*) AS n FROM sessions")).rows[0].n);
      expect(partial).toBeGreaterThanOrEqual(said);
      expect(partial).toBeLessThan(3001);
      // each session that is there is there whole (one transaction each): 10 rows for a clone
      const torn = await admin.query("SELECT s.id, count(r.seq) AS n FROM sessions s LEFT JOIN rows r ON r.session_id = s.id WHERE s.id LIKE 'ses_clone_%' GROUP BY s.id HAVING count(r.seq) <> $1", [5 * seedRows.length]);
      expect(torn.rows).toEqual([]);
      const again = pgc(["storage", "copy", "--from", db]);
      expect(again.code, again.stderr).toBe(0);
      const m = /STORAGE_COPIED sessions=(\d+) rows=(\d+) events=\d+ skipped=(\d+)/.exec(again.stdout)!;
      expect(Number(m[1])).toBe(3001 - partial);
      expect(Number((await admin.query("SELECT count(*) AS n FROM sessions")).rows[0].n)).toBe(3001);
      expect(Number((await admin.query("SELECT count(*) AS n FROM rows")).rows[0].n)).toBe(3000 * 5 * seedRows.length + seedRows.length);
    } finally {
      await admin.end();
    }
  }, 120_000);
});

/**
 * Retention through the compiled CLI: sessions in two projects written by real `oceancode run`
 * processes, aged by rewriting `updated_at` in oceancode.db (and file times for a ledger the database
 * no longer knows), one pinned, one held open by another process's session lock.
 */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { CLI, makeSandbox, runCli, REPO_ROOT } from "../../../test/kit/cli.js";
import { hasTmux, startPty } from "../../../test/kit/pty.js";
import { day, formatBytes } from "../retention.js";
import { withDatabase } from "../../../test/kit/stored.js";

const DAY = 86_400_000;
const sb = makeSandbox("oc-retention-");
const other = path.join(sb.home, "other-project");
const dataDir = path.join(sb.home, ".local", "share", "oceancode");
const snapshot = path.join(sb.home, "snapshot");
const dbFile = path.join(dataDir, "oceancode.db");
const userConfig = path.join(sb.home, ".config", "oceancode", "oceancode.json");
const ledgerOf = (id: string) => path.join(dataDir, "session-ledger", id);

const cli = (args: string[], cwd = sb.project) => runCli(["--dir", cwd, ...args], { cwd, env: sb.env });

function runSession(cwd: string, prompt: string, ...flags: string[]): { id: string; stderr: string } {
  const r = cli(["run", "--model", "scripted/echo", ...flags, prompt], cwd);
  expect(r.code, r.stderr).toBe(0);
  const id = /^session: (\S+)/m.exec(r.stderr)?.[1];
  expect(id).toBeTruthy();
  return { id: id!, stderr: r.stderr };
}

const sql = <T>(f: (db: Database.Database) => T): T => withDatabase(dbFile, f);

const age = (id: string, days: number) => sql((db) => db.prepare(`UPDATE sessions SET updated_at = ? WHERE id = ?`).run(Date.now() - days * DAY, id));
const inDb = (id: string) => sql((db) => db.prepare(`SELECT 1 FROM sessions WHERE id = ?`).get(id) !== undefined);

function ageLedger(id: string, days: number): void {
  const t = new Date(Date.now() - days * DAY);
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      fs.utimesSync(p, t, t);
    }
  };
  walk(ledgerOf(id));
}

const retentionLines = (stderr: string) => stderr.split("\n").filter((l) => l.includes("retention:"));

// a child process holding one session's lock, as an oceancode process with the session open does
const LOCK_JS = path.join(REPO_ROOT, "dist", "extensions", "storage", "lock.js");
const holders: ChildProcess[] = [];
function holdLock(id: string): Promise<ChildProcess> {
  const code = `import { acquireSessionLock } from ${JSON.stringify(LOCK_JS)};
    await acquireSessionLock(${JSON.stringify(dbFile)}, ${JSON.stringify(id)});
    process.stdout.write("held\\n");
    setInterval(() => {}, 1000);`;
  const child = spawn(process.execPath, ["--input-type=module", "-e", code], { stdio: ["ignore", "pipe", "inherit"] });
  holders.push(child);
  return new Promise((resolve, reject) => {
    child.stdout!.on("data", (d: Buffer) => d.toString().includes("held") && resolve(child));
    child.on("exit", (c) => reject(new Error(`lock holder exited ${c}`)));
  });
}
async function release(child: ChildProcess): Promise<void> {
  const gone = new Promise((r) => child.once("exit", r));
  child.kill("SIGKILL");
  await gone;
}

// s: sessions by role. p1 = sb.project, p2 = other
const s: Record<"old1" | "pinned1" | "young1" | "old2" | "open2" | "ledgerOnly2" | "fresh2", string> = {
  old1: "",
  pinned1: "",
  young1: "",
  old2: "",
  open2: "",
  ledgerOnly2: "",
  fresh2: "",
};

beforeAll(() => {
  fs.mkdirSync(other, { recursive: true });
  for (const k of ["old1", "pinned1", "young1"] as const) s[k] = runSession(sb.project, `task ${k}`).id;
  for (const k of ["old2", "open2", "ledgerOnly2", "fresh2"] as const) s[k] = runSession(other, `task ${k}`).id;
  fs.cpSync(dataDir, snapshot, { recursive: true });
});
beforeEach(() => {
  // every test starts from the same seven sessions, unaged, with no config
  // maxRetries: a holder the last test released may still be closing its ledger files (ENOTEMPTY under load)
  fs.rmSync(dataDir, { recursive: true, force: true, maxRetries: 10, retryDelay: 50 });
  fs.cpSync(snapshot, dataDir, { recursive: true });
  fs.rmSync(userConfig, { force: true });
  fs.rmSync(path.join(sb.project, ".oceancode"), { recursive: true, force: true });
});
afterEach(async () => {
  for (const c of holders.splice(0)) await release(c);
});
afterAll(() => sb.cleanup());

/** The scene of the issue: old sessions in two projects, one pinned, one open elsewhere, one only in the ledger. */
function ageTheScene(): void {
  age(s.old1, 40);
  age(s.pinned1, 45);
  age(s.young1, 10);
  age(s.old2, 35);
  age(s.open2, 50);
  sql((db) => db.prepare(`DELETE FROM sessions WHERE id = ?`).run(s.ledgerOnly2));
  ageLedger(s.ledgerOnly2, 60);
  expect(cli(["session", "pin", s.pinned1]).code).toBe(0);
}

interface Expiring {
  id: string;
  cwd?: string;
  lastActive: number;
  bytes: number;
  stores: string[];
}
const expiringJson = (): Expiring[] => {
  const r = cli(["sessions", "--expiring", "--json"]);
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout) as Expiring[];
};

describe("the retention sweep", () => {
  it("removes exactly the idle, unpinned, unopened sessions of every project, in one line; the next run says nothing", async () => {
    ageTheScene();
    await holdLock(s.open2);

    // what the next sweep removes: oldest first, each with its project and size
    const list = cli(["sessions", "--expiring"]);
    expect(list.code).toBe(0);
    const rows = list.stdout.trim().split("\n");
    expect(rows[0]).toMatch(/^ID\s+LAST ACTIVE\s+PROJECT\s+SIZE\s+REMOVES$/);
    expect(rows.slice(1, 4).map((l) => l.split(/\s+/)[0])).toEqual([s.ledgerOnly2, s.old1, s.old2]);
    expect(rows[1]).toMatch(new RegExp(`^${s.ledgerOnly2}\\s+${day(Date.now() - 60 * DAY)}\\s+${other}\\s+[\\d.]+ KB\\s+ledger$`));
    expect(rows[2]).toMatch(new RegExp(`^${s.old1}\\s+${day(Date.now() - 40 * DAY)}\\s+${sb.project}\\s+[\\d.]+ KB\\s+database\\+ledger$`));
    expect(rows[4]).toMatch(/^3 session\(s\), [\d.]+ KB, go at the next run's start \(database.retention_days 30, ledger.retention_days 30\)/);
    expect(list.stderr).toContain(`${s.open2} is past retention but open in process`);
    expect(list.stderr).toContain("1 pinned session(s) past retention are kept");
    const planned = expiringJson();
    expect(planned.map((e) => e.id)).toEqual([s.ledgerOnly2, s.old1, s.old2]);

    const run = runSession(sb.project, "a new task");
    const lines = retentionLines(run.stderr);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toBe(
      `oceancode: warning: [storage] retention: removed 3 idle sessions (2 in ${other}, 1 in ${sb.project}), ` +
        `freed ${formatBytes(planned.reduce((n, e) => n + e.bytes, 0))}, oldest last active ${day(Date.now() - 60 * DAY)} ` +
        `- oceancode sessions --expiring lists the next ones, oceancode session pin <id> keeps one`,
    );
    for (const id of [s.old1, s.old2, s.ledgerOnly2]) {
      expect(inDb(id), id).toBe(false);
      expect(fs.existsSync(ledgerOf(id)), id).toBe(false);
    }
    for (const id of [s.pinned1, s.young1, s.open2, s.fresh2, run.id]) {
      expect(inDb(id), id).toBe(true);
      expect(fs.existsSync(ledgerOf(id)), id).toBe(true);
    }

    // nothing left to remove: silence
    const again = runSession(other, "another task");
    expect(retentionLines(again.stderr)).toEqual([]);
    expect(expiringJson()).toEqual([]);

    // the other process lets go: the open session is next, and goes at the following run
    await release(holders.pop()!);
    expect(expiringJson().map((e) => e.id)).toEqual([s.open2]);
    const third = runSession(other, "third task");
    expect(retentionLines(third.stderr)).toEqual([expect.stringContaining(`removed 1 idle session (1 in ${other}),`)]);
    expect(inDb(s.open2)).toBe(false);
  });

  it("never removes the session a run resumes, however old", () => {
    age(s.old1, 40);
    age(s.old2, 40);
    const r = runSession(sb.project, "picking it up again", "--session", s.old1);
    expect(r.id).toBe(s.old1);
    expect(retentionLines(r.stderr)).toEqual([expect.stringContaining(`removed 1 idle session (1 in ${other}),`)]);
    expect(inDb(s.old1)).toBe(true);
    expect(fs.existsSync(ledgerOf(s.old1))).toBe(true);
    expect(inDb(s.old2)).toBe(false);
  });

  it("0 keeps everything: nothing expires and nothing is said", () => {
    fs.mkdirSync(path.dirname(userConfig), { recursive: true });
    fs.writeFileSync(userConfig, JSON.stringify({ database: { retention_days: 0 }, ledger: { retention_days: 0 } }));
    ageTheScene();
    const list = cli(["sessions", "--expiring"]);
    expect(list.code).toBe(0);
    expect(list.stdout).toBe("nothing expires: no session is idle past retention (database.retention_days 0, ledger.retention_days 0)\n");
    const r = runSession(sb.project, "a new task");
    expect(retentionLines(r.stderr)).toEqual([]);
    for (const id of [s.old1, s.old2, s.open2, s.pinned1]) expect(inDb(id)).toBe(true);
    expect(fs.existsSync(ledgerOf(s.ledgerOnly2))).toBe(true);
  });

  it("a project's config cannot set retention for every project: ignored, with one warning", () => {
    sb.write(".oceancode/oceancode.json", JSON.stringify({ database: { retention_days: 1 } }));
    age(s.old2, 5);
    const r = runSession(sb.project, "a new task");
    const warn = r.stderr.split("\n").filter((l) => l.includes("database.retention_days ignored"));
    expect(warn).toEqual([`oceancode: warning: [storage] ${path.join(sb.project, ".oceancode", "oceancode.json")}: database.retention_days ignored: retention is one policy for every project, so it is read from the user config only`]);
    expect(retentionLines(r.stderr)).toEqual([]);
    expect(inDb(s.old2)).toBe(true);
  });
});

describe("oceancode session pin / unpin", () => {
  it("pins durably in the database, shows the pin in sessions, and hands the session back to retention on unpin", () => {
    age(s.old1, 40);
    expect(expiringJson().map((e) => e.id)).toEqual([s.old1]);

    const p = cli(["session", "pin", s.old1]);
    expect(p).toMatchObject({ code: 0, stdout: `pinned ${s.old1}: retention keeps it until oceancode session unpin ${s.old1}\n` });
    expect(cli(["session", "pin", s.old1]).stdout).toBe(`${s.old1} is already pinned\n`);
    expect(sql((db) => db.prepare(`SELECT session_id FROM pins`).all())).toEqual([{ session_id: s.old1 }]);
    const listed = cli(["sessions"]).stdout.split("\n");
    expect(listed[0]).toMatch(/^ID\s+PIN\s+UPDATED/);
    expect(listed.find((l) => l.startsWith(s.old1))).toMatch(new RegExp(`^${s.old1}\\s+\\*\\s+\\d{4}-`));
    expect(listed.find((l) => l.startsWith(s.young1))).toMatch(new RegExp(`^${s.young1}\\s+\\d{4}-`));
    expect((JSON.parse(cli(["sessions", "--json"]).stdout) as Array<{ id: string; pinned?: boolean }>).find((x) => x.id === s.old1)?.pinned).toBe(true);
    expect(expiringJson()).toEqual([]);
    expect(retentionLines(runSession(sb.project, "a new task").stderr)).toEqual([]);
    expect(inDb(s.old1)).toBe(true);

    const u = cli(["session", "unpin", s.old1]);
    expect(u.code).toBe(0);
    expect(u.stdout).toContain(`unpinned ${s.old1}`);
    expect(cli(["session", "unpin", s.old1]).stdout).toBe(`${s.old1} was not pinned\n`);
    expect(expiringJson().map((e) => e.id)).toEqual([s.old1]);
  });

  it("pins a session only its ledger still holds; refuses an unknown one (exit 1) and bad usage (exit 2)", () => {
    sql((db) => db.prepare(`DELETE FROM sessions WHERE id = ?`).run(s.ledgerOnly2));
    ageLedger(s.ledgerOnly2, 60);
    expect(cli(["session", "pin", s.ledgerOnly2]).code).toBe(0);
    expect(retentionLines(runSession(other, "a new task").stderr)).toEqual([]);
    expect(fs.existsSync(ledgerOf(s.ledgerOnly2))).toBe(true);

    const unknown = cli(["session", "pin", "ses_nosuchsession"]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("no session 'ses_nosuchsession'");
    for (const args of [["session"], ["session", "pin"], ["session", "keep", s.old1], ["session", "pin", "a", "b"], ["session", "pin", "../x"], ["session", "pin", "--bogus", "x"]]) {
      const r = cli(args);
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.stderr).toContain("usage: oceancode session pin <session-id>");
    }
  });
});

describe.skipIf(!hasTmux())("the sweep in Ocean pager", () => {
  it("shows the one line as a notice in the transcript (the pager owns the terminal), then the session starts", async () => {
    age(s.old2, 40);
    const t = startPty({ args: [CLI, "--dir", sb.project], env: { ...sb.env, OC_MODEL: "scripted/echo" }, cwd: sb.project, cols: 220, rows: 30 });
    try {
      const screen = await t.waitFor("retention: removed 1 idle session", 30_000);
      expect(screen).toContain(`(1 in ${other}), freed`);
      await t.waitFor("❯");
      expect(inDb(s.old2)).toBe(false);
    } finally {
      t.close();
    }
  });
});

import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SqliteStore } from "../store.js";
import { LATEST_VERSION, MIGRATIONS } from "../migrations.js";
import { openDb } from "../db.js";
import { makeSandbox, runCli, type Sandbox } from "../../../test/kit/cli.js";
import { tempDir } from "./helpers.js";

/** The v1 schema exactly as the first release wrote it, by hand (not through our migration code). */
function writeV1(file: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const db = new Database(file);
  db.pragma("journal_mode = WAL");
  db.exec(`
    CREATE TABLE sessions (id TEXT PRIMARY KEY, parent_id TEXT, cwd TEXT NOT NULL, model TEXT NOT NULL, title TEXT,
      created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL, overrides TEXT NOT NULL DEFAULT '{}', totals TEXT NOT NULL DEFAULT '{}');
    CREATE TABLE rows (session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE, seq INTEGER NOT NULL, turn INTEGER NOT NULL,
      step INTEGER NOT NULL, role TEXT NOT NULL, json TEXT NOT NULL, PRIMARY KEY (session_id, seq)) WITHOUT ROWID;
    CREATE TABLE events (session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE, seq INTEGER NOT NULL, at INTEGER NOT NULL,
      kind TEXT NOT NULL, json TEXT NOT NULL, PRIMARY KEY (session_id, seq)) WITHOUT ROWID;
    INSERT INTO sessions VALUES ('old1', NULL, '/p', 'scripted/echo', 'from v1', 1000, 2000, '{}', '{"turns":1,"steps":1}');
    INSERT INTO rows VALUES ('old1', 1, 1, 0, 'user', '{"role":"user","text":"hello","turn":1,"step":0,"at":1000,"seq":1}');
    PRAGMA user_version = 1;
  `);
  db.close();
}

function indexes(file: string): string[] {
  const db = new Database(file, { readonly: true });
  const names = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND name NOT LIKE 'sqlite_%' ORDER BY name").all() as Array<{ name: string }>).map((r) => r.name);
  db.close();
  return names;
}

let tmp: ReturnType<typeof tempDir>;
let file: string;
beforeEach(() => {
  tmp = tempDir();
  file = path.join(tmp.dir, "oceancode.db");
});
afterEach(() => tmp.cleanup());

describe("migrations", () => {
  it("are numbered 1..N with no gap", () => {
    expect(MIGRATIONS.map((m) => m.version)).toEqual(Array.from({ length: LATEST_VERSION }, (_, i) => i + 1));
  });

  it("a fresh file gets every migration", () => {
    const o = openDb(file);
    expect(o.migration).toMatchObject({ from: 0, to: LATEST_VERSION });
    expect(o.migration.applied.map((a) => a.version)).toEqual(MIGRATIONS.map((m) => m.version));
    o.db.close();
  });

  it("opening a v1 database migrates it automatically and keeps its data", async () => {
    writeV1(file);
    expect(indexes(file)).toEqual([]);
    const info: string[] = [];
    const store = new SqliteStore({ file, onError: (m) => info.push(m), onInfo: (m) => info.push(m) });
    const s = await store.loadSession("old1");
    store.close();
    expect(s?.info.title).toBe("from v1");
    expect(s?.rows).toEqual([{ role: "user", text: "hello", turn: 1, step: 0, at: 1000, seq: 1 }]);
    expect(info).toEqual([`${file}: migrated schema v1 -> v${LATEST_VERSION}`]);
    const db = new Database(file, { readonly: true });
    expect(db.pragma("user_version", { simple: true })).toBe(LATEST_VERSION);
    db.close();
    expect(indexes(file)).toEqual(["events_kind", "sessions_cwd_updated", "sessions_updated"]);
  });

  it("a database from a newer oceancode is refused with a clear message and left untouched", async () => {
    writeV1(file);
    const db = new Database(file);
    db.pragma(`user_version = ${LATEST_VERSION + 7}`);
    db.close();
    const before = fs.readFileSync(file);
    expect(() => openDb(file)).toThrow(`${file}: database schema version ${LATEST_VERSION + 7} is newer than this oceancode understands (up to ${LATEST_VERSION}); upgrade oceancode, or point --db / OC_DB at another file`);
    const errors: string[] = [];
    const store = new SqliteStore({ file, onError: (m) => errors.push(m) });
    await expect(store.listSessions()).rejects.toThrow(/newer than this oceancode/);
    store.close();
    expect(fs.readFileSync(file).equals(before)).toBe(true);
  });
});

describe("oceancode migrate (real CLI)", () => {
  let sb: Sandbox;
  beforeEach(() => {
    sb = makeSandbox();
  });
  afterEach(() => sb.cleanup());

  it("applies pending migrations to --db and says what it did; a second run has nothing to do", () => {
    writeV1(file);
    const r = runCli(["migrate", "--db", file], { cwd: sb.project, env: sb.env });
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`${file}: schema v1 -> v${LATEST_VERSION}`);
    expect(r.stdout).toContain("applied 2: indexes for listing");
    expect(r.stdout).toMatch(new RegExp(`MIGRATE_OK version=${LATEST_VERSION} applied=${LATEST_VERSION - 1}\\n$`));
    const again = runCli(["--db", file, "migrate"], { cwd: sb.project, env: sb.env });
    expect(again.code).toBe(0);
    expect(again.stdout).toContain(`MIGRATE_OK version=${LATEST_VERSION} applied=0`);
  });

  it("creates the default database in the data dir when there is none", () => {
    const r = runCli(["migrate"], { cwd: sb.project, env: sb.env });
    expect(r.code).toBe(0);
    const def = path.join(sb.home, ".local", "share", "oceancode", "oceancode.db");
    expect(r.stdout).toContain(`${def}: schema v0 -> v${LATEST_VERSION}`);
    expect(fs.existsSync(def)).toBe(true);
  });

  it("refuses a newer database with one line and exit 1; bad usage exits 2", () => {
    writeV1(file);
    const db = new Database(file);
    db.pragma("user_version = 99");
    db.close();
    const r = runCli(["migrate", "--db", file], { cwd: sb.project, env: sb.env });
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split("\n")).toEqual([`oceancode migrate: ${file}: database schema version 99 is newer than this oceancode understands (up to ${LATEST_VERSION}); upgrade oceancode, or point --db / OC_DB at another file`]);
    const bad = runCli(["migrate", "--frobnicate"], { cwd: sb.project, env: sb.env });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("usage: oceancode migrate [--db <path>]");
  });
});

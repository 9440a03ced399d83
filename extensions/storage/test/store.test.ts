import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SqliteStore } from "../store.js";
import { LATEST_VERSION } from "../migrations.js";
import { pin, unpin } from "../pins.js";
import { newSession, step, tempDir } from "./helpers.js";

let tmp: ReturnType<typeof tempDir>;
let file: string;
let errors: string[];
const stores: SqliteStore[] = [];
function open(extra: { maxBatch?: number; retryMs?: number[] } = {}): SqliteStore {
  const s = new SqliteStore({ file, onError: (m) => errors.push(m), ...extra });
  stores.push(s);
  return s;
}
/** A second, independent connection: what another process would see on disk. */
function peek<T>(sql: string, ...args: unknown[]): T[] {
  const db = new Database(file, { readonly: true });
  try {
    return db.prepare(sql).all(...args) as T[];
  } finally {
    db.close();
  }
}

beforeEach(() => {
  tmp = tempDir();
  file = path.join(tmp.dir, "data", "oceancode.db");
  errors = [];
});
afterEach(() => {
  for (const s of stores.splice(0)) s.close();
  tmp.cleanup();
});

describe("write-behind", () => {
  it("creates the db in WAL mode at the latest schema", async () => {
    const store = open();
    await store.listSessions();
    const db = new Database(file);
    expect(db.pragma("journal_mode", { simple: true })).toBe("wal");
    expect(db.pragma("user_version", { simple: true })).toBe(LATEST_VERSION);
    db.close();
  });

  it("a step only enqueues: nothing reaches the disk until the writer runs, settle() commits it", async () => {
    const store = open();
    await store.listSessions(); // open + migrate first, so the peek below sees a schema
    const s = newSession("s1");
    store.sessionStarted(s, "startup");
    step(s);
    store.sessionProgress(s);
    expect(store.stats().queued).toBeGreaterThan(0);
    expect(peek("SELECT * FROM rows")).toHaveLength(0); // same tick: the step did not wait on the disk
    await store.settle();
    expect(store.stats().queued).toBe(0);
    const rows = peek<{ seq: number; role: string }>("SELECT seq, role FROM rows WHERE session_id = 's1' ORDER BY seq");
    expect(rows.map((r) => r.role)).toEqual(["user", "assistant", "tool"]);
    expect(peek<{ id: string }>("SELECT id FROM sessions")).toEqual([{ id: "s1" }]);
  });

  it("queues only the new rows of each step, in seq order, and the totals after them", async () => {
    const store = open();
    const s = newSession("s1");
    store.sessionStarted(s, "startup");
    for (let i = 0; i < 20; i++) {
      step(s, { newTurn: i % 5 === 0 });
      store.sessionProgress(s);
    }
    await store.settle();
    const seqs = peek<{ seq: number }>("SELECT seq FROM rows WHERE session_id = 's1' ORDER BY seq").map((r) => r.seq);
    expect(seqs).toEqual(Array.from({ length: s.rows.length }, (_, i) => i + 1));
    const [row] = peek<{ totals: string; title: string }>("SELECT totals, title FROM sessions WHERE id = 's1'");
    expect(JSON.parse(row!.totals)).toMatchObject({ turns: 4, steps: 20 });
    expect(row!.title).toBe("prompt 1");
    // 20 steps queued in one tick + totals: one batch, one transaction
    expect(store.stats().batches).toBe(1);
    expect(store.stats().committedOps).toBe(1 + s.rows.length + 20);
  });

  it("commits in batches of maxBatch, each one transaction, still in order", async () => {
    const store = open({ maxBatch: 7 });
    const s = newSession("s1");
    store.sessionStarted(s, "startup");
    for (let i = 0; i < 10; i++) {
      step(s);
      store.sessionProgress(s);
    }
    const total = 1 + s.rows.length + 10;
    await store.settle();
    const batches = store.stats().batches;
    expect(batches).toBeGreaterThan(1);
    expect(batches).toBeLessThan(total / 4); // whole steps (4 ops each) per batch, never split
    expect(store.stats().committedOps).toBe(total);
    const seqs = peek<{ seq: number }>("SELECT seq FROM rows ORDER BY seq").map((r) => r.seq);
    expect(seqs).toEqual(Array.from({ length: s.rows.length }, (_, i) => i + 1));
  });

  it("settle() resolves at once when nothing is queued, and waits for writes queued before it", async () => {
    const store = open();
    await store.settle();
    const s = newSession("s1");
    store.sessionStarted(s, "startup");
    step(s);
    store.sessionProgress(s);
    const p = store.settle();
    step(s);
    store.sessionProgress(s);
    await p;
    await store.settle();
    expect(peek("SELECT seq FROM rows")).toHaveLength(s.rows.length);
  });
});

describe("reading back", () => {
  it("reopen + loadSession returns exactly what the engine held in memory", async () => {
    const a = open();
    const s = newSession("s1", "/work/p");
    s.info.overrides = { tideline: "30%" };
    a.sessionStarted(s, "startup");
    for (let i = 0; i < 6; i++) {
      step(s, { newTurn: i === 3, toolOutput: `out ${i} — ünïcode ✓\n`.repeat(3) });
      a.sessionProgress(s, i === 5);
    }
    a.close();
    const b = open();
    const loaded = await b.loadSession("s1");
    expect(loaded).toBeDefined();
    expect(loaded!.rows).toEqual(s.rows);
    expect(loaded!.totals).toEqual(s.totals);
    expect(loaded!.info).toEqual({ ...s.info, title: "prompt 1" });
    expect(await b.loadSession("nope")).toBeUndefined();
  });

  it("a resumed session continues its seq with no gap and no duplicate", async () => {
    const a = open();
    const s = newSession("s1");
    a.sessionStarted(s, "startup");
    step(s);
    a.sessionProgress(s);
    a.close();
    const b = open();
    const stored = (await b.loadSession("s1"))!;
    const resumed = { ...newSession("s1"), info: stored.info, rows: stored.rows, totals: stored.totals, nextSeq: stored.rows.length + 1 };
    b.sessionStarted(resumed, "resume");
    step(resumed, { newTurn: true });
    b.sessionProgress(resumed, true);
    await b.settle();
    const seqs = peek<{ seq: number }>("SELECT seq FROM rows ORDER BY seq").map((r) => r.seq);
    expect(seqs).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it("lists a project's sessions newest first; latestSessionId picks the newest", async () => {
    const store = open();
    for (const [id, cwd] of [["a", "/p"], ["b", "/q"], ["c", "/p"]] as const) {
      const s = newSession(id, cwd);
      store.sessionStarted(s, "startup");
      step(s);
      store.sessionProgress(s, true);
      await store.settle();
      await new Promise((r) => setTimeout(r, 5));
    }
    const list = await store.listSessions({ cwd: "/p" });
    expect(list.map((x) => x.id)).toEqual(["c", "a"]);
    expect(list[0]).toMatchObject({ cwd: "/p", model: "scripted/echo", turns: 1, steps: 1, title: "prompt 1" });
    expect(await store.latestSessionId("/p")).toBe("c");
    expect(await store.latestSessionId("/none")).toBeUndefined();
    expect((await store.listSessions()).length).toBe(3);
  });

  it("events are numbered per session, in order with rows, and continue after a reopen", async () => {
    const a = open();
    const s = newSession("s1");
    a.sessionStarted(s, "startup");
    a.recordEvent("s1", "hook", { decision: "deny", source: "x" });
    a.recordEvent("s1", "notice", { text: "hi" });
    step(s); // events of a new session wait for its first rows, then follow its row
    a.sessionProgress(s);
    a.close();
    const b = open();
    b.recordEvent("s1", "hook", { decision: "allow" });
    const all = await b.events("s1");
    expect(all.map((e) => [e.seq, e.kind])).toEqual([[1, "hook"], [2, "notice"], [3, "hook"]]);
    expect((await b.events("s1", "hook")).map((e) => e.data.decision)).toEqual(["deny", "allow"]);
  });

  it("a new session is written with its first rows: opened and closed with none, it leaves nothing", async () => {
    const store = open();
    const empty = newSession("empty");
    store.sessionStarted(empty, "startup");
    store.recordEvent("empty", "hook", { decision: "allow" });
    store.saveInfo({ ...empty.info, overrides: { tideline: "50%" } });
    store.sessionProgress(empty, true); // a turn that recorded no row (its prompt was refused)
    store.forget("empty");
    const used = newSession("used");
    store.sessionStarted(used, "startup");
    used.info.model = "scripted/other"; // changed before the first prompt: stored as it is then
    step(used);
    store.sessionProgress(used, true);
    await store.settle();
    expect(peek<{ id: string; model: string }>("SELECT id, model FROM sessions")).toEqual([{ id: "used", model: "scripted/other" }]);
    expect(peek("SELECT * FROM events")).toEqual([]);
    expect(errors).toEqual([]);
  });

  it("deleteSession removes its rows and events; staleSessions finds idle ones", async () => {
    const store = open();
    const s = newSession("old");
    store.sessionStarted(s, "startup");
    step(s);
    store.sessionProgress(s);
    store.recordEvent("old", "x", {});
    await store.settle();
    expect(await store.staleSessions(1)).toEqual([]);
    expect(await store.staleSessions(-1)).toEqual(["old"]);
    // a pinned session is never stale
    pin(store, "old");
    expect(await store.staleSessions(-1)).toEqual([]);
    expect((await store.listSessions()).map((x) => [x.id, x.pinned])).toEqual([["old", true]]);
    unpin(store, "old");
    expect(await store.staleSessions(-1)).toEqual(["old"]);
    await store.deleteSession("old");
    expect(peek("SELECT * FROM rows")).toHaveLength(0);
    expect(peek("SELECT * FROM events")).toHaveLength(0);
    expect(await store.loadSession("old")).toBeUndefined();
  });
});

describe("failures", () => {
  it("a full disk is reported once, the session keeps running, and the queue commits once space returns", async () => {
    const store = open({ retryMs: [20] });
    const s = newSession("s1");
    store.sessionStarted(s, "startup");
    step(s);
    store.sessionProgress(s);
    await store.settle();
    const db = store.db();
    const pages = db.pragma("page_count", { simple: true }) as number;
    db.pragma(`max_page_count = ${pages}`); // SQLite now answers SQLITE_FULL, as on a full disk
    for (let i = 0; i < 30; i++) {
      step(s, { toolOutput: "x".repeat(8000) });
      store.sessionProgress(s);
    }
    await expect(store.settle()).rejects.toThrow(/not writable: database or disk is full/);
    await new Promise((r) => setTimeout(r, 100)); // several retries fail meanwhile
    expect(errors.filter((e) => /disk is full/.test(e))).toHaveLength(1);
    expect(store.stats().queued).toBeGreaterThan(0);
    expect(store.stats().lastError).toMatch(/full/);
    // on disk: still the prefix written before the disk filled
    expect(peek<{ seq: number }>("SELECT seq FROM rows ORDER BY seq").map((r) => r.seq)).toEqual([1, 2, 3]);
    db.pragma("max_page_count = 1073741823");
    await store.settle();
    const seqs = peek<{ seq: number }>("SELECT seq FROM rows ORDER BY seq").map((r) => r.seq);
    expect(seqs).toEqual(Array.from({ length: s.rows.length }, (_, i) => i + 1));
  });

  it("a file that is not a database: one clear error, writes dropped, nothing thrown at the step", async () => {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, "this is not sqlite ".repeat(100));
    const store = open();
    const s = newSession("s1");
    store.sessionStarted(s, "startup");
    step(s);
    store.sessionProgress(s);
    await expect(store.settle()).rejects.toThrow(/not a database/);
    step(s);
    store.sessionProgress(s); // keeps going in memory
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(new RegExp(`${file.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}: cannot use the database .*not a database.*--db`));
    expect(fs.readFileSync(file, "utf8")).toMatch(/^this is not sqlite/);
    expect(store.stats().dropped).toBeGreaterThan(0);
  });

  it("a row for a session that was never stored is skipped with an error; the rest of the batch commits", async () => {
    const store = open();
    const s = newSession("s1");
    store.sessionStarted(s, "startup");
    step(s);
    store.sessionProgress(s);
    store.recordEvent("ghost", "x", {});
    step(s);
    store.sessionProgress(s);
    await store.settle();
    expect(peek("SELECT * FROM rows")).toHaveLength(s.rows.length);
    expect(peek("SELECT * FROM events")).toHaveLength(0);
    expect(errors.join("\n")).toMatch(/skipped an unstorable event write for session ghost/);
  });

  it("close() flushes what is queued synchronously", () => {
    const store = open();
    const s = newSession("s1");
    store.sessionStarted(s, "startup");
    step(s);
    store.sessionProgress(s);
    store.close();
    expect(peek("SELECT * FROM rows")).toHaveLength(3);
  });
});

/**
 * The storage conformance suite (extensions/engine/testing/storage.ts, the one the bundled SQLite store and the
 * json-store example pass) against storage-postgres on a real PostgreSQL server, activated as the kernel
 * activates it (testContext, the URL from $OC_DATABASE_URL), each test on a fresh database. Then what the
 * suite does not cover: the write-behind's in-order prefix and one-transaction groups, migrations and a
 * newer schema refused, a claim released when its process's connection dies.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import pg from "pg";
import { describeStorageContract, testContext } from "../../engine/testing/index.js";
import type { StorageService } from "../../storage/api.js";
import plugin from "../index.js";
import { PgStore } from "../store.js";
import { LATEST_VERSION } from "../migrations.js";
import { startPostgres, type TestPostgres } from "../../../test/kit/postgres.js";
import type { Session } from "../../engine/api.js";

let server: Promise<TestPostgres> | undefined;
const pgServer = () => (server ??= startPostgres());
let n = 0;
const freshDb = async () => (await pgServer()).createDatabase(`conf_${process.pid}_${++n}`);
afterAll(async () => (await server)?.stop());

describeStorageContract("storage-postgres (PostgreSQL 15, activated as an extension)", async ({ engine }) => {
  const url = await freshDb();
  const ctx = testContext({ id: "storage-postgres", services: { engine }, env: { OC_DATABASE_URL: url } });
  (plugin as { activate(c: unknown): void }).activate(ctx);
  const storage = ctx.provided.get("storage") as StorageService & { close(): Promise<void> };
  return { storage, close: () => storage.close() };
});

function session(id: string, cwd = "/work/p"): Session {
  return { info: { id, cwd, model: "m/x", createdAt: Date.now(), overrides: {} }, rows: [], totals: { usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 }, costUsd: 0, turns: 0, steps: 0 }, nextSeq: 1, lastActive: Date.now(), ext: new Map() };
}
function step(s: Session, text: string): void {
  const turn = s.totals.turns + 1;
  s.rows.push({ role: "user", text, seq: s.nextSeq++, turn, step: 0, at: Date.now() }, { role: "assistant", text: `re ${text}`, toolCalls: [], seq: s.nextSeq++, turn, step: 1, at: Date.now() } as never);
  s.totals.turns = turn;
  s.totals.steps++;
}

describe("storage-postgres beyond the contract", () => {
  let url: string;
  beforeAll(async () => {
    url = await freshDb();
  });

  it("commits 200 steps written behind as an in-order prefix, each step whole; stats count the batches", async () => {
    const errors: string[] = [];
    const st = new PgStore({ url, onError: (m) => errors.push(m) });
    const s = session("prefix-1");
    st.sessionStarted(s, "startup");
    for (let i = 0; i < 200; i++) {
      step(s, `q${i}`);
      st.sessionProgress(s); // queued only: returns before anything reaches the database
    }
    expect(st.stats().queued).toBeGreaterThan(0);
    await st.settle();
    const back = (await st.loadSession("prefix-1"))!;
    expect(back.rows.map((r) => r.seq)).toEqual(s.rows.map((r) => r.seq));
    expect(back.totals.steps).toBe(200);
    expect(st.stats()).toMatchObject({ queued: 0, dropped: 0 });
    expect(st.stats().batches).toBeLessThan(200);
    expect(errors).toEqual([]);
    await st.close();
  });

  it("a server that goes away mid-session: the step's group is retried and lands whole, no gap, no duplicate", async () => {
    const errors: string[] = [];
    const st = new PgStore({ url, onError: (m) => errors.push(m), onInfo: () => undefined, retryMs: [50] });
    const s = session("retry-1");
    st.sessionStarted(s, "startup");
    step(s, "one");
    st.sessionProgress(s);
    await st.settle();
    // kill every connection of the store's pool: the next batch fails, is retried on a new connection
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'oceancode' AND pid <> pg_backend_pid()`);
    await admin.end();
    step(s, "two");
    st.sessionProgress(s);
    for (let i = 0; i < 50 && st.stats().queued > 0; i++) await st.settle().catch(() => new Promise((r) => setTimeout(r, 60)));
    const back = (await st.loadSession("retry-1"))!;
    expect(back.rows.map((r) => r.seq)).toEqual([1, 2, 3, 4]);
    expect(st.health().ok).toBe(true);
    await st.close();
  });

  it("migrates a fresh database to the latest version once; a newer schema is refused and never written", async () => {
    const fresh = await freshDb();
    const st = new PgStore({ url: fresh, onError: () => undefined });
    const first = await st.migrateNow();
    expect(first).toMatchObject({ from: 0, to: LATEST_VERSION });
    expect(first.applied.map((a) => a.version)).toEqual([1, 2, 3]);
    expect((await st.migrateNow()).applied).toEqual([]);
    const admin = new pg.Client({ connectionString: fresh });
    await admin.connect();
    await admin.query(`INSERT INTO schema_version (version, applied_at) VALUES (99, 0)`);
    await admin.end();
    const newer = new PgStore({ url: fresh, onError: () => undefined });
    await expect(newer.listSessions()).rejects.toThrow(/schema version 99 is newer than this oceancode understands \(up to 3\)/);
    const s = session("never");
    newer.sessionStarted(s, "startup");
    step(s, "x");
    newer.sessionProgress(s);
    await newer.settle().catch(() => undefined);
    expect(newer.health()).toMatchObject({ ok: false });
    await newer.close();
    await st.close();
  });

  it("two processes opening a fresh database at once migrate it once", async () => {
    const fresh = await freshDb();
    const stores = [0, 1, 2].map(() => new PgStore({ url: fresh, onError: () => undefined }));
    const reports = await Promise.all(stores.map((x) => x.migrateNow()));
    expect(reports.flatMap((r) => r.applied.map((a) => a.version)).sort()).toEqual([1, 2, 3]);
    expect(reports.every((r) => r.to === LATEST_VERSION)).toBe(true);
    for (const x of stores) await x.close();
  });

  it("a claim is held by its own connection: when that connection dies the session is free again", async () => {
    const a = new PgStore({ url, onError: () => undefined });
    const b = new PgStore({ url, onError: () => undefined });
    const held = await a.claim("locked-1", false);
    expect("release" in held).toBe(true);
    const refused = await b.claim("locked-1", false);
    expect(refused).toMatchObject({ refused: expect.stringMatching(/^session locked-1 is open in process \d+ on .+ \(since .+\); close it there, or pass --wait/) });
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name LIKE 'oc ${process.pid}@%'`);
    await admin.end();
    const again = await b.claim("locked-1", false);
    expect("release" in again).toBe(true);
    await a.close();
    await b.close();
  });
});

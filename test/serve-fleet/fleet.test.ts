/**
 * A fleet of `oceancode serve` instances on one PostgreSQL database (storage-postgres selected with
 * extensions.replace, $OC_DATABASE_URL): /health names each instance and its claims, a prompt posted to an
 * instance that does not hold the session is forwarded to the holder, and an SSE client on a third instance
 * receives the session's events (a large one through fleet_events).
 */
import pg from "pg";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { makeSandbox, type Sandbox } from "../helpers/cli.js";
import { startPostgres, type TestPostgres } from "../helpers/postgres.js";
import { globalConfig } from "../sdk/helpers.js";
import { SseReader, startServe, turnEndOf, type Served } from "../serve/serve-helpers.js";

let server: TestPostgres;
let sb: Sandbox;
let url: string;
let n = 0;
let fleet: Served[] = [];
beforeAll(async () => {
  server = await startPostgres();
});
afterAll(() => server?.stop());
beforeEach(async () => {
  sb = makeSandbox("oc-fleet-");
  url = await server.createDatabase(`fleet_${process.pid}_${++n}`);
  globalConfig(sb, { extensions: { replace: { storage: "storage-postgres" } } });
});
afterEach(async () => {
  for (const s of fleet) await s.stop("SIGKILL");
  fleet = [];
  sb.cleanup();
});

const start = async (name: string) => {
  const s = await startServe(["--directory", sb.project], { env: { ...sb.env, OC_DATABASE_URL: url, OC_INSTANCE_ID: name } });
  fleet.push(s);
  return s;
};

type Health = { ok: boolean; instance: string; claims: string[]; sessions: number };

describe("serve fleet on one PostgreSQL database", () => {
  it("/health names the instance and its claims; a prompt through B runs on A (forwarded) and C's SSE gets every event, a large one too", async () => {
    const [a, b, c] = [await start("inst-a"), await start("inst-b"), await start("inst-c")];
    const id = (await a.api<{ id: string }>("POST", "/session", { model: "scripted/echo" })).body.id;
    expect((await a.api<Health>("GET", "/health")).body).toMatchObject({ ok: true, instance: "inst-a", claims: [id], sessions: 1 });
    expect((await b.api<Health>("GET", "/health")).body).toMatchObject({ instance: "inst-b", claims: [] });

    const sseC = await SseReader.open(`${c.url}/event`);
    const sseA = await SseReader.open(`${a.url}/event`);
    const prompted = await b.api<{ turnId: string }>("POST", `/session/${id}/prompt`, { text: "hello fleet" });
    expect(prompted.status, JSON.stringify(prompted.body)).toBe(202);
    const endC = await sseC.waitFor(turnEndOf(id));
    expect(endC.data).toMatchObject({ reason: "end_turn", text: "ok: hello fleet" });
    await sseC.waitFor((e) => e.event === "turn_done" && e.data.turnId === prompted.body.turnId);
    await sseA.waitFor((e) => e.event === "turn_done" && e.data.turnId === prompted.body.turnId);
    // C saw what A's own clients saw, in the same order
    const kinds = (r: SseReader) => r.events.filter((e) => e.data.sessionId === id).map((e) => e.event);
    expect(kinds(sseC)).toEqual(kinds(sseA));
    // the session stayed on A; B and C hold nothing
    expect((await a.api<Health>("GET", "/health")).body.claims).toEqual([id]);
    expect((await c.api<Health>("GET", "/health")).body.claims).toEqual([]);

    // an event past NOTIFY's 8000-byte payload limit goes through fleet_events
    const big = "x".repeat(12_000);
    const p2 = await c.api<{ turnId: string }>("POST", `/session/${id}/prompt`, { text: big });
    expect(p2.status, JSON.stringify(p2.body)).toBe(202);
    await sseC.waitFor((e) => e.event === "turn_done" && e.data.turnId === p2.body.turnId);
    const ends = sseC.events.filter(turnEndOf(id));
    expect(ends[1]!.data.text).toBe(`ok: ${big}`);
    expect(kinds(sseC)).toEqual(kinds(sseA));
    const db = new pg.Client({ connectionString: url });
    await db.connect();
    try {
      expect(Number((await db.query("SELECT count(*) AS n FROM fleet_events")).rows[0].n)).toBeGreaterThan(0);
      expect((await db.query("SELECT taken_by FROM fleet_prompts ORDER BY id")).rows.map((r) => r.taken_by)).toEqual(["inst-a", "inst-a"]);
    } finally {
      await db.end();
    }
    sseA.close();
    sseC.close();
  }, 60_000);
});

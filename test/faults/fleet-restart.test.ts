/**
 * The fleet with the documented set-up (storage.url in the user config, no $OC_DATABASE_URL) and through a
 * real PostgreSQL restart (the same data directory and port): a prompt through a second instance is
 * forwarded (not 409); while the database is away /health answers 503 on every instance and prompts are
 * refused (503, never accepted and lost); once it is back each instance reconnects on its own, the turns in
 * flight finish and are recorded as ended (none left 'running' in fleet_turns), and new prompts run on each.
 *
 * Each test has a database of its own: an instance killed by afterEach leaves its live fleet_turns rows to
 * whoever claims the session next (a takeover, by design), and the next test's fleet must not be that.
 */
import pg from "pg";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { makeSandbox, type Sandbox } from "../kit/cli.js";
import { startPostgres, type TestPostgres } from "../kit/postgres.js";
import { globalConfig } from "../sdk/helpers.js";
import { SseReader, startServe, type Served } from "../../extensions/serve/test/serve-helpers.js";
import { waitFor } from "./helpers.js";
import { SESSION_LOCK_NAMESPACE } from "../../extensions/storage-postgres/api.js";

let server: TestPostgres;
let sb: Sandbox;
let url: string;
const running: Served[] = [];
beforeAll(async () => {
  server = await startPostgres();
  sb = makeSandbox("oc-fleet-restart-");
  sb.write("slow.json", JSON.stringify({ steps: [], after: { text: "answered", delay_ms: 1500 } }));
}, 60_000);
/** A fresh database for this test, named in the user config only (the documented set-up): no other test's rows in it. */
async function freshDatabase(name: string): Promise<void> {
  url = await server.createDatabase(`${name}_${process.pid}`);
  globalConfig(sb, { extensions: { replace: { storage: "storage-postgres" } }, storage: { url } });
}
afterEach(async () => {
  for (const s of running.splice(0)) await s.stop("SIGKILL");
});
afterAll(() => {
  server.up = () => undefined; // (stop() needs it running: it is, unless a test failed mid-restart)
  try {
    server.stop();
  } finally {
    sb.cleanup();
  }
});

async function start(name: string): Promise<Served> {
  const env = { ...sb.env, OC_INSTANCE_ID: name, OC_FLEET_SWEEP_MS: "200" };
  delete env.OC_DATABASE_URL;
  const s = await startServe(["--directory", sb.project], { env });
  running.push(s);
  return s;
}

async function sql<T>(text: string, params?: unknown[]): Promise<T[]> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query(text, params)).rows as T[];
  } finally {
    await c.end();
  }
}

const healthOf = (s: Served) => s.api<{ ok: boolean; error?: { code: string } }>("GET", "/health").catch(() => undefined);

describe("the fleet: configured by storage.url, and through a PostgreSQL restart", () => {
  it("storage.url from the user config starts the fleet: a prompt through B for A's session is forwarded, not 409", async () => {
    await freshDatabase("cfg");
    const [a, b] = [await start("cfg-a"), await start("cfg-b")];
    const id = (await a.api<{ id: string }>("POST", "/session", { model: "scripted/echo" })).body.id;
    const sse = await SseReader.open(`${a.url}/session/${id}/event`);
    const r = await b.api<{ turnId: string }>("POST", `/session/${id}/prompt`, { text: "through b" });
    expect(r.status, JSON.stringify(r.body)).toBe(202);
    const end = await sse.waitFor((e) => e.event === "turn_end");
    expect(end.data).toMatchObject({ reason: "end_turn", text: "ok: through b" });
    sse.close();
    expect((await sql<{ taken_by: string }>("SELECT taken_by FROM fleet_prompts")).map((x) => x.taken_by)).toEqual(["cfg-a"]);
    // the holder records the turn's end just after its turn_end (the stream's event comes first): wait for it
    // (bounded). Killed before it, the turn stays 'running' and whoever claims the session next continues it
    const turns = await waitFor("the forwarded turn recorded as ended on A", async () => {
      const rows = await sql<{ instance: string; state: string }>("SELECT instance, state FROM fleet_turns WHERE session = $1", [id]);
      return rows.every((t) => t.state === "done") && rows;
    }, 15_000, 50);
    expect(turns).toEqual([{ instance: "cfg-a", state: "done" }]);
  }, 60_000);

  it("PostgreSQL restarts: /health 503 while it is away, each instance reconnects, no turn stays running, prompts run again", async () => {
    await freshDatabase("restart");
    const [a, b] = [await start("pg-a"), await start("pg-b")];
    const ids = [(await a.api<{ id: string }>("POST", "/session", { model: "scripted/slow.json" })).body.id, (await b.api<{ id: string }>("POST", "/session", { model: "scripted/slow.json" })).body.id];
    const sses = await Promise.all([SseReader.open(`${a.url}/event`), SseReader.open(`${b.url}/event`)]);
    // a turn in flight on each instance when the database goes
    for (const [i, s] of [a, b].entries()) expect((await s.api("POST", `/session/${ids[i]}/prompt`, { text: "before" })).status).toBe(202);
    await Promise.all(sses.map((x) => x.waitFor((e) => e.event === "turn_start")));

    server.down();
    let downFor = 0;
    try {
      for (const s of [a, b]) {
        const h = await waitFor("/health 503 while the database is away", async () => ((await healthOf(s))?.status === 503 ? await healthOf(s) : false), 20_000);
        expect(h!.body.error?.code).toBe("database_unreachable");
      }
      // a prompt now is refused, not accepted and lost
      const refused = await a.api<{ error: { code: string } }>("POST", `/session/${ids[0]}/prompt`, { text: "during" });
      expect(refused.status).toBe(503);
      expect(refused.body.error.code).toBe("fleet_unavailable");
    } finally {
      const t0 = Date.now();
      server.up();
      downFor = Date.now() - t0;
    }
    expect(downFor).toBeLessThan(30_000);

    // each instance comes back on its own; the turns in flight end and are recorded as ended
    for (const s of [a, b]) await waitFor("/health 200 after the restart", async () => (await healthOf(s))?.status === 200, 30_000);
    await waitFor(
      "no fleet turn left queued or running",
      async () => (await sql<{ n: string }>("SELECT count(*)::text AS n FROM fleet_turns WHERE state IN ('queued', 'running')").catch(() => [{ n: "x" }]))[0]!.n === "0",
      30_000,
      200,
    );
    // each session's lock, dropped with its connection by the restart, is held again (by its instance alone)
    await waitFor(
      "both session locks retaken",
      async () => {
        const held = await sql<{ n: string }>(
          "SELECT count(*)::text AS n FROM pg_locks WHERE locktype = 'advisory' AND granted AND classid = $1::int::oid AND objsubid = 2 AND objid IN (SELECT hashtext(x)::oid FROM unnest($2::text[]) AS x)",
          [SESSION_LOCK_NAMESPACE, ids],
        ).catch(() => [{ n: "x" }]);
        return held[0]!.n === "2";
      },
      30_000,
      200,
    );
    // a new prompt runs on each instance, and B's for A's session is still forwarded to A
    for (const [i, s] of [a, b].entries()) expect((await s.api("POST", `/session/${ids[i]}/prompt`, { text: "after" })).status).toBe(202);
    expect((await b.api("POST", `/session/${ids[0]}/prompt`, { text: "after via b" })).status).toBe(202);
    await waitFor(
      "every turn answered and stored",
      async () => {
        const rows = await sql<{ session_id: string; n: string }>("SELECT session_id, count(*)::text AS n FROM rows WHERE role = 'assistant' GROUP BY session_id");
        const n = new Map(rows.map((r) => [r.session_id, Number(r.n)]));
        return n.get(ids[0]!) === 3 && n.get(ids[1]!) === 2;
      },
      30_000,
      200,
    );
    // every turn of both sessions is recorded once, and ended
    // a turn's end is recorded just after its answer's rows: wait for it (bounded), never read it at once
    const turnsNow = () => sql<{ session: string; state: string }>("SELECT session, state FROM fleet_turns WHERE session = ANY($1) ORDER BY id", [ids]);
    await waitFor("every fleet turn ended", async () => (await turnsNow()).every((t) => t.state === "done"), 15_000, 100);
    const turns = await turnsNow();
    expect(turns.filter((t) => t.state !== "done")).toEqual([]);
    expect(turns.length).toBe(5);
    // each session is held by exactly one instance. Where: its own, unless that instance's reconnect took longer
    // than the other's takeover grace (15 s: three attempts of the slowest kind); then the other took its turns
    // over as a gone instance's (docs/storage-postgres.md), which is allowed: never both, never neither
    const claims = await Promise.all([a, b].map(async (s) => (await s.api<{ claims: string[] }>("GET", "/health")).body.claims));
    const who = await sql("SELECT session, instance, state, taken_by FROM fleet_turns ORDER BY id");
    const why = `fleet_turns: ${JSON.stringify(who)}\na: ${a.stderr().slice(-1500)}\nb: ${b.stderr().slice(-1500)}`;
    expect([...claims[0]!, ...claims[1]!].sort(), why).toEqual([...ids].sort());
    for (const x of sses) x.close();
  }, 120_000);
});

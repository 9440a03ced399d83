/**
 * The fleet's upkeep, against a real PostgreSQL and the compiled CLI: versioned fleet tables (applied once
 * when instances start together, a newer schema refused), pruning of old fleet rows, queued turns of a
 * killed instance finished elsewhere, and Last-Event-ID on an instance that did not issue it.
 */
import pg from "pg";
import { describe, expect, it } from "vitest";
import { LOCK_NAMESPACE } from "../../extensions/storage-postgres/lock.js";
import { FLEET_LATEST } from "../../extensions/serve-fleet/schema.js";
import { fleetFixture, type Health } from "./fleet-helpers.js";

const fx = fleetFixture("fleeth");

describe("fleet schema migrations", () => {
  it("three instances starting at once on a fresh database apply each fleet migration once; a database with a newer fleet schema is refused, naming both versions", async () => {
    const all = await Promise.all(["inst-a", "inst-b", "inst-c"].map((n) => fx.start(n)));
    for (const s of all) expect((await s.api<Health>("GET", "/health")).body.ok).toBe(true);
    const versions = await fx.sql<{ version: number }>("SELECT version FROM fleet_schema ORDER BY version");
    expect(versions.map((v) => v.version)).toEqual(Array.from({ length: FLEET_LATEST }, (_v, i) => i + 1));
    for (const s of all) await fx.kill(s);

    // written by a newer oceancode: this one does not start (neither its fleet nor its server)
    await fx.sql("INSERT INTO fleet_schema (version) VALUES ($1)", [FLEET_LATEST + 5]);
    const refused = await fx.start("inst-d").then(
      () => "started",
      (e: Error) => e.message,
    );
    expect(refused).toContain(`fleet schema is version ${FLEET_LATEST + 5}, newer than this oceancode understands (up to ${FLEET_LATEST})`);
    expect(refused).toContain("serve exited 1");
    expect(refused).not.toContain(fx.server.password);
  }, 60_000);

  it("a database the unversioned fleet used (its tables, no fleet_schema) is adopted: rows kept, versions recorded", async () => {
    await fx.sql(`CREATE TABLE fleet_turns (id bigserial PRIMARY KEY, session text NOT NULL, turn_id text NOT NULL, instance text NOT NULL, text text NOT NULL,
      state text NOT NULL DEFAULT 'running', taken_by text, started_at timestamptz NOT NULL DEFAULT now())`);
    await fx.sql("INSERT INTO fleet_turns (session, turn_id, instance, text, state) VALUES ('s1', 'turn_1', 'old', 'hi', 'done')");
    await fx.start("inst-a");
    expect((await fx.sql<{ version: number }>("SELECT version FROM fleet_schema ORDER BY version")).length).toBe(FLEET_LATEST);
    expect(await fx.sql("SELECT session, state FROM fleet_turns")).toEqual([{ session: "s1", state: "done" }]);
  }, 60_000);
});

describe("fleet pruning", () => {
  it("old fleet_events, fleet_prompts and finished fleet_turns go, at most once per OC_FLEET_PRUNE_MS; fresh rows and queued or running turns stay", async () => {
    const every = 2_000;
    await fx.start("inst-a", { OC_FLEET_PRUNE_MS: String(every) });
    // a session held by a process outside the fleet: its old running and queued turns are live, not prunable
    const holder = new pg.Client({ connectionString: fx.url });
    await holder.connect();
    try {
      await holder.query("SELECT pg_advisory_lock($1, hashtext('held-elsewhere'))", [LOCK_NAMESPACE]);
      const old = "now() - interval '2 hours'";
      const plant = async (tag: string) => {
        await fx.sql(`INSERT INTO fleet_events (session, payload, created_at) VALUES ('s', '{"t": "${tag}-old"}', ${old}), ('s', '{"t": "${tag}-fresh"}', now())`);
        await fx.sql(`INSERT INTO fleet_prompts (session, text, origin, taken_by, created_at) VALUES
          ('s', '${tag}-old-taken', 'x', 'inst-a', ${old}), ('s', '${tag}-old-withdrawn', 'x', 'withdrawn', ${old}), ('s', '${tag}-fresh-taken', 'x', 'inst-a', now())`);
        await fx.sql(`INSERT INTO fleet_turns (session, turn_id, instance, text, state, started_at) VALUES
          ('s', 't', 'x', '${tag}-old-done', 'done', ${old}), ('s', 't', 'x', '${tag}-old-taken', 'taken', ${old}), ('s', 't', 'x', '${tag}-fresh-done', 'done', now()),
          ('held-elsewhere', 't', 'x', '${tag}-old-running', 'running', ${old}), ('held-elsewhere', 't', 'x', '${tag}-old-queued', 'queued', ${old})`);
      };
      const left = async () => ({
        events: (await fx.sql<{ t: string }>("SELECT payload->>'t' AS t FROM fleet_events ORDER BY id")).map((r) => r.t),
        prompts: (await fx.sql<{ text: string }>("SELECT text FROM fleet_prompts ORDER BY id")).map((r) => r.text),
        turns: (await fx.sql<{ text: string }>("SELECT text FROM fleet_turns ORDER BY id")).map((r) => r.text),
      });
      const pruned = async (tag: string, within: number) => {
        const t0 = Date.now();
        while (Date.now() - t0 < within && (await left()).events.includes(`${tag}-old`)) await new Promise((r) => setTimeout(r, 50));
        return Date.now();
      };
      await plant("one");
      const first = await pruned("one", 10_000);
      expect(await left()).toEqual({
        events: ["one-fresh"],
        prompts: ["one-fresh-taken"],
        turns: ["one-fresh-done", "one-old-running", "one-old-queued"],
      });
      // planted right after a run: still there half a period later (no second run yet), gone after the next
      await plant("two");
      await new Promise((r) => setTimeout(r, every / 4));
      expect((await left()).events).toContain("two-old");
      const second = await pruned("two", 10_000);
      expect(second - first).toBeGreaterThanOrEqual(every * 0.75);
      expect(await left()).toEqual({
        events: ["one-fresh", "two-fresh"],
        prompts: ["one-fresh-taken", "two-fresh-taken"],
        turns: ["one-fresh-done", "one-old-running", "one-old-queued", "two-fresh-done", "two-old-running", "two-old-queued"],
      });
    } finally {
      await holder.end();
    }
    // the deletes find old rows through these indexes (migration 2), not by reading whole tables
    const idx = (await fx.sql<{ indexname: string }>("SELECT indexname FROM pg_indexes WHERE tablename LIKE 'fleet_%'")).map((r) => r.indexname);
    expect(idx).toEqual(expect.arrayContaining(["fleet_events_created", "fleet_prompts_created", "fleet_turns_finished"]));
  }, 60_000);
});

/**
 * The fleet's upkeep, against a real PostgreSQL and the compiled CLI: versioned fleet tables (applied once
 * when instances start together, a newer schema refused), pruning of old fleet rows, queued turns of a
 * killed instance finished elsewhere, and Last-Event-ID on an instance that did not issue it.
 */
import { describe, expect, it } from "vitest";
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

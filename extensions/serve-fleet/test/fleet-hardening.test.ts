/**
 * The fleet's upkeep, against a real PostgreSQL and the compiled CLI: versioned fleet tables (applied once
 * when instances start together, a newer schema refused), pruning of old fleet rows, queued turns of a
 * killed instance finished elsewhere, and Last-Event-ID on an instance that did not issue it.
 */
import pg from "pg";
import { describe, expect, it } from "vitest";
import { SESSION_LOCK_NAMESPACE as LOCK_NAMESPACE } from "../../storage-postgres/api.js";
import { FLEET_LATEST } from "../schema.js";
import { SseReader, turnEndOf } from "../../serve/test/serve-helpers.js";
import { checkRowOrder, fleetFixture, type Health } from "./fleet-helpers.js";

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
    expect(refused).toContain(`fleet schema version ${FLEET_LATEST + 5} is newer than this oceancode understands (up to ${FLEET_LATEST})`);
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
    const every = 4_000;
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
      // when a run deleted the tag's old event: polled on one open connection, so it is seen within ~30 ms
      const pruned = async (tag: string, within: number) => {
        const t0 = Date.now();
        const there = async () => (await holder.query("SELECT 1 FROM fleet_events WHERE payload->>'t' = $1", [`${tag}-old`])).rowCount === 1;
        while (Date.now() - t0 < within && (await there())) await new Promise((r) => setTimeout(r, 25));
        return Date.now();
      };
      // one run deletes events, prompts and turns in turn: the event going first, read the rest once it has
      // gone too (bounded), so a busy machine cannot read between two of the run's deletes
      const settled = async (want: Awaited<ReturnType<typeof left>>) => {
        const until = Date.now() + 5_000;
        let got = await left();
        while (Date.now() < until && JSON.stringify(got) !== JSON.stringify(want)) {
          await new Promise((r) => setTimeout(r, 25));
          got = await left();
        }
        return got;
      };
      await plant("one");
      const first = await pruned("one", 15_000);
      const afterOne = { events: ["one-fresh"], prompts: ["one-fresh-taken"], turns: ["one-fresh-done", "one-old-running", "one-old-queued"] };
      expect(await settled(afterOne)).toEqual(afterOne);
      // planted right after a run: still there half a period later (no second run yet), gone after the next
      await plant("two");
      // a third of a period after the run was seen (not after the plant and reads, which a busy machine slows)
      await new Promise((r) => setTimeout(r, Math.max(0, first + every / 3 - Date.now())));
      expect((await left()).events).toContain("two-old");
      const second = await pruned("two", 15_000);
      expect(second - first).toBeGreaterThanOrEqual(every * 0.75);
      const afterTwo = {
        events: ["one-fresh", "two-fresh"],
        prompts: ["one-fresh-taken", "two-fresh-taken"],
        turns: ["one-fresh-done", "one-old-running", "one-old-queued", "two-fresh-done", "two-old-running", "two-old-queued"],
      };
      expect(await settled(afterTwo)).toEqual(afterTwo);
    } finally {
      await holder.end();
    }
    // the deletes find old rows through these indexes (migration 2), not by reading whole tables
    const idx = (await fx.sql<{ indexname: string }>("SELECT indexname FROM pg_indexes WHERE tablename LIKE 'fleet_%'")).map((r) => r.indexname);
    expect(idx).toEqual(expect.arrayContaining(["fleet_events_created", "fleet_prompts_created", "fleet_turns_finished"]));
  }, 60_000);
});

/** turn 1: five tool steps, then "first done"; turn 2: two tool steps, then "second done" (steps by session step number) */
function writeTwoTurnScript(): void {
  fx.sb.write("a.txt", "alpha\n");
  const tool = { delay_ms: 400, tool_calls: [{ name: "read", input: { file_path: "a.txt" } }] };
  fx.sb.write("two.json", JSON.stringify({ steps: [{ repeat: 5, text: "first {{n}}", ...tool }, { text: "first done" }, { repeat: 2, text: "second {{n}}", ...tool }, { text: "second done" }] }));
}

/**
 * The two turns of writeTwoTurnScript finished once each after a takeover: rows in order with no repeated
 * step, each closing text once; the users' turns (the first as sent, its continuation, the second) returned.
 */
async function bothTurnsOnce(id: string): Promise<string[]> {
  const rows = await fx.rows(id, (rs) => rs.some((r) => r.role === "assistant" && r.json.includes('"second done"')));
  expect(checkRowOrder(rows, id)).toEqual([]);
  const assistants = rows.filter((r) => r.role === "assistant").map((r) => r.json);
  expect(assistants.filter((j) => j.includes('"first done"')).length).toBe(1);
  expect(assistants.filter((j) => j.includes('"second done"')).length).toBe(1);
  const users = rows.filter((r) => r.role === "user").map((r) => r.json);
  expect(users.length).toBe(3);
  return users;
}

describe("queued turns of a killed instance", () => {
  it("two prompts accepted by the holder (the second queued), the holder killed -9 during the first: another instance continues the first, then runs the second, once each, in order", async () => {
    writeTwoTurnScript();
    const [a, b, c] = [await fx.start("inst-a"), await fx.start("inst-b"), await fx.start("inst-c")];
    const id = (await a.api<{ id: string }>("POST", "/session", { model: "scripted/two.json" })).body.id;
    const sse = await SseReader.open(`${c.url}/session/${id}/event`);
    const p1 = await a.api<{ turnId: string }>("POST", `/session/${id}/prompt`, { text: "the first task" });
    const p2 = await a.api<{ turnId: string }>("POST", `/session/${id}/prompt`, { text: "the second task" });
    expect([p1.status, p2.status]).toEqual([202, 202]);
    // both recorded at acceptance: the first as running (or about to be), the second queued behind it
    const recorded = await fx.sql<{ text: string; state: string }>("SELECT text, state FROM fleet_turns WHERE session = $1 ORDER BY id", [id]);
    expect(recorded.map((r) => r.text)).toEqual(["the first task", "the second task"]);
    expect(recorded[1]!.state).toBe("queued");
    await sse.waitFor((e) => e.event === "step_end" && e.data.sessionId === id && e.data.step === 2);
    await fx.kill(a);

    const second = await sse.waitFor((e) => turnEndOf(id)(e) && e.data.text === "second done", 30_000);
    expect(second.data.reason).toBe("end_turn");
    const ends = sse.events.filter(turnEndOf(id)).map((e) => e.data.text);
    expect(ends.filter((t) => t === "first done").length).toBe(1);
    expect(ends.indexOf("first done")).toBeLessThan(ends.indexOf("second done"));
    const holders = [(await b.api<Health>("GET", "/health")).body, (await c.api<Health>("GET", "/health")).body].filter((h) => h.claims.includes(id));
    expect(holders.length).toBe(1);

    const users = await bothTurnsOnce(id);
    expect(users[0]).toContain("the first task");
    expect(users[1]).toContain("[interrupted: the oceancode instance running your previous turn stopped");
    expect(users[1]).toContain("the first task");
    expect(users[2]).toContain("the second task");
    expect(users[2]).not.toContain("[interrupted");

    // the holder records a turn's end right after its turn_end event: wait for it (bounded), never read it at once
    const read = () => fx.sql<{ instance: string; text: string; state: string; taken_by: string | null }>("SELECT instance, text, state, taken_by FROM fleet_turns WHERE session = $1 ORDER BY id", [id]);
    let turns = await read();
    for (const t0 = Date.now(); Date.now() - t0 < 10_000 && turns.slice(2).some((t) => t.state !== "done"); ) {
      await new Promise((r) => setTimeout(r, 50));
      turns = await read();
    }
    const taker = holders[0]!.instance;
    expect(turns.slice(0, 2)).toEqual([
      { instance: "inst-a", text: "the first task", state: "taken", taken_by: taker },
      { instance: "inst-a", text: "the second task", state: "taken", taken_by: taker },
    ]);
    expect(turns.slice(2).map((t) => [t.instance, t.state, t.text.includes("[interrupted"), t.text.endsWith("the first task") || t.text === "the second task"])).toEqual([
      [taker, "done", true, true],
      [taker, "done", false, true],
    ]);
    sse.close();
  }, 90_000);
});

describe("a graceful shutdown hands its turns over", () => {
  it("SIGTERM of the holder during the first of two prompts: it exits 0 at a step boundary without ending them; another instance continues the first and runs the second, in order, no step repeated", async () => {
    writeTwoTurnScript();
    const [a, b] = [await fx.start("inst-a"), await fx.start("inst-b")];
    const id = (await a.api<{ id: string }>("POST", "/session", { model: "scripted/two.json" })).body.id;
    const sse = await SseReader.open(`${b.url}/session/${id}/event`);
    const p1 = await a.api<{ turnId: string }>("POST", `/session/${id}/prompt`, { text: "the first task" });
    const p2 = await a.api<{ turnId: string }>("POST", `/session/${id}/prompt`, { text: "the second task" });
    expect([p1.status, p2.status]).toEqual([202, 202]);
    await sse.waitFor((e) => e.event === "step_end" && e.data.sessionId === id && e.data.step === 2);
    const t0 = Date.now();
    expect(await a.stop("SIGTERM")).toBe(0);
    expect(Date.now() - t0).toBeLessThan(5_000);
    // A ended neither turn: no turn_done for its turn ids reached B's stream
    expect(sse.events.filter((e) => e.event === "turn_done" && [p1.body.turnId, p2.body.turnId].includes(e.data.turnId as string) && e.data.sessionId === id)).toEqual([]);

    await sse.waitFor((e) => turnEndOf(id)(e) && e.data.text === "second done", 30_000);
    expect((await b.api<Health>("GET", "/health")).body.claims).toEqual([id]);
    const users = await bothTurnsOnce(id);
    expect(users[1]).toContain("[interrupted: the oceancode instance running your previous turn stopped (shut down, killed or crashed)");
    expect(users[2]).toContain("the second task");
    const turns = await fx.sql<{ instance: string; state: string; taken_by: string | null }>("SELECT instance, state, taken_by FROM fleet_turns WHERE session = $1 ORDER BY id", [id]);
    expect(turns.slice(0, 2)).toEqual([
      { instance: "inst-a", state: "taken", taken_by: "inst-b" },
      { instance: "inst-a", state: "taken", taken_by: "inst-b" },
    ]);
    sse.close();
  }, 90_000);
});

describe("Last-Event-ID across instances", () => {
  it("each instance start numbers its events in a range of its own: an id from another instance, or from before a restart, gets a gap (another instance) and live events, never another instance's replay", async () => {
    const [a, b] = [await fx.start("inst-a"), await fx.start("inst-b")];
    const id = (await a.api<{ id: string }>("POST", "/session", { model: "scripted/echo" })).body.id;
    const onA = await SseReader.open(`${a.url}/event`);
    const onB = await SseReader.open(`${b.url}/event`);
    await a.api("POST", `/session/${id}/prompt`, { text: "one" });
    await onA.waitFor((e) => e.event === "turn_done");
    await onB.waitFor((e) => e.event === "turn_done");
    const idsA = onA.events.map((e) => e.id!);
    const idsB = onB.events.map((e) => e.id!);
    // the same events, numbered apart: no id of one instance is an id of the other
    expect(onB.events.map((e) => e.event)).toEqual(onA.events.map((e) => e.event));
    expect(idsA.filter((x) => idsB.includes(x))).toEqual([]);
    for (const x of [...idsA, ...idsB]) expect(Number.isSafeInteger(x) && x > 2 ** 31).toBe(true);
    const lastA = idsA.at(-1)!;
    const firstA = idsA[0]!;

    // A's id on B: a gap that says so, nothing replayed (B holds these events under its own numbers), then live
    const moved = await SseReader.open(`${b.url}/session/${id}/event`, { "last-event-id": String(lastA) });
    const gap = await moved.waitFor((e) => e.event === "gap");
    expect(gap.data).toMatchObject({ after: lastA, reason: "another instance", lastId: idsB.at(-1) });
    expect(gap.id).toBe(idsB.at(-1));
    expect(String(gap.data.message)).toContain("GET /session/:id");
    await a.api("POST", `/session/${id}/prompt`, { text: "two" });
    await moved.waitFor((e) => turnEndOf(id)(e) && e.data.text === "ok: two");
    expect(moved.events[0]!.event).toBe("gap");
    expect(moved.events.filter((e) => turnEndOf(id)(e)).map((e) => e.data.text)).toEqual(["ok: two"]);
    // coming back to B with the gap's id: in B's range, so B replays from there (no gap)
    const back = await SseReader.open(`${b.url}/session/${id}/event`, { "last-event-id": String(gap.id) });
    await back.waitFor((e) => turnEndOf(id)(e) && e.data.text === "ok: two");
    expect(back.events.some((e) => e.event === "gap")).toBe(false);
    // on A its own id still replays: everything after the first event, in order, no gap
    const same = await SseReader.open(`${a.url}/event`, { "last-event-id": String(firstA) });
    await same.waitFor((e) => turnEndOf(id)(e) && e.data.text === "ok: two");
    expect(same.events[0]!.event).not.toBe("gap");
    expect(same.events.map((e) => e.id).slice(0, idsA.length - 1)).toEqual(idsA.slice(1));
    for (const r of [onA, onB, moved, back, same]) r.close();

    // B restarted with the same instance id is a new start: its old ids are not its ids any more
    const lastB = gap.id!;
    await fx.kill(b);
    const b2 = await fx.start("inst-b");
    const after = await SseReader.open(`${b2.url}/event`, { "last-event-id": String(lastB) });
    expect((await after.waitFor((e) => e.event === "gap")).data).toMatchObject({ after: lastB, reason: "another instance" });
    after.close();
  }, 60_000);
});

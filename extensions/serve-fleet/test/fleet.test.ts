/**
 * A fleet of `oceancode serve` instances on one PostgreSQL database (storage-postgres selected with
 * extensions.replace, $OC_DATABASE_URL): /health names each instance and its claims, a prompt posted to an
 * instance that does not hold the session is forwarded to the holder, and an SSE client on a third instance
 * receives the session's events (a large one through fleet_events).
 */
import pg from "pg";
import { describe, expect, it } from "vitest";
import { SseReader, turnEndOf } from "../../serve/test/serve-helpers.js";
import { fleetFixture, type Health } from "./fleet-helpers.js";

const fx = fleetFixture("fleet");
const start = (name: string) => fx.start(name);

describe("serve fleet on one PostgreSQL database", () => {
  it("/health names the instance and its claims; a prompt through B runs on A (forwarded) and C's SSE gets every event, a large one too", async () => {
    const [a, b, c] = [await start("inst-a"), await start("inst-b"), await start("inst-c")];
    const id = (await a.api<{ id: string }>("POST", "/session", { model: "scripted/echo" })).body.id;
    expect((await a.api<Health>("GET", "/health")).body).toMatchObject({ ok: true, instance: "inst-a", claims: [id], sessions: 1 });
    expect((await b.api<Health>("GET", "/health")).body).toMatchObject({ instance: "inst-b", claims: [] });

    const sseC = await SseReader.open(`${c.url}/event`);
    const sseA = await SseReader.open(`${a.url}/event`);
    // one session's stream on an instance that does not hold it: 200, fed by the fleet
    const sseB = await SseReader.open(`${b.url}/session/${id}/event`);
    expect(sseB.status).toBe(200);
    const prompted = await b.api<{ turnId: string }>("POST", `/session/${id}/prompt`, { text: "hello fleet" });
    expect(prompted.status, JSON.stringify(prompted.body)).toBe(202);
    const endC = await sseC.waitFor(turnEndOf(id));
    expect(endC.data).toMatchObject({ reason: "end_turn", text: "ok: hello fleet" });
    await sseC.waitFor((e) => e.event === "turn_done" && e.data.turnId === prompted.body.turnId);
    await sseA.waitFor((e) => e.event === "turn_done" && e.data.turnId === prompted.body.turnId);
    await sseB.waitFor((e) => e.event === "turn_done" && e.data.turnId === prompted.body.turnId);
    sseB.close();
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
    const db = new pg.Client({ connectionString: fx.url });
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

  it("kill -9 of the instance running a turn: another takes the session over, told the step in flight was interrupted; rows are an in-order prefix with no duplicate step", async () => {
    fx.sb.write("a.txt", "alpha\n");
    fx.sb.write("long.json", JSON.stringify({ steps: [{ repeat: 6, text: "step {{n}}", delay_ms: 400, tool_calls: [{ name: "read", input: { file_path: "a.txt" } }] }, { text: "finished" }] }));
    const [a, b, c] = [await start("inst-a"), await start("inst-b"), await start("inst-c")];
    const id = (await a.api<{ id: string }>("POST", "/session", { model: "scripted/long.json" })).body.id;
    const sseC = await SseReader.open(`${c.url}/event`);
    const prompted = await b.api<{ turnId: string }>("POST", `/session/${id}/prompt`, { text: "do the long thing" });
    expect(prompted.status, JSON.stringify(prompted.body)).toBe(202);
    // mid-turn: after step 2 ended on A (seen on C), A dies without a word
    await sseC.waitFor((e) => e.event === "step_end" && e.data.sessionId === id && e.data.step === 2);
    expect((await a.api<Health>("GET", "/health")).body.claims).toEqual([id]);
    await fx.kill(a);
    // B or C claims it and continues: the script runs on from the last committed step to "finished"
    const end = await sseC.waitFor((e) => turnEndOf(id)(e) && e.data.text === "finished", 30_000);
    expect(end.data.reason).toBe("end_turn");
    const holders = [(await b.api<Health>("GET", "/health")).body, (await c.api<Health>("GET", "/health")).body].filter((h) => h.claims.includes(id));
    expect(holders.length).toBe(1);

    const db = new pg.Client({ connectionString: fx.url });
    await db.connect();
    try {
      // wait for the holder's write-behind to commit the turn's last row
      let rows: Array<{ seq: number; turn: number; step: number; role: string; json: string }> = [];
      for (let i = 0; i < 50; i++) {
        rows = (await db.query("SELECT seq, turn, step, role, json FROM rows WHERE session_id = $1 ORDER BY seq", [id])).rows;
        if (rows.some((r) => r.role === "assistant" && r.json.includes('"finished"'))) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(rows.map((r) => r.seq)).toEqual(rows.map((_r, i) => i + 1));
      for (let i = 1; i < rows.length; i++) {
        const [p, q] = [rows[i - 1]!, rows[i]!];
        expect(q.turn > p.turn || (q.turn === p.turn && q.step >= p.step), `row ${q.seq} after ${p.seq}`).toBe(true);
      }
      const steps = rows.filter((r) => r.role === "assistant").map((r) => `${r.turn}.${r.step}`);
      expect(new Set(steps).size).toBe(steps.length);
      // the takeover turn told the model its previous turn was interrupted
      const users = rows.filter((r) => r.role === "user").map((r) => r.json);
      expect(users.length).toBe(2);
      expect(users[1]).toContain("[interrupted: the oceancode instance running your previous turn stopped");
      expect(users[1]).toContain("do the long thing");
      // the taker records the turn's end right after its turn_end event: wait for it (bounded), never read it at once
      const read = async () => (await db.query("SELECT instance, state, taken_by FROM fleet_turns WHERE session = $1 ORDER BY id", [id])).rows;
      let turns = await read();
      for (const t0 = Date.now(); turns[1]?.state !== "done" && Date.now() - t0 < 10_000; turns = await read()) await new Promise((r) => setTimeout(r, 50));
      expect(turns[0]).toMatchObject({ instance: "inst-a", state: "taken" });
      expect(["inst-b", "inst-c"]).toContain(turns[0].taken_by);
      expect(turns[1]).toMatchObject({ instance: turns[0].taken_by, state: "done" });
    } finally {
      await db.end();
    }
    sseC.close();
  }, 90_000);

  it("a prompt for a session whose holder died idle is taken over by the receiving instance", async () => {
    const [a, b] = [await start("inst-a"), await start("inst-b")];
    const id = (await a.api<{ id: string }>("POST", "/session", { model: "scripted/echo" })).body.id;
    const sse = await SseReader.open(`${b.url}/session/${id}/event`);
    await a.api("POST", `/session/${id}/prompt`, { text: "one" });
    await sse.waitFor((e) => turnEndOf(id)(e) && e.data.text === "ok: one");
    // the store writes behind the step: wait for the turn to be committed (a kill before that loses the uncommitted tail)
    const db = new pg.Client({ connectionString: fx.url });
    await db.connect();
    try {
      // (the schema itself may not be there yet: the store migrates at its first write)
      const committed = () => db.query("SELECT count(*) AS n FROM rows WHERE session_id = $1", [id]).then((r) => Number(r.rows[0].n), () => 0);
      for (let i = 0; i < 50 && (await committed()) < 2; i++) await new Promise((r) => setTimeout(r, 100));
    } finally {
      await db.end();
    }
    await fx.kill(a);
    const p = await b.api<{ turnId: string }>("POST", `/session/${id}/prompt`, { text: "two" });
    expect(p.status, JSON.stringify(p.body)).toBe(202);
    await sse.waitFor((e) => turnEndOf(id)(e) && e.data.text === "ok: two");
    expect((await b.api<Health>("GET", "/health")).body.claims).toEqual([id]);
    sse.close();
  }, 60_000);

  it("30 sessions over three instances, prompted and streamed through different ones; one instance killed mid-turn, the others finish its sessions; every session's rows an in-order prefix with no duplicate step", async () => {
    fx.sb.write("a.txt", "alpha\n");
    // `after`: a taken-over turn continues at the session's next step, which is past the script's end when the
    // kill landed in its last step (the interrupted step counts): it must still answer "finished"
    fx.sb.write("eight.json", JSON.stringify({ steps: [{ repeat: 8, text: "step {{n}}", delay_ms: 400, tool_calls: [{ name: "read", input: { file_path: "a.txt" } }] }, { text: "finished" }], after: { text: "finished" } }));
    const inst = [await start("inst-0"), await start("inst-1"), await start("inst-2")];
    const sse = await SseReader.open(`${inst[2]!.url}/event`);
    const ids: string[] = [];
    for (let i = 0; i < 30; i++) {
      const created = await inst[i % 3]!.api<{ id: string }>("POST", "/session", { model: "scripted/eight.json" });
      expect(created.status).toBe(201);
      ids.push(created.body.id);
    }
    for (let i = 0; i < 30; i++) {
      const p = await inst[(i + 1) % 3]!.api<{ turnId: string }>("POST", `/session/${ids[i]}/prompt`, { text: `task ${i}` });
      expect(p.status, JSON.stringify(p.body)).toBe(202);
    }
    // every session past its first step (so its session row is committed), then inst-0 dies mid-turn
    for (const id of ids) await sse.waitFor((e) => e.event === "step_end" && e.data.sessionId === id && e.data.step === 1, 30_000);
    const held0 = (await inst[0]!.api<Health>("GET", "/health")).body.claims;
    expect(held0.length).toBe(10);
    await fx.kill(inst[0]!);
    for (const id of ids) {
      await sse.waitFor((e) => turnEndOf(id)(e) && e.data.text === "finished", 60_000).catch((err: Error) => {
        const mine = sse.events.filter((e) => e.data.sessionId === id).map((e) => `${e.event}${e.data.step !== undefined ? `#${String(e.data.step)}` : ""}${e.event === "turn_end" ? `(${String(e.data.text)}/${String(e.data.reason ?? e.data.status ?? "")})` : ""}`);
        throw new Error(`${id} (held by inst-0: ${held0.includes(id)}): ${err.message.slice(0, 60)}; its events: ${mine.join(", ")}`);
      });
    }
    const claims = [...(await inst[1]!.api<Health>("GET", "/health")).body.claims, ...(await inst[2]!.api<Health>("GET", "/health")).body.claims];

    const db = new pg.Client({ connectionString: fx.url });
    await db.connect();
    try {
      // inst-0's turns that were still running when it died: each taken over once, by a live instance
      const taken = (await db.query("SELECT session, taken_by FROM fleet_turns WHERE state = 'taken'")).rows as Array<{ session: string; taken_by: string }>;
      expect(taken.length).toBeGreaterThan(0);
      expect(new Set(taken.map((t) => t.session)).size).toBe(taken.length);
      for (const t of taken) {
        expect(held0).toContain(t.session);
        expect(["inst-1", "inst-2"]).toContain(t.taken_by);
        expect(claims).toContain(t.session);
      }
      // a turn's end is recorded right after its turn_end event: wait for it (bounded), never read it at once
      const runningNow = async () => Number((await db.query("SELECT count(*) AS n FROM fleet_turns WHERE state = 'running'")).rows[0].n);
      let stillRunning = await runningNow();
      for (const t0 = Date.now(); stillRunning > 0 && Date.now() - t0 < 10_000; stillRunning = await runningNow()) await new Promise((r) => setTimeout(r, 50));
      expect(stillRunning).toBe(0);
      for (const id of ids) {
        let rows: Array<{ seq: number; turn: number; step: number; role: string; json: string }> = [];
        for (let i = 0; i < 50; i++) {
          rows = (await db.query("SELECT seq, turn, step, role, json FROM rows WHERE session_id = $1 ORDER BY seq", [id])).rows;
          if (rows.some((r) => r.role === "assistant" && r.json.includes('"finished"'))) break;
          await new Promise((r) => setTimeout(r, 100));
        }
        expect(rows.map((r) => r.seq), id).toEqual(rows.map((_r, i) => i + 1));
        for (let i = 1; i < rows.length; i++) {
          const [p, q] = [rows[i - 1]!, rows[i]!];
          expect(q.turn > p.turn || (q.turn === p.turn && q.step >= p.step), `${id}: row ${q.seq} after ${p.seq}`).toBe(true);
        }
        const steps = rows.filter((r) => r.role === "assistant").map((r) => `${r.turn}.${r.step}`);
        expect(new Set(steps).size, id).toBe(steps.length);
        // a session whose turn was taken over has the continuation turn; the others ran one turn
        const users = rows.filter((r) => r.role === "user").length;
        expect(users, id).toBe(taken.some((t) => t.session === id) ? 2 : 1);
      }
    } finally {
      await db.end();
    }
    sse.close();
  }, 180_000);
});

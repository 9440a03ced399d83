/**
 * Fleet metrics on a real PostgreSQL fleet: the instance that takes a session over after kill -9 of its
 * holder mid-turn counts the takeover (oceancode_fleet_takeovers_total) and holds its lease
 * (oceancode_fleet_leases); the other instance's counts stay at 0. Read with the real Prometheus parser.
 */
import { describe, expect, it } from "vitest";
import { parseProm, sample } from "../../../test/kit/prom.js";
import { SseReader, turnEndOf, type Served } from "../../serve/test/serve-helpers.js";
import { fleetFixture, type Health } from "./fleet-helpers.js";

const fx = fleetFixture("fleetmetrics");

async function scrape(s: Served): Promise<{ text: string; families: ReturnType<typeof parseProm> }> {
  const res = await fetch(`${s.url}/metrics`);
  expect(res.status).toBe(200);
  const text = await res.text();
  return { text, families: parseProm(text) };
}

describe("serve fleet: metrics", () => {
  it("a takeover after kill -9 mid-turn is counted by the instance that took it, with its lease", async () => {
    fx.sb.write("a.txt", "alpha\n");
    fx.sb.write("long.json", JSON.stringify({ steps: [{ repeat: 4, text: "step {{n}}", delay_ms: 300, tool_calls: [{ name: "read", input: { file_path: "a.txt" } }] }, { text: "finished" }] }));
    const [a, b] = [await fx.start("inst-a"), await fx.start("inst-b")];
    const before = await scrape(b);
    expect(sample(before.text, before.families, "oceancode_fleet_takeovers_total")).toBe(0);
    expect(sample(before.text, before.families, "oceancode_fleet_leases")).toBe(0);
    const id = (await a.api<{ id: string }>("POST", "/session", { model: "scripted/long.json" })).body.id;
    const sse = await SseReader.open(`${b.url}/event`);
    expect((await a.api("POST", `/session/${id}/prompt`, { text: "do the long thing" })).status).toBe(202);
    await sse.waitFor((e) => e.event === "step_end" && e.data.sessionId === id && e.data.step === 2);
    const onA = await scrape(a);
    expect(sample(onA.text, onA.families, "oceancode_fleet_leases")).toBe(1);
    await fx.kill(a);
    await sse.waitFor((e) => turnEndOf(id)(e) && e.data.text === "finished", 30_000);
    expect((await b.api<Health>("GET", "/health")).body.claims).toEqual([id]);
    const after = await scrape(b);
    expect(sample(after.text, after.families, "oceancode_fleet_takeovers_total")).toBe(1);
    expect(sample(after.text, after.families, "oceancode_fleet_leases")).toBe(1);
    sse.close();
  }, 60_000);
});

/**
 * GET /session/:id/tideline and GET /session/:id/meter on a real kernel, engine, ledger and SQLite storage
 * with the scripted model: the answers are the tideline service's meter (what the pager's status bar and
 * /context show), they conform to their schemas, and Fastify serializes them without dropping a key.
 */
import { afterEach, describe, expect, it } from "vitest";
import type { Session } from "../../../engine/api.js";
import type { TidelineService } from "../../../tideline/api.js";
import { tidelineRoutes, type MeterAnswer, type TidelineAnswer } from "../../../tideline/routes.js";
import { buildMeter } from "../../../../hosts/pager/meter.js";
import type { RouteDefinition } from "../../api.js";
import { boot, mount, problems, request, routeOf, shutdown, type Booted } from "./helpers.js";

let b: Booted | undefined;
afterEach(async () => {
  await shutdown(b);
  b = undefined;
});

async function get<T>(routes: RouteDefinition[], url: string, s: Session): Promise<T> {
  const r = routeOf(routes, "GET", url);
  const out = await r.handler(request(b!.engine, { params: { id: s.info.id } }));
  expect(problems(r.schema!.response![200]!, out)).toEqual([]);
  return out as T;
}

describe("tideline and meter routes", () => {
  it("after a turn: the line, the gauge and no cuts; the meter's numbers are the ones the pager's status bar shows", async () => {
    b = await boot();
    const tideline = await b.kernel.service("tideline");
    const routes = tidelineRoutes(tideline);
    const s = await b.engine.createSession({ cwd: b.sb.project, model: "scripted/echo" });
    await b.engine.prompt(s, "first");
    await b.engine.prompt(s, "second");

    const t = await get<TidelineAnswer>(routes, "/session/:id/tideline", s);
    expect(t).toMatchObject({ sessionId: s.info.id, model: "scripted/echo", enabled: true, contextWindow: 200_000, cuts: 0, cutSeq: 0 });
    expect(t.line).toMatchObject({ line: 80_000, mode: "percent", percent: 40, clamped: false });
    expect(t.used).toBeGreaterThan(0);
    expect(t.toGo).toBe(80_000 - t.used);
    expect(t.status).toBe(tideline.meter(s).status);

    const m = await get<MeterAnswer>(routes, "/session/:id/meter", s);
    expect(m).toMatchObject({ sessionId: s.info.id, turns: 2, steps: s.totals.steps, costUsd: 0 });
    expect(m.steps).toBeGreaterThanOrEqual(2);
    const bar = buildMeter({ model: await b.engine.describeModel("scripted/echo"), totals: s.totals, gaugeTokens: 0, meter: tideline.meter(s) });
    expect(m.inputTokens + m.cacheReadTokens + m.cacheWriteTokens).toBe(bar.inputTokens);
    expect(m.inputTokens).toBeGreaterThan(0);
    expect(m.outputTokens).toBe(bar.outputTokens);
    expect(m.costUsd).toBe(bar.spentUsd);
    expect([m.used, m.contextWindow]).toEqual([bar.contextUsed, bar.contextWindow]);
  });

  it("a session whose window was cut: the cuts, the cut seq and a token line show", async () => {
    b = await boot((sb) => {
      sb.write("big.txt", "zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz\n".repeat(100));
      sb.write("script.json", JSON.stringify({ context_window: 100_000, steps: [{ text: "reading {{n}}", tool_calls: [{ name: "read", input: { file_path: "big.txt" } }], repeat: 30 }, { text: "finished" }] }));
    });
    const routes = tidelineRoutes(await b.kernel.service("tideline"));
    const s = await b.engine.createSession({ cwd: b.sb.project, model: "scripted/script.json", overrides: { tideline: "20k" } });
    await b.engine.prompt(s, "read it thirty times");
    const t = await get<TidelineAnswer>(routes, "/session/:id/tideline", s);
    expect(t.line).toMatchObject({ line: 20_000, mode: "tokens" });
    expect(t.status).toMatch(/^tideline @20k: \d+k? to go$/);
    expect(t.cuts).toBeGreaterThan(0);
    expect(t.cutSeq).toBeGreaterThan(0);
    expect(t.contextWindow).toBe(100_000);
  });

  it("ledger off: no line, no cuts, 'tideline off' (nulls conform to the schema)", async () => {
    b = await boot((sb) => void sb.write(".oceancode/oceancode.json", JSON.stringify({ ledger: { enabled: false } })));
    const routes = tidelineRoutes(await b.kernel.service("tideline"));
    const s = await b.engine.createSession({ cwd: b.sb.project, model: "scripted/echo" });
    await b.engine.prompt(s, "hi");
    const t = await get<TidelineAnswer>(routes, "/session/:id/tideline", s);
    expect(t).toMatchObject({ enabled: false, line: null, toGo: null, status: "tideline off", cuts: 0 });
    const m = await get<MeterAnswer>(routes, "/session/:id/meter", s);
    expect(m.status).toBe("tideline off");
    expect(m.turns).toBe(1);
  });

  it("mounted on Fastify: the serialized answers keep every key, an unknown session is 404", async () => {
    b = await boot();
    const routes = tidelineRoutes(await b.kernel.service("tideline"));
    const app = await mount(routes, b.engine);
    try {
      const s = await b.engine.createSession({ cwd: b.sb.project, model: "scripted/echo" });
      await b.engine.prompt(s, "hi");
      for (const url of ["/session/:id/tideline", "/session/:id/meter"]) {
        const direct = await routeOf(routes, "GET", url).handler(request(b.engine, { params: { id: s.info.id } }));
        const res = await app.inject({ method: "GET", url: url.replace(":id", s.info.id) });
        expect(res.statusCode).toBe(200);
        expect(res.json()).toEqual(direct);
      }
      const missing = await app.inject({ method: "GET", url: "/session/ses_nope/meter" });
      expect(missing.statusCode).toBe(404);
      expect(missing.json()).toMatchObject({ error: { code: "session_not_found" } });
    } finally {
      await app.close();
    }
  });
});

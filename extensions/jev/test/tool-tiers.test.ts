/**
 * Point 5 (tool_tiers) on a real kernel with ten extra tools registered: shadow asks every prompt and
 * changes nothing; act offers core + 4 extras (8 when needs_more_than_core >= 0.6), reuses the keep-set on
 * a prompt sharing vocabulary (one acted sticky row, no request), grows it on a new-vocabulary prompt;
 * tool_search adds a hidden tool; an unavailable endpoint offers every tool.
 */
import { describe, expect, it } from "vitest";
import type { FakeSystemOne } from "../../../test/kit/fakes/systemone-server.js";
import { CORE_TOOLS, TOOL_SEARCH, installToolTiers, toolTiersPolicy } from "../points/tool-tiers.js";
import { sharesVocabulary, STICKY_REASON } from "../points/advise.js";
import type { ToolDefinition } from "../../engine/api.js";
import { comparable, testJev, type Booted, type Step, jevTests, rankedAnswer } from "./points-helpers.js";

let b: Booted | undefined;
let fake: FakeSystemOne | undefined;
const { bootPoints, startFakeSystemOne } = jevTests();

const EXTRA = ["web_fetch", "web_search", "notebook_edit", "db_query", "db_migrate", "bench_run", "image_view", "pdf_read", "calendar", "mailer"];
const tool = (name: string): ToolDefinition => ({
  name,
  kind: "other",
  description: `the ${name.replace("_", " ")} tool`,
  inputSchema: { type: "object", properties: {} },
  run: async () => ({ content: `${name} ran` }),
});

const P1 = "fetch the release notes from the website and summarise them";
const P2 = "summarise the release notes again, shorter";
const P3 = "now benchmark the database migrations under heavy load";

/** Ranks the options by a per-prompt preference list (the rest share what is left). */
const answerBy = (noul: number) =>
  rankedAnswer({ gate: "needs_more_than_core", question: "extras", top: 0.3, step: 0.05, noul, prefer: (prompt) => (prompt.includes("benchmark") ? ["bench_run", "db_query", "db_migrate", "mailer", "calendar"] : ["web_fetch", "web_search", "pdf_read", "image_view", "mailer"]) });

async function setup(steps: Step[] = [], noul = 0.3) {
  fake = await startFakeSystemOne();
  fake.answer(answerBy(noul));
  b = await bootPoints(steps);
  for (const n of EXTRA) b.engine.tools.register(tool(n), "test");
  const jev = testJev({ url: fake.url });
  installToolTiers(b.ctx, jev);
  return jev;
}

const newSession = () => b!.engine.createSession({ cwd: b!.sb.project, model: "scripted/script.json" });
const core = (tools: string[]) => tools.filter((t) => CORE_TOOLS.includes(t) && t !== TOOL_SEARCH);

describe("jev point 5: tool_tiers", () => {
  it("shadow: every prompt is asked, the requests are identical to the layer off, no sticky row", async () => {
    const jev = await setup();
    const off = await newSession();
    for (const p of [P1, P2, P3]) await b!.engine.prompt(off, p);
    jev.modes.tool_tiers = "shadow";
    const sh = await newSession();
    for (const p of [P1, P2, P3]) await b!.engine.prompt(sh, p);
    await jev.idle(3);
    expect(b!.requests).toHaveLength(6);
    expect(comparable(b!.requests.slice(3), b!.sb).replaceAll(sh.info.id, "S")).toBe(comparable(b!.requests.slice(0, 3), b!.sb).replaceAll(off.info.id, "S"));
    expect(b!.requests[0]!.tools).not.toContain(TOOL_SEARCH);
    for (const n of EXTRA) expect(b!.requests[3]!.tools).toContain(n);
    expect(fake!.count).toBe(3);
    expect(jev.rows.map((r) => [r.point, r.mode, r.outcome])).toEqual(Array(3).fill(["tool_tiers", "shadow", "shadow"]));
    expect(jev.rows[0]!.verdict).toBe("narrow;extra:web_fetch,web_search,pdf_read,image_view");
    expect(jev.rows[0]!.baseline).toBe("all");
  });

  it("shadow is off the critical path: a 3 s endpoint does not hold the prompt", async () => {
    const jev = await setup();
    fake!.respond((req) => ({ answers: answerBy(0.3)(req), latencyMs: 3_000 }));
    jev.modes.tool_tiers = "shadow";
    const s = await newSession();
    const t0 = Date.now();
    await b!.engine.prompt(s, P1);
    expect(Date.now() - t0).toBeLessThan(2_500);
    expect(jev.rows).toHaveLength(0);
    await jev.idle(1);
    expect(jev.rows).toHaveLength(1);
    expect(jev.rows[0]).toMatchObject({ outcome: "shadow" });
  });

  it("act: core + 4 extras; a prompt sharing vocabulary reuses them with one sticky row and no request; a new one grows the set", async () => {
    const jev = await setup();
    const off = await newSession();
    await b!.engine.prompt(off, P1);
    const all = b!.requests[0]!.tools;
    jev.modes.tool_tiers = "act";
    const s = await newSession();
    await b!.engine.prompt(s, P1);
    const first = b!.requests[1]!.tools;
    expect(core(first)).toEqual(core(all));
    expect(first.filter((t) => !CORE_TOOLS.includes(t)).sort()).toEqual(["image_view", "pdf_read", "web_fetch", "web_search"]);
    expect(first).toContain(TOOL_SEARCH);
    expect(jev.rows).toHaveLength(1);
    expect(jev.rows[0]).toMatchObject({ point: "tool_tiers", mode: "act", outcome: "acted", verdict: "narrow;extra:web_fetch,web_search,pdf_read,image_view" });

    expect(sharesVocabulary(P2, P1)).toBe(true);
    await b!.engine.prompt(s, P2);
    expect(fake!.count).toBe(1);
    expect(b!.requests[2]!.tools).toEqual(first);
    expect(jev.rows).toHaveLength(2);
    expect(jev.rows[1]).toMatchObject({ point: "tool_tiers", mode: "act", outcome: "acted", verdict: "sticky", answers: STICKY_REASON, latency_ms: 0 });

    expect(sharesVocabulary(P3, P2)).toBe(false);
    await b!.engine.prompt(s, P3);
    expect(fake!.count).toBe(2);
    const grown = b!.requests[3]!.tools.filter((t) => !CORE_TOOLS.includes(t)).sort();
    expect(grown).toEqual(["bench_run", "db_migrate", "db_query", "image_view", "mailer", "pdf_read", "web_fetch", "web_search"]);
    expect(jev.rows[2]).toMatchObject({ outcome: "acted", verdict: "narrow;extra:bench_run,db_query,db_migrate,mailer" });
  });

  it("act: needs_more_than_core at 0.6 advertises 8 extras (wide)", async () => {
    const jev = await setup([], 0.6);
    jev.modes.tool_tiers = "act";
    const s = await newSession();
    await b!.engine.prompt(s, P1);
    expect(b!.requests[0]!.tools.filter((t) => !CORE_TOOLS.includes(t))).toHaveLength(8);
    expect(jev.rows[0]!.verdict).toMatch(/^wide;extra:web_fetch,web_search,pdf_read,image_view,mailer,/);
  });

  it("act: tool_search finds a hidden tool and it is offered from the next step", async () => {
    const jev = await setup([{ tool_calls: [{ name: TOOL_SEARCH, input: { query: "migrate" } }] }, { text: "done" }]);
    jev.modes.tool_tiers = "act";
    const s = await newSession();
    await b!.engine.prompt(s, P1);
    expect(b!.requests[0]!.tools).not.toContain("db_migrate");
    expect(b!.requests[1]!.tools).toContain("db_migrate");
    const result = b!.requests[1]!.rows.find((r) => r.role === "tool");
    expect(JSON.stringify(result)).toContain("added to your tools from the next step");
  });

  it("act with the endpoint unavailable: every tool is offered, an unavailable row, and the next prompt asks again", async () => {
    const jev = await setup();
    fake!.respond(() => ({ type: "error", status: 500 }));
    const off = await newSession();
    await b!.engine.prompt(off, P1);
    jev.modes.tool_tiers = "act";
    const s = await newSession();
    await b!.engine.prompt(s, P1);
    await b!.engine.prompt(s, P2);
    expect(b!.requests[1]!.tools).toEqual(b!.requests[0]!.tools);
    expect(b!.requests[2]!.tools).toEqual(b!.requests[0]!.tools);
    expect(jev.rows.map((r) => [r.outcome, r.verdict])).toEqual([
      ["unavailable", "all"],
      ["unavailable", "all"],
    ]);
  });

  it("the policy: narrow below needs_more_than_core, wide at it; most likely first", () => {
    const probs = { "a: x": 0.5, "b: x": 0.2, "c: x": 0.1, "d: x": 0.1, "e: x": 0.05, "f: x": 0.05 };
    const ans = (noul: number) => ({ needs_more_than_core: { type: "noul" as const, noul }, extras: { type: "choice" as const, choice: "a: x", confidence: 0.5, probabilities: probs } });
    expect(toolTiersPolicy(ans(0.59))).toEqual({ verdict: "narrow;extra:a,b,c,d", value: ["a", "b", "c", "d"] });
    expect(toolTiersPolicy(ans(0.6)).value).toEqual(["a", "b", "c", "d", "e", "f"]);
  });
});

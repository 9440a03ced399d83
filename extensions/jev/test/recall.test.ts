/**
 * Point 3 (recall) on a real kernel with a low tideline (20k, blocks of 3k; scripted usage pushes the gauge
 * over it in turn 2): at turn 3's first step the tool results past the cut are offered as excerpts; shadow
 * records and changes nothing, act appends the recalled excerpt as a pointer-read note at the end of the
 * window and keeps it in place on the next step, an unavailable endpoint changes nothing.
 */
import { describe, expect, it } from "vitest";
import type { FakeSystemOne } from "../../../test/kit/fakes/systemone-server.js";
import { installRecall, recallPolicy } from "../points/recall.js";
import type { Row } from "../../engine/api.js";
import { comparable, testJev, type Booted, type Step, jevTests } from "./points-helpers.js";

const STEPS: Step[] = [
  { text: "reading the report", tool_calls: [{ name: "bash", input: { command: "cat report.txt" } }], usage: { input: 1_000 } },
  { text: "read it", usage: { input: 5_000 } },
  { text: "second", tool_calls: [{ name: "bash", input: { command: "echo second" } }], usage: { input: 9_000 } },
  { text: "done second", usage: { input: 26_000 } },
  { text: "third", tool_calls: [{ name: "bash", input: { command: "echo third" } }], usage: { input: 2_000 } },
  { text: "the build id is 7f3a", usage: { input: 2_500 } },
  { text: "7f3a again", usage: { input: 3_000 } },
];
const FILES = { "report.txt": "build report\nBUILD-ID 7f3a9c\nall green\n" };
const CONFIG = { ledger: { tideline: { tokens: 20_000, block: 3_000 } } };
const PROMPTS = ["check the build report", "now run the second thing", "what was the build id?"];

let b: Booted | undefined;
let fake: FakeSystemOne | undefined;
const { bootPoints, startFakeSystemOne } = jevTests();

async function setup() {
  fake = await startFakeSystemOne();
  fake.answer((req) => {
    const ex = (req.body.state as { excerpts: Array<{ label: string; text: string }> }).excerpts;
    const hit = ex.find((e) => e.text.includes("BUILD-ID"))?.label ?? "none";
    return { needed: { type: "choice", choice: hit, confidence: 0.8 } };
  });
  b = await bootPoints(STEPS, { files: FILES, config: CONFIG });
  const jev = testJev({ url: fake.url });
  installRecall(b.ctx, jev);
  return jev;
}

async function run() {
  const s = await b!.engine.createSession({ cwd: b!.sb.project, model: "scripted/script.json" });
  for (const p of PROMPTS) await b!.engine.prompt(s, p);
  return s;
}
const reqsOf = (from: number) => b!.requests.slice(from, from + 6);
const text = (rows: Row[]) => JSON.stringify(rows);

describe("jev point 3: recall", () => {
  it("off: the tideline cut turn 1's output out of turn 3's window (the fixture works)", async () => {
    await setup();
    await run();
    const r5 = b!.requests.find((r) => r.sessionStep === 5)!;
    expect(text(r5.rows)).not.toContain("BUILD-ID");
    expect(text(b!.requests[1]!.rows)).toContain("BUILD-ID");
    expect(fake!.count).toBe(0);
  });

  it("shadow: the requests are identical to the layer off, and one shadow row picks the excerpt", async () => {
    const jev = await setup();
    const off = await run();
    jev.modes.recall = "shadow";
    const sh = await run();
    await jev.idle(1);
    expect(comparable(reqsOf(6), b!.sb).replaceAll(sh.info.id, "S")).toBe(comparable(reqsOf(0), b!.sb).replaceAll(off.info.id, "S"));
    expect(jev.rows).toHaveLength(1);
    expect(jev.rows[0]).toMatchObject({ point: "recall", mode: "shadow", outcome: "shadow", verdict: "recall:E1", baseline: "none" });
    const st = jev.rows[0]!.state as { prompt: string; excerpts: Array<{ label: string; tool: string; text: string }> };
    expect(st.prompt).toBe("what was the build id?");
    expect(st.excerpts[0]).toMatchObject({ label: "E1", tool: "bash" });
    expect(st.excerpts[0]!.text).toContain("BUILD-ID 7f3a9c");
  });

  it("act: the excerpt comes back as a pointer-read note at the end of the window, and stays in place on the next step", async () => {
    const jev = await setup();
    jev.modes.recall = "act";
    await run();
    const r5 = b!.requests.find((r) => r.sessionStep === 5)!;
    const last = r5.rows[r5.rows.length - 1]!;
    expect(last.role).toBe("note");
    const note = (last as { text: string }).text;
    expect(note).toMatch(/^\[jev recall: a pointer-read of an earlier tool result past the tideline — seq \d+, bash \{"command":"cat report.txt"\}; verbatim in \S+\/transcript\/\]\n/);
    expect(note).toContain("BUILD-ID 7f3a9c");
    expect(r5.rows[r5.rows.length - 2]).toMatchObject({ role: "user", text: "what was the build id?" });
    // the next step: the same rows up to and including the note (the prefix is not rewritten), then the new ones
    const r6 = b!.requests.find((r) => r.sessionStep === 6)!;
    expect(JSON.stringify(r6.rows.slice(0, r5.rows.length))).toBe(JSON.stringify(r5.rows));
    expect(r6.rows.slice(r5.rows.length).map((r) => r.role)).toEqual(["assistant", "tool"]);
    expect(jev.rows).toHaveLength(1);
    expect(jev.rows[0]).toMatchObject({ point: "recall", mode: "act", outcome: "acted", verdict: "recall:E1" });
  });

  it("act: a recalled excerpt is not offered again while its note is in the window", async () => {
    const jev = await setup();
    jev.modes.recall = "act";
    const s = await run();
    await b!.engine.prompt(s, "and print the build id once more for the release");
    const r7 = b!.requests.find((r) => r.sessionStep === 7)!;
    expect(r7.rows.filter((r) => r.role === "note" && r.text.startsWith("[jev recall:"))).toHaveLength(1);
    expect(fake!.requests).toHaveLength(2); // turn 4 asked again, over what is left
    for (const q of fake!.requests.slice(1)) expect(JSON.stringify(q.body.state)).not.toContain("BUILD-ID");
    expect(jev.rows[0]).toMatchObject({ outcome: "acted", verdict: "recall:E1" });
  });

  it("act with the endpoint unavailable: nothing recalled, an unavailable row", async () => {
    const jev = await setup();
    fake!.respond(() => ({ type: "error", status: 502 }));
    const off = await run();
    jev.modes.recall = "act";
    const s = await run();
    expect(comparable(reqsOf(6), b!.sb).replaceAll(s.info.id, "S")).toBe(comparable(reqsOf(0), b!.sb).replaceAll(off.info.id, "S"));
    expect(jev.rows).toHaveLength(1);
    expect(jev.rows[0]).toMatchObject({ point: "recall", outcome: "unavailable", verdict: "none" });
  });

  it("the policy: none wins; else the excerpts over the floor, at most recall_max", () => {
    const ans = (choice: string, probabilities: Record<string, number>) => ({ needed: { type: "choice" as const, choice, confidence: probabilities[choice]!, probabilities } });
    expect(recallPolicy(ans("none", { none: 0.5, E1: 0.4 })).value).toBeUndefined();
    expect(recallPolicy(ans("E2", { none: 0.1, E1: 0.3, E2: 0.5, E3: 0.35 }))).toEqual({ verdict: "recall:E2,E3", value: ["E2", "E3"] });
    expect(recallPolicy(ans("E2", { none: 0.3, E2: 0.25 })).value).toBeUndefined();
  });
});

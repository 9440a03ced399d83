/**
 * Point 2 (output) on a real kernel: a bash output the tools extension truncates (max_output_chars 2000)
 * is split into blocks; shadow records and changes nothing, act keeps the chosen block, an unavailable
 * endpoint keeps today's head + tail.
 */
import fs from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import type { FakeSystemOne } from "../../../test/kit/fakes/systemone-server.js";
import { installOutput, outputPolicy } from "../points/output.js";
import { splitOutputBlocks } from "../../tools/kit.js";
import type { ToolRow } from "../../engine/api.js";
import { comparable, testJev, type Booted, jevTests } from "./points-helpers.js";

const paragraphs = Array.from({ length: 30 }, (_, i) =>
  [`section ${i + 1}`, ...Array.from({ length: 4 }, (_, j) => `  line ${j + 1} of section ${i + 1}: ${"x".repeat(40)}`), ...(i === 17 ? ["  NEEDLE: the answer is 42"] : [])].join("\n"),
);
const BIG = `${paragraphs.join("\n\n")}\n`;
const STEPS = [{ text: "Looking for the answer in the report.", tool_calls: [{ name: "bash", input: { command: "cat big.txt" } }] }, { text: "done" }];
const CONFIG = { tools: { max_output_chars: 2000 } };

let b: Booted | undefined;
let fake: FakeSystemOne | undefined;
const { bootPoints, startFakeSystemOne } = jevTests();

const needleLabel = (state: unknown): string => {
  const blocks = (state as { output: { blocks: Array<{ label: string; text: string }> } }).output.blocks;
  return blocks.find((x) => x.text.includes("NEEDLE"))!.label;
};

async function setup() {
  fake = await startFakeSystemOne();
  fake.answer((req) => ({ block: { type: "choice", choice: needleLabel(req.body.state), confidence: 0.8 } }));
  b = await bootPoints(STEPS, { files: { "big.txt": BIG }, config: CONFIG });
  const jev = testJev({ url: fake.url });
  installOutput(b.ctx, jev);
  return jev;
}

/** The tool result the model saw in the second request of a session. */
const seen = (b: Booted, from: number): string => {
  const req = b.requests.filter((r) => r.sessionStep === 2)[from]!;
  return (req.rows.find((r) => r.role === "tool") as ToolRow).results[0]!.content;
};

describe("jev point 2: output", () => {
  beforeAll(() => {
    // the fixture's needle sits in one block, past the head
    const blocks = splitOutputBlocks(BIG);
    expect(blocks.length).toBe(30);
    expect(blocks.find((x) => x.text.includes("NEEDLE"))!.label).toBe("B18");
  });

  it("shadow: the model requests are identical to the layer off, and one shadow row names the block", async () => {
    const jev = await setup();
    const off = await b!.engine.createSession({ cwd: b!.sb.project, model: "scripted/script.json" });
    await b!.engine.prompt(off, "find the answer");
    expect(fake!.count).toBe(0);
    jev.modes.output = "shadow";
    const sh = await b!.engine.createSession({ cwd: b!.sb.project, model: "scripted/script.json" });
    await b!.engine.prompt(sh, "find the answer");
    await jev.idle(1);
    const [a, c] = [b!.requests.slice(0, 2), b!.requests.slice(2, 4)];
    expect(comparable(c, b!.sb).replaceAll(sh.info.id, "S")).toBe(comparable(a, b!.sb).replaceAll(off.info.id, "S"));
    expect(seen(b!, 1)).toContain("[truncated");
    expect(seen(b!, 1)).not.toContain("NEEDLE");
    expect(jev.rows).toHaveLength(1);
    expect(jev.rows[0]).toMatchObject({ point: "output", mode: "shadow", outcome: "shadow", verdict: "keep:B18", baseline: "head", session: sh.info.id });
    const st = jev.rows[0]!.state as { step: { intent: string; call: { tool: string } }; output: { blocks: unknown[] } };
    expect(st.step.intent).toBe("Looking for the answer in the report.");
    expect(st.step.call.tool).toBe("bash");
    expect(st.output.blocks).toHaveLength(30);
    expect(fake!.requests[0]!.headers["x-jev-point"]).toBe("output");
  });

  it("act: the model sees the head line, the chosen block and the last line; the full output stays on disk", async () => {
    const jev = await setup();
    jev.modes.output = "act";
    const s = await b!.engine.createSession({ cwd: b!.sb.project, model: "scripted/script.json" });
    await b!.engine.prompt(s, "find the answer");
    const text = seen(b!, 0);
    expect(text).toContain("NEEDLE: the answer is 42");
    expect(text.startsWith("section 1\n")).toBe(true);
    expect(text).toMatch(/kept block B18 of 30, lines \d+-\d+ \(chosen by jev output\); full output kept at (\S+)\]/);
    expect(text).not.toContain("section 2\n");
    expect(text.trimEnd().endsWith("exit code: 0")).toBe(true);
    const file = /full output kept at (\S+)\]/.exec(text)![1]!;
    expect(fs.readFileSync(file, "utf8")).toContain(BIG.trimEnd());
    expect(jev.rows).toHaveLength(1);
    expect(jev.rows[0]).toMatchObject({ point: "output", mode: "act", outcome: "acted", verdict: "keep:B18", baseline: "head" });
  });

  it("act with a low-confidence answer keeps the head + tail (a fallback row)", async () => {
    const jev = await setup();
    fake!.answer(() => ({ block: { type: "choice", choice: "B18", confidence: 0.1, probabilities: { B18: 0.1 } } }));
    jev.modes.output = "act";
    const s = await b!.engine.createSession({ cwd: b!.sb.project, model: "scripted/script.json" });
    await b!.engine.prompt(s, "find the answer");
    expect(seen(b!, 0)).not.toContain("NEEDLE");
    expect(seen(b!, 0)).not.toContain("kept block");
    expect(jev.rows[0]).toMatchObject({ outcome: "fallback" });
    expect(jev.rows[0]!.verdict).toMatch(/^head \(B18 at 0\.10 < 0\.4\)$/);
  });

  it("act with the endpoint unavailable: today's head + tail, an unavailable row", async () => {
    const jev = await setup();
    fake!.respond(() => ({ type: "error", status: 503 }));
    const off = await b!.engine.createSession({ cwd: b!.sb.project, model: "scripted/script.json" });
    await b!.engine.prompt(off, "find the answer");
    jev.modes.output = "act";
    const s = await b!.engine.createSession({ cwd: b!.sb.project, model: "scripted/script.json" });
    await b!.engine.prompt(s, "find the answer");
    expect(comparable(b!.requests.slice(2, 4), b!.sb).replaceAll(s.info.id, "S")).toBe(comparable(b!.requests.slice(0, 2), b!.sb).replaceAll(off.info.id, "S"));
    expect(jev.rows).toHaveLength(1);
    expect(jev.rows[0]).toMatchObject({ point: "output", mode: "act", outcome: "unavailable", verdict: "head", answers: "HTTP 503" });
  });

  it("the policy: keep:<label> at or above output_block, else head", () => {
    const ans = (choice: string, p: number) => ({ block: { type: "choice" as const, choice, confidence: p, probabilities: { [choice]: p } } });
    expect(outputPolicy(ans("B3", 0.4))).toEqual({ verdict: "keep:B3", value: "B3" });
    expect(outputPolicy(ans("B3", 0.39)).value).toBeUndefined();
    expect(outputPolicy(ans("B3", 0.3), { output_block: 0.25 }).value).toBe("B3");
  });
});

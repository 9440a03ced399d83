/**
 * The needle: end to end through the compiled CLI against the fake Anthropic server (the real SDK), with a
 * low line. An early step's tool output carries a unique value in its middle. Once a cut elides that
 * output in the window, the request carries the pointer (and not the value); the scripted model follows
 * the pointer with the command it names, and the tool result it gets back holds the value.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { anthropicEnv, makeSandbox, runCliAsync, type Sandbox } from "../../../test/kit/cli.js";
import { startFakeAnthropic, type AnthropicRecorded, type FakeAnthropicServer } from "../../../test/kit/fakes/anthropic-server.js";

// the command prints the value from two numbers, so the value itself appears only in the tool's output
const A = 0x7f3a9c2e;
const B = 0x51d84b06;
const VALUE = `${A.toString(16)}${B.toString(16)}`;
const NEEDLE = `NEEDLE=${VALUE}`;
const NEEDLE_STEP = 5;
const MAX_STEPS = 40;
const LINES = 60;

/** Step i prints LINES lines (~4 KB); step NEEDLE_STEP has the needle on its middle line. */
const command = (i: number) =>
  i === NEEDLE_STEP
    ? `for j in $(seq 1 ${LINES}); do if [ $j -eq ${LINES / 2} ]; then printf 'NEEDLE=%x%x\\n' ${A} ${B}; else echo "step-${i} line-$j 0123456789abcdefghijklmnopqrstuvwxyz0123456789"; fi; done`
    : `for j in $(seq 1 ${LINES}); do echo "step-${i} line-$j 0123456789abcdefghijklmnopqrstuvwxyz0123456789"; done`;

type Block = { type: string; text?: string; id?: string; tool_use_id?: string; content?: unknown };

const blocksOf = (req: AnthropicRecorded): Block[] => (req.body.messages ?? []).flatMap((m) => (typeof m.content === "string" ? [] : (m.content as Block[])));
const textOf = (b: Block): string => (typeof b.content === "string" ? b.content : JSON.stringify(b.content ?? ""));

let fake: FakeAnthropicServer;
let sb: Sandbox;
let result: { code: number | null; stdout: string; stderr: string };
let askedAt = -1;
let sedCommand = "";

beforeAll(async () => {
  fake = await startFakeAnthropic();
  let step = 0;
  let phase: "steps" | "read" | "done" = "steps";
  fake.respond((req) => {
    if (phase === "read") {
      phase = "done";
      return { text: "found it" };
    }
    // has a cut elided the needle's output in this request? then a late step asks for the value
    const needleResult = blocksOf(req).find((b) => b.type === "tool_result" && b.tool_use_id === `toolu_${NEEDLE_STEP}`);
    const pointer = needleResult ? /read it with: (sed -n '[^']+' \S+?)\]/.exec(textOf(needleResult).replace(/\\n/g, "\n")) : null;
    if (pointer && step > NEEDLE_STEP) {
      phase = "read";
      askedAt = fake.requests.indexOf(req);
      sedCommand = pointer[1]!;
      return { text: `I need the NEEDLE value from step ${NEEDLE_STEP}; its output is elided here, so I read it back.`, toolCalls: [{ id: "toolu_read", name: "bash", input: { command: sedCommand } }] };
    }
    step += 1;
    if (step > MAX_STEPS) return { text: "never elided" };
    return { text: `step ${step}`, toolCalls: [{ id: `toolu_${step}`, name: "bash", input: { command: command(step) } }] };
  });
  sb = makeSandbox("oc-needle-");
  // a low line (12k tokens, ~3 steps a block): cuts come within a few steps; the newest 2 steps stay whole
  sb.write(".oceancode/oceancode.json", JSON.stringify({ ledger: { tideline: { tokens: 12_000, block: 3_000, elide: { keep_steps: 2 } } } }));
  result = await runCliAsync(["run", "--auto", "--model", "anthropic/claude-sonnet-4-5", "run the steps"], {
    cwd: sb.project,
    env: anthropicEnv(sb, fake.url),
    timeoutMs: 120_000, // ~15 requests: a few seconds on an idle machine; generous for a loaded one
  });
}, 150_000);

afterAll(async () => {
  await fake.close();
  sb.cleanup();
});

describe("a value only in an early, elided tool output", () => {
  it("the run ends normally after reading the value back", () => {
    expect(result.stderr).not.toMatch(/'(ledger|tideline)' failed|error: (ledger|tideline)/i);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("found it");
    expect(askedAt).toBeGreaterThan(NEEDLE_STEP);
  });

  it("the request that asks carries the pointer to the transcript, not the value", () => {
    const req = fake.requests[askedAt]!;
    expect(VALUE).toBe("7f3a9c2e51d84b06");
    expect(JSON.stringify(req.body).includes(VALUE)).toBe(false);
    const needleResult = blocksOf(req).find((b) => b.type === "tool_result" && b.tool_use_id === `toolu_${NEEDLE_STEP}`)!;
    const text = textOf(needleResult);
    expect(text).toContain("elided from the window, not lost");
    expect(text).toMatch(/session-ledger\/[^/]+\/transcript\/turn-0001\.md/);
    expect(text).toMatch(/under the heading "### tool · seq \d+"/);
    // the head and the tail of the output stay in the window
    expect(text).toContain(`step-${NEEDLE_STEP} line-1 `);
    expect(text).toContain(`step-${NEEDLE_STEP} line-${LINES} `);
    // the newest steps stay whole
    const lastTool = blocksOf(req).filter((b) => b.type === "tool_result").at(-1)!;
    expect(textOf(lastTool)).not.toContain("elided from the window");
  });

  it("the model follows the pointer with a read and the tool result holds the value", () => {
    const req = fake.requests[askedAt + 1]!;
    const readResult = blocksOf(req).find((b) => b.type === "tool_result" && b.tool_use_id === "toolu_read")!;
    expect(readResult).toBeDefined();
    expect(textOf(readResult)).toContain(NEEDLE);
    expect(sedCommand).toMatch(/^sed -n '\/\^### tool · seq \d+ \/,\/\^### \/p' \/.+turn-0001\.md$/);
  });

  it("the transcript on disk keeps the output verbatim", () => {
    const file = /(\/\S+turn-0001\.md)$/.exec(sedCommand)![1]!;
    expect(fs.readFileSync(file, "utf8")).toContain(NEEDLE);
    expect(path.basename(path.dirname(file))).toBe("transcript");
  });
});

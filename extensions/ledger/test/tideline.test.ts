/** Tideline units: spec parsing, the line, blocks and cuts (with the overshoot bound), the pointer line, status text. */
import { describe, expect, it } from "vitest";
import { TIDELINE_USAGE } from "../../tideline/api.js";
import { parseTidelineSpec, statusText, formatTokens } from "../../tideline/kit.js";
import { resolveLine, blockOf, modelDefaults, TUNED_200K } from "../../tideline/line.js";
import { BlockTracker, firstAfter, pointerLine } from "../../tideline/blocks.js";
import { resumeCutSeq, estimatedCut } from "../../tideline/state.js";
import { parseSpec } from "../../tideline/spec.js";
import type { Row } from "../../engine/api.js";

const M200 = { contextWindow: 200_000, maxOutputTokens: 64_000, known: true };
const M1M = { contextWindow: 1_000_000, maxOutputTokens: 64_000, known: true };
const UNKNOWN = { contextWindow: 200_000, maxOutputTokens: 8_000, known: false };

describe("/tideline and --tideline parsing", () => {
  it.each([
    ["50%", { kind: "percent", percent: 50 }, "50%"],
    ["12.5%", { kind: "percent", percent: 12.5 }, "12.5%"],
    ["200k", { kind: "tokens", tokens: 200_000 }, "200k"],
    ["1m", { kind: "tokens", tokens: 1_000_000 }, "1.0M"],
    ["1.5M", { kind: "tokens", tokens: 1_500_000 }, "1.5M"],
    ["20000", { kind: "tokens", tokens: 20_000 }, "20k"],
    ["  default ", { kind: "default" }, "default"],
  ])("accepts %s", (input, spec, text) => {
    const p = parseTidelineSpec(input);
    expect(p).toEqual({ ok: true, spec, text });
  });

  it.each([
    ["19k", /minimum fixed limit is 20k/],
    ["19999", /minimum fixed limit is 20k/],
    ["50% 100k", /one value only/],
    ["40 80", /one value only/],
    ["wide", /removed preset/],
    ["narrow", /removed preset/],
    ["strict", /removed preset/],
    ["auto", /removed preset/],
    ["0%", /above 0/],
    ["150%", /at most 100/],
    ["", /required/],
    ["lots", /cannot read/],
  ])("refuses %s with the usage line", (input, why) => {
    const p = parseTidelineSpec(input);
    expect(p.ok).toBe(false);
    if (!p.ok) {
      expect(p.error).toMatch(why);
      expect(p.usage).toBe(TIDELINE_USAGE);
    }
  });

  it("the run host's parseSpec throws one line", () => {
    expect(() => parseSpec("wide")).toThrow(/^--tideline: 'wide' is a removed preset$/);
    expect(parseSpec("30%")).toEqual({ kind: "percent", percent: 30 });
  });
});

describe("the line", () => {
  it("defaults to 40% of the model's context, blocks to 70% of the line (90% on a 200k-class model, tuned on the bench)", () => {
    expect(resolveLine({}, M200)).toMatchObject({ line: 80_000, block: 72_000, mode: "percent", percent: 40, clamped: false });
    expect(resolveLine({}, M1M)).toMatchObject({ line: 400_000, block: 280_000, percent: 40 });
    expect(resolveLine({}, { contextWindow: 128_000, maxOutputTokens: 16_000, known: true }).block).toBe(Math.floor(51_200 * 0.7));
    // the tuned block follows the line the config sets; an explicit block still wins
    expect(resolveLine({ percent: 50 }, M200).block).toBe(90_000);
    expect(resolveLine({ block: "70%" }, M200).block).toBe(56_000);
    expect(modelDefaults(M200)).toEqual(TUNED_200K);
    expect(modelDefaults(UNKNOWN)).toEqual({ percent: 40, blockShare: 0.7 });
  });
  it("tokens is a fixed line; tokens: 0 is the model's ceiling (context minus min(output, 32k))", () => {
    expect(resolveLine({ tokens: 500_000, block: 20_000 }, M1M)).toMatchObject({ line: 500_000, block: 20_000, mode: "tokens" });
    expect(resolveLine({ tokens: 0 }, M200).line).toBe(200_000 - 32_000);
    expect(resolveLine({ tokens: 0 }, { contextWindow: 100_000, maxOutputTokens: 8_000, known: true }).line).toBe(92_000);
    expect(resolveLine({ tokens: 0 }, UNKNOWN).line).toBe(120_000);
  });
  it("an unknown context uses the fixed tokens (default 300000)", () => {
    expect(resolveLine({}, UNKNOWN).line).toBe(300_000);
    expect(resolveLine({ percent: 40, tokens: 150_000 }, UNKNOWN).line).toBe(150_000);
    // with a known context, an explicit percent wins over tokens
    expect(resolveLine({ percent: 50, tokens: 150_000 }, M200).line).toBe(100_000);
  });
  it("a line above what the model can hold is clamped", () => {
    const l = resolveLine({ percent: 100 }, M200);
    expect(l).toMatchObject({ line: 168_000, clamped: true });
    expect(resolveLine({ tokens: 900_000 }, M200)).toMatchObject({ line: 168_000, clamped: true });
  });
  it("block: tokens or a share of the line", () => {
    expect(blockOf("35%", 100_000)).toBe(35_000);
    expect(blockOf(20_000, 100_000)).toBe(20_000);
    expect(blockOf(undefined, 100_000)).toBe(70_000);
    expect(blockOf(undefined, 100_000, 0.9)).toBe(90_000);
    expect(blockOf(500_000, 100_000)).toBe(100_000);
  });
  it("a session override wins over config; default falls back", () => {
    expect(resolveLine({ percent: 50 }, M200, { kind: "tokens", tokens: 60_000 })).toMatchObject({ line: 60_000, mode: "tokens" });
    expect(resolveLine({ tokens: 60_000 }, M200, { kind: "percent", percent: 25 })).toMatchObject({ line: 50_000, mode: "percent" });
    expect(resolveLine({ percent: 50 }, M200, { kind: "default" }).line).toBe(100_000);
  });
});

describe("status text (as the guide words it)", () => {
  it("percent, fixed and off", () => {
    expect(statusText(resolveLine({}, M200), 42_000, true)).toBe("tideline @40% (80k): 38k to go");
    expect(statusText(resolveLine({ tokens: 300_000 }, M1M), 162_000, true)).toBe("tideline @300k: 138k to go");
    expect(statusText(resolveLine({}, M1M), 162_000, true)).toBe("tideline @40% (400k): 238k to go");
    expect(statusText(resolveLine({}, M200), 90_000, true)).toBe("tideline @40% (80k): 0 to go");
    expect(statusText(resolveLine({}, M200), 1, false)).toBe("tideline off");
    expect(formatTokens(1_000_000)).toBe("1.0M");
  });
});

/**
 * A simulated session: each step adds a user/assistant/tool group of rows with a token size; the
 * "provider" measures the window as base + the sizes of the rows the window holds.
 */
function simulate(opts: { steps: number; line: number; block: number; base: number; size: (i: number) => number }) {
  const t = new BlockTracker();
  const rows: Array<{ seq: number; tokens: number; role: string }> = [];
  let seq = 0;
  let maxRequest = 0;
  let maxGauge = 0;
  const cutSeqs: number[] = [];
  for (let i = 0; i < opts.steps; i++) {
    // the request: the window after the last cuts
    const start = firstAfter(rows, t.cutSeq);
    const window = rows.slice(start);
    const request = opts.base + window.reduce((n, r) => n + r.tokens, 0);
    maxRequest = Math.max(maxRequest, request);
    const firstSeq = seq + 1;
    const add = opts.size(i);
    rows.push({ seq: ++seq, tokens: 50, role: "assistant" }, { seq: ++seq, tokens: add, role: "tool" });
    const gauge = request + 50 + add;
    maxGauge = Math.max(maxGauge, gauge);
    const r = t.afterStep(gauge, request, firstSeq, seq + 1, opts.line, opts.block);
    if (r.cuts) cutSeqs.push(r.cutSeq);
  }
  return { t, rows, maxRequest, maxGauge, cutSeqs };
}

describe("blocks and cuts", () => {
  it("cuts the oldest closed block while at or over the line; the window drops to about line − block", () => {
    const s = simulate({ steps: 400, line: 80_000, block: 56_000, base: 2_000, size: () => 2_000 });
    expect(s.t.cuts).toBeGreaterThan(5);
    // the overshoot bound: a request never exceeds the line by more than one block
    expect(s.maxRequest).toBeLessThanOrEqual(80_000 + 56_000);
    // and with small steps it stays near the line
    expect(s.maxRequest).toBeLessThan(80_000 + 2_100);
    // cuts land on step boundaries: the row after a cut is never a tool result
    for (const c of s.cutSeqs) expect(s.rows.find((r) => r.seq === c + 1)?.role ?? "assistant").toBe("assistant");
  });

  it("holds the overshoot bound for random step sizes and block settings", () => {
    let seed = 7;
    const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    for (const [line, block] of [[80_000, 56_000], [80_000, 20_000], [100_000, 35_000], [30_000, 5_000]] as const) {
      const s = simulate({ steps: 600, line, block, base: 3_000, size: () => Math.floor(rnd() * Math.min(block, 8_000)) });
      expect(s.maxRequest).toBeLessThanOrEqual(line + block);
      expect(s.t.cuts).toBeGreaterThan(0);
    }
  });

  it("never cuts the block being filled", () => {
    const t = new BlockTracker();
    // one huge step far over the line but the block has not closed: nothing to cut
    let r = t.afterStep(50_000, 1_000, 1, 3, 40_000, 100_000);
    expect(r.cuts).toBe(0);
    r = t.afterStep(60_000, 50_000, 3, 5, 40_000, 100_000);
    expect(r.cuts).toBe(0);
    expect(t.cutSeq).toBe(0);
  });

  it("cuts inside a long turn, block by block", () => {
    // 100 steps of one turn, 1k each: line 20k, block 5k
    const s = simulate({ steps: 100, line: 20_000, block: 5_000, base: 1_000, size: () => 1_000 });
    expect(s.t.cuts).toBeGreaterThanOrEqual(10);
    expect(new Set(s.cutSeqs).size).toBe(s.cutSeqs.length); // each cut moves the line forward
    expect(s.maxRequest).toBeLessThanOrEqual(25_000);
  });

  it("a too-long refusal cuts every closed block", () => {
    const t = new BlockTracker();
    t.afterStep(10_000, 1_000, 1, 3, 1_000_000, 5_000);
    t.afterStep(20_000, 10_000, 3, 5, 1_000_000, 5_000);
    t.afterStep(30_000, 20_000, 5, 7, 1_000_000, 5_000);
    expect(t.blocks.length).toBe(4); // three closed + the open one
    const r = t.cutAllClosed();
    expect(r.cuts).toBe(3);
    expect(r.cutSeq).toBe(6);
    expect(t.blocks).toHaveLength(1);
  });

  it("between cuts the window only appends (same start)", () => {
    const s = simulate({ steps: 300, line: 50_000, block: 20_000, base: 1_000, size: () => 1_500 });
    // count the steps where the window start moved: exactly the cut count
    expect(s.cutSeqs.length).toBeLessThan(300 / 5);
  });
});

describe("the pointer line", () => {
  it("is worded as the guide gives it", () => {
    const p = pointerLine(42, "/data/session-ledger/ses_1");
    expect(p).toMatch(/^\[Earlier content of this session is past the tideline: every row up to seq 42 left this window\. The verbatim record is \/data\/session-ledger\/ses_1\/transcript\/ \(one file per turn\) and SESSION\.md carries the merged state\. .+\]$/);
  });
});

describe("reopened sessions", () => {
  it("place the window at a row that can open it, never a tool result", () => {
    const rows: Row[] = [];
    let seq = 0;
    for (let i = 0; i < 50; i++) {
      rows.push({ role: "assistant", text: "x", toolCalls: [{ id: `c${i}`, name: "bash", input: {} }], seq: ++seq, turn: 1, step: i + 1, at: 0 });
      rows.push({ role: "tool", results: [{ callId: `c${i}`, name: "bash", content: "y".repeat(4_000), isError: false }], seq: ++seq, turn: 1, step: i + 1, at: 0 });
    }
    const cut = resumeCutSeq(rows, 10_000);
    expect(cut).toBeGreaterThan(0);
    expect(rows.find((r) => r.seq === cut + 1)!.role).toBe("assistant");
    expect(resumeCutSeq(rows.slice(0, 2), 10_000)).toBe(0);
  });
});

describe("a too-long refusal with no closed block (the first request after --continue)", () => {
  const turns = (n: number): Row[] => {
    const rows: Row[] = [];
    let seq = 0;
    for (let t = 1; t <= n; t++) {
      rows.push({ role: "user", text: "u".repeat(4_000), seq: ++seq, turn: t, at: 0 } as Row);
      rows.push({ role: "assistant", text: "a".repeat(4_000), toolCalls: [], seq: ++seq, turn: t, step: 1, at: 0 } as Row);
    }
    rows.push({ role: "user", text: "the prompt now", seq: ++seq, turn: n + 1, at: 0 } as Row);
    return rows;
  };

  it("cuts the older half by estimate, never the current prompt; nothing when there is nothing older", () => {
    const rows = turns(4);
    const e = estimatedCut(rows, 0)!;
    expect(e.rows).toBeGreaterThan(0);
    expect(e.seq).toBeLessThan(rows.at(-1)!.seq);
    expect(e.tokens).toBeGreaterThan(3_000);
    expect(estimatedCut(rows.slice(-1), 0)).toBeUndefined();
    expect(estimatedCut(rows, rows.at(-2)!.seq)).toBeUndefined();
  });

  it("the tracker takes the cut, never moves it back, and later blocks start after it", () => {
    const t = new BlockTracker();
    t.afterStep(5_000, 5_000, 1, 3, 100_000, 1_000);
    expect(t.cutAllClosed().cuts).toBe(0);
    expect(t.cutTo(6, 2_000)).toEqual({ cuts: 1, cutSeq: 6 });
    expect(t.gauge).toBe(3_000);
    expect(t.cutTo(4, 100).cuts).toBe(0);
    t.afterStep(7_000, 3_000, 7, 9, 100_000, 1_000);
    t.cutAllClosed();
    expect(t.cutSeq).toBeGreaterThanOrEqual(6);
  });
});

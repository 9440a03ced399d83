/**
 * Tideline elision units: an old tool output in the retained window becomes its head, its tail and a
 * pointer to the transcript; deterministic, stable between cuts, never the newest steps, never an orphan.
 */
import { describe, expect, it } from "vitest";
import { ELIDE_DEFAULTS, elideBoundary, elideOutput, elideRows, elideSettings, elideToolRow, headOf, tailOf, transcriptFile } from "../../tideline/elide.js";
import { BlockTracker } from "../../tideline/blocks.js";
import type { Row, ToolRow } from "../../engine/api.js";

const DIR = "/ledger/ses_1";
const S = elideSettings(undefined);

function output(step: number, lines = 120): string {
  let s = "";
  for (let j = 1; j <= lines; j++) s += `s${step}-${j} 0123456789abcdefghijklmnopqrstuvwxyz0123456789\n`;
  return s;
}

/** `steps` steps of one turn: user, then per step an assistant row with one tool call and its tool row. */
function session(steps: number, lines = 120): Row[] {
  const rows: Row[] = [{ role: "user", text: "go", seq: 1, turn: 1, step: 0, at: 0 }];
  let seq = 2;
  for (let i = 1; i <= steps; i++) {
    rows.push({ role: "assistant", text: `step ${i}`, toolCalls: [{ id: `toolu_${i}`, name: "bash", input: { command: `echo ${i}` } }], seq: seq++, turn: 1, step: i, at: 0 });
    rows.push({ role: "tool", results: [{ callId: `toolu_${i}`, name: "bash", content: output(i, lines), isError: false }], seq: seq++, turn: 1, step: i, at: 0 });
  }
  return rows;
}

const contentOf = (r: Row) => (r.role === "tool" ? r.results.map((x) => x.content).join("\n") : "");

describe("elideOutput", () => {
  it("keeps the head and the tail within their budgets, at line ends, with a pointer to the transcript", () => {
    const text = output(7);
    const e = elideOutput(text, S, { file: transcriptFile(DIR, 1), seq: 15, callId: "toolu_7" })!;
    expect(e).toBeDefined();
    const head = headOf(text, S.headChars);
    const tail = tailOf(text, S.tailChars);
    expect(head.length).toBeLessThanOrEqual(S.headChars);
    expect(tail.length).toBeLessThanOrEqual(S.tailChars);
    expect(head.endsWith("\n")).toBe(true);
    expect(text.startsWith(head) && text.endsWith(tail)).toBe(true);
    expect(e.startsWith(head)).toBe(true);
    expect(e.endsWith(tail)).toBe(true);
    expect(e).toContain(`${DIR}/transcript/turn-0001.md`);
    expect(e).toContain('under the heading "### tool · seq 15"');
    expect(e).toContain(`sed -n '/^### tool · seq 15 /,/^### /p' ${DIR}/transcript/turn-0001.md`);
    expect(e).toMatch(/elided from the window, not lost/);
    expect(e.length).toBeLessThan(S.headChars + S.tailChars + 500);
    // the middle is gone
    expect(e).not.toContain("s7-60 ");
  });

  it("is deterministic: the same input gives the same bytes", () => {
    const where = { file: transcriptFile(DIR, 2), seq: 40, callId: "toolu_x" };
    expect(elideOutput(output(3), S, where)).toBe(elideOutput(output(3), S, where));
  });

  it("leaves short outputs whole and honours the settings", () => {
    const where = { file: "f", seq: 1, callId: "c" };
    expect(elideOutput("short\n", S, where)).toBeUndefined();
    expect(elideOutput("x".repeat(S.minChars), S, where)).toBeUndefined();
    expect(elideOutput(output(1), elideSettings(false), where)).toBeUndefined();
    const small = elideSettings({ head_chars: 100, tail_chars: 50, min_chars: 0 });
    expect(small.minChars).toBe(150); // never elides what head + tail would keep anyway
    const e = elideOutput(output(1), small, where)!;
    expect(e.length).toBeLessThan(100 + 50 + 400);
  });

  it("cuts a single long line at the budget when no line end falls in it", () => {
    const one = "y".repeat(10_000);
    expect(headOf(one, 800)).toHaveLength(800);
    expect(tailOf(one, 400)).toHaveLength(400);
  });

  it("reads config keys, with defaults and a floor of one kept step", () => {
    expect(elideSettings(undefined)).toEqual(ELIDE_DEFAULTS);
    expect(elideSettings({ keep_steps: 0 }).keepSteps).toBe(1);
    expect(elideSettings({ enabled: false }).enabled).toBe(false);
    expect(elideSettings({ keep_steps: 5, head_chars: 200 })).toMatchObject({ keepSteps: 5, headChars: 200 });
  });
});

describe("elideRows", () => {
  it("never elides the newest keep_steps steps", () => {
    const rows = session(10);
    const to = elideBoundary(rows, 3);
    // steps 8, 9 and 10 stay whole: the boundary is just before step 8's assistant row
    const step8 = rows.find((r) => r.role === "assistant" && r.step === 8)!;
    expect(to).toBe(step8.seq - 1);
    const out = elideRows(rows, to, S, DIR, new Map());
    for (let i = 0; i < rows.length; i++) {
      const r = rows[i]!;
      if (r.role === "tool" && r.step >= 8) expect(out[i]).toBe(r);
      if (r.role === "tool" && r.step < 8) expect(contentOf(out[i]!)).toContain("elided from the window");
    }
    expect(elideBoundary(session(2), 3)).toBe(0);
  });

  it("never changes the rows it was given (session.rows stays verbatim)", () => {
    const rows = session(6);
    const before = JSON.stringify(rows);
    elideRows(rows, elideBoundary(rows, 1), S, DIR, new Map());
    expect(JSON.stringify(rows)).toBe(before);
  });

  it("never orphans a tool result: every row, call id and result stays, only long contents shrink", () => {
    const rows = session(8);
    const out = elideRows(rows, elideBoundary(rows, 2), S, DIR, new Map());
    expect(out.map((r) => [r.seq, r.role])).toEqual(rows.map((r) => [r.seq, r.role]));
    for (let i = 0; i < rows.length; i++) {
      const a = rows[i]!;
      const b = out[i]!;
      if (a.role === "tool" && b.role === "tool") expect(b.results.map((x) => x.callId)).toEqual(a.results.map((x) => x.callId));
      if (a.role === "assistant") expect(b).toBe(a);
    }
  });

  it("is stable between cuts: later steps render the elided rows byte-identically", () => {
    const memo = new Map<number, ToolRow>();
    const rows = session(10);
    const to = elideBoundary(rows, 3);
    const first = elideRows(rows, to, S, DIR, memo);
    const later = session(14); // four more steps, no cut: elideSeq does not move
    const second = elideRows(later, to, S, DIR, memo);
    expect(JSON.stringify(second.slice(0, first.length))).toBe(JSON.stringify(first));
    // the same elided objects: nothing is re-elided per step
    for (let i = 0; i < first.length; i++) if (first[i]!.seq <= to && first[i]!.role === "tool") expect(second[i]).toBe(first[i]);
    // a fresh memo (another process, a resumed session) gives the same bytes
    expect(JSON.stringify(elideRows(later, to, S, DIR, new Map()))).toBe(JSON.stringify(second));
  });

  it("elideToolRow reports what it saved and returns the row itself when nothing is elided", () => {
    const rows = session(1, 3);
    const tool = rows[2] as ToolRow;
    expect(elideToolRow(tool, S, DIR)).toEqual({ row: tool, savedChars: 0 });
    const big = session(1)[2] as ToolRow;
    const e = elideToolRow(big, S, DIR);
    expect(e.row).not.toBe(big);
    expect(e.savedChars).toBe(big.results[0]!.content.length - (e.row as ToolRow).results[0]!.content.length);
  });
});

describe("BlockTracker.shrink", () => {
  it("lowers the gauge and the blocks that open after the elided rows", () => {
    const t = new BlockTracker();
    t.afterStep(10_000, 10_000, 1, 3, 100_000, 20_000);
    t.afterStep(35_000, 35_000, 3, 5, 100_000, 20_000); // the first block closes; a second opens at seq 5
    expect(t.blocks.map((b) => b.openGauge)).toEqual([10_000, 35_000]);
    t.shrink([{ seq: 2, tokens: 1_000 }, { seq: 6, tokens: 500 }]);
    expect(t.gauge).toBe(33_500);
    expect(t.blocks.map((b) => b.openGauge)).toEqual([10_000, 34_000]);
  });
});


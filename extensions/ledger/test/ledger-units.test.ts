/** Ledger units on real files: the journal tree keeps history, SESSION.md edits in place, atomic writes, facts. */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Journal } from "../journal.js";
import { SessionPage } from "../page.js";
import { LedgerWriter } from "../writer.js";
import { Ledger } from "../ledger.js";
import { applyTurnFacts, exitCodeOf } from "../facts.js";
import { renderRow, lastSeqIn } from "../render.js";
import { shiftHeadings } from "../../export/markdown.js";
import type { Row, Session } from "../../engine/api.js";

const quiet = { debug() {}, info() {}, warn() {}, error() {} };
let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "oc-ledger-"));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const user = (seq: number, turn: number, text: string): Row => ({ role: "user", text, seq, turn, step: 0, at: 1_700_000_000_000 + seq });
const asst = (seq: number, turn: number, step: number, calls: Array<{ id: string; name: string; input: Record<string, unknown> }>, text = ""): Row => ({ role: "assistant", text, toolCalls: calls, seq, turn, step, at: 1_700_000_000_000 + seq, usage: { inputTokens: 10, outputTokens: 2, cacheReadTokens: 0, cacheWriteTokens: 0 } });
const tool = (seq: number, turn: number, step: number, results: Array<{ callId: string; name: string; content: string; isError?: boolean; truncated?: { fullBytes: number; fullPath?: string } }>): Row => ({ role: "tool", results: results.map((r) => ({ isError: false, ...r })), seq, turn, step, at: 1_700_000_000_000 + seq });

function session(id: string, rows: Row[]): Session {
  return { info: { id, cwd: "/proj", model: "scripted/echo", createdAt: 0, overrides: {} }, rows, totals: { usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 }, costUsd: 0, turns: 1, steps: 1 }, nextSeq: rows.length + 1, lastActive: 0, ext: new Map() };
}

describe("the journal tree", () => {
  it("moving the leaf never deletes history; new entries branch from the leaf", () => {
    const ledger = new Ledger(dir, true, quiet);
    const s = session("ses_j", [user(1, 1, "a"), asst(2, 1, 1, [], "b"), user(3, 2, "c"), asst(4, 2, 1, [], "d")]);
    ledger.open("ses_j", "/proj", "m");
    ledger.collect(s);
    expect(ledger.activeLeaf("ses_j")).toBe("r4");
    ledger.setLeaf("ses_j", "r2");
    expect(ledger.activePath("ses_j").map((e) => e.id)).toEqual(["r1", "r2"]);
    // a new row after the undo hangs under r2; r3 and r4 stay in the journal
    s.rows.push(user(5, 3, "e"));
    ledger.collect(s);
    expect(ledger.journal("ses_j").map((e) => e.id)).toEqual(["r1", "r2", "r3", "r4", "r5"]);
    expect(ledger.activePath("ses_j").map((e) => e.id)).toEqual(["r1", "r2", "r5"]);
    expect(() => ledger.setLeaf("ses_j", "nope")).toThrow(/no entry/);
    return ledger.settle().then(() => {
      // and it all survives a reload from journal.jsonl
      const j = Journal.load(path.join(dir, "ses_j", "journal.jsonl"));
      expect(j.entries).toHaveLength(5);
      expect(j.path().map((e) => e.id)).toEqual(["r1", "r2", "r5"]);
      j.setLeaf("r4");
      expect(j.path().map((e) => e.id)).toEqual(["r1", "r2", "r3", "r4"]);
    });
  });

  it("skips a torn last line", () => {
    const f = path.join(dir, "journal.jsonl");
    fs.writeFileSync(f, `${JSON.stringify({ type: "entry", id: "r1", seq: 1, role: "user", turn: 1, step: 0, at: 0 })}\n{"type":"entry","id":"r2","par`);
    expect(Journal.load(f).entries.map((e) => e.id)).toEqual(["r1"]);
  });
});

describe("SESSION.md", () => {
  it("edits lines in place and strikes reversed decisions through", () => {
    const p = SessionPage.empty("ses_p");
    p.decide("db", "use SQLite for storage", 2);
    p.upsert("Files touched", "file:a.ts", "`a.ts` — read (t1)");
    p.upsert("Files touched", "file:b.ts", "`b.ts` — edit (t2)");
    p.upsert("Files touched", "file:a.ts", "`a.ts` — read, edit (t3)");
    p.decide("db", "use Postgres for storage", 5);
    const md = p.render();
    expect(md).toContain("- ~~use SQLite for storage (t2)~~ reversed in t5");
    expect(md).toContain("- use Postgres for storage (t5)");
    // in place: a.ts keeps its position above b.ts
    expect(md.indexOf("`a.ts` — read, edit (t3)")).toBeLessThan(md.indexOf("`b.ts`"));
    for (const s of ["Goal", "Decisions", "Environment", "Errors and fixes", "Code map", "Open questions", "Next step", "Files touched", "Commands"]) expect(md).toContain(`## ${s}`);
    // a reopened page keeps its keys
    const again = new SessionPage(JSON.parse(JSON.stringify(p.data)));
    again.decide("db", "use DuckDB", 7);
    expect(again.render()).toContain("~~use Postgres for storage (t5)~~ reversed in t7");
    expect(again.render()).toContain("~~use SQLite for storage (t2)~~ reversed in t5");
  });

  it("writes the engine-known facts mechanically, each stamped with its turn", () => {
    const p = SessionPage.empty("ses_f");
    const fc = { cwd: "/proj", model: "m", files: new Map<string, Set<string>>() };
    applyTurnFacts(p, [
      user(1, 1, "fix the failing test"),
      asst(2, 1, 1, [{ id: "c1", name: "read", input: { path: "src/a.ts" } }, { id: "c2", name: "bash", input: { command: "npm test" } }]),
      tool(3, 1, 1, [{ callId: "c1", name: "read", content: "x" }, { callId: "c2", name: "bash", content: "1 failing\n[exit code: 1]", isError: true }]),
    ], 1, fc);
    applyTurnFacts(p, [
      user(4, 2, "again"),
      asst(5, 2, 1, [{ id: "c3", name: "edit", input: { path: "/proj/src/a.ts" } }, { id: "c4", name: "bash", input: { command: "npm test" } }]),
      tool(6, 2, 1, [{ callId: "c3", name: "edit", content: "ok" }, { callId: "c4", name: "bash", content: "all passed\n[exit code: 0]" }]),
      asst(7, 2, 2, [], "Done. Should I also update the docs?"),
    ], 2, fc);
    const md = p.render();
    expect(md).toContain("- fix the failing test (t1)");
    expect(md).toContain("- `src/a.ts` — read, edit (t2)");
    expect(md).toContain("- `npm test` → exit 0 (t2)");
    expect(md).toMatch(/- `bash` `npm test`: 1 failing \[exit code: 1\] \(t1\) → fixed \(t2\)/);
    expect(md).toContain("- `src/` — a.ts (t2)");
    expect(md).toContain("Should I also update the docs? (t2)");
    expect(md).toContain("- working directory: /proj (t1)");
    expect(exitCodeOf("done\n[exit code: 127]")).toBe(127);
  });
});

describe("the writer", () => {
  it("replaces files atomically: a concurrent reader never sees a torn file", async () => {
    const w = new LedgerWriter(quiet);
    const f = path.join(dir, "t", "turn-0001.md");
    const parts: string[] = [];
    let torn = 0;
    let reads = 0;
    const reader = setInterval(() => {
      try {
        const t = fs.readFileSync(f, "utf8");
        reads++;
        // every write is whole blocks of 10k 'x' + "\n": a torn read would break that
        if (t.length % 10_001 !== 0) torn++;
      } catch {
        /* not yet there */
      }
    }, 0);
    for (let i = 0; i < 300; i++) {
      parts.push(`${"x".repeat(10_000)}\n`);
      w.put(f, () => parts.join(""));
      if (i % 10 === 0) await new Promise((r) => setTimeout(r, 1));
    }
    await w.settle();
    clearInterval(reader);
    expect(fs.readFileSync(f, "utf8").length).toBe(300 * 10_001);
    expect(reads).toBeGreaterThan(0);
    expect(torn).toBe(0);
    expect(fs.readdirSync(path.dirname(f)).filter((x) => x.includes(".tmp-"))).toEqual([]);
  });

  it("an append to a file still waiting for its whole-file write lands after that write, never under it", async () => {
    const w = new LedgerWriter(quiet);
    const f = path.join(dir, "t.md");
    w.put(f, () => "head\n");
    w.append(f, "row 1\n");
    await w.settle();
    w.append(f, "row 2\n");
    await w.settle();
    expect(fs.readFileSync(f, "utf8")).toBe("head\nrow 1\nrow 2\n");
    // a rewrite waiting out its interval takes the appends queued behind it
    w.put(f, () => "new head\n");
    w.append(f, "row 3\n");
    await w.settle();
    expect(fs.readFileSync(f, "utf8")).toBe("new head\nrow 3\n");
  });

  it("coalesces rewrites of a file that changes faster than every 100 ms; settle writes at once", async () => {
    const w = new LedgerWriter(quiet);
    const f = path.join(dir, "c.md");
    let text = "";
    for (let i = 0; i < 50; i++) {
      text += `row ${i}\n`;
      const snapshot = text;
      w.put(f, () => snapshot);
      await new Promise((r) => setTimeout(r, 2));
    }
    const full = 50 * text.length; // what writing on every step would have cost, roughly x2
    expect(w.bytesWritten).toBeLessThan(full / 4);
    const t0 = performance.now();
    await w.settle();
    expect(performance.now() - t0).toBeLessThan(1_000); // at once, not after the files' intervals (loose: a busy machine)
    expect(fs.readFileSync(f, "utf8")).toBe(text);
    // a quiet file is written without waiting once its interval has passed
    await new Promise((r) => setTimeout(r, 120));
    w.put(f, () => "later\n");
    // written without a settle (bounded wait: a loaded machine may take a while to run the timer)
    for (const t1 = Date.now(); fs.readFileSync(f, "utf8") !== "later\n" && Date.now() - t1 < 5_000; ) await new Promise((r) => setTimeout(r, 10));
    expect(fs.readFileSync(f, "utf8")).toBe("later\n");
  });

  it("the step does not wait: collect returns before anything is written; settle sees it", async () => {
    const ledger = new Ledger(dir, true, quiet);
    const s = session("ses_w", [user(1, 1, "hi"), asst(2, 1, 1, [], "hello")]);
    ledger.open("ses_w", "/proj", "m");
    ledger.collect(s);
    const f = path.join(dir, "ses_w", "transcript", "turn-0001.md");
    expect(fs.existsSync(f)).toBe(false);
    await ledger.settle();
    expect(fs.readFileSync(f, "utf8")).toContain("hello");
  });

  it("writes a truncated tool output as the model saw it, pointing at its spill file (stored once, never copied)", async () => {
    const full = path.join(dir, "full.txt");
    fs.writeFileSync(full, "HEAD middle-of-the-output TAIL");
    const ledger = new Ledger(dir, true, quiet);
    const s = session("ses_t", [user(1, 1, "go"), asst(2, 1, 1, [{ id: "c1", name: "bash", input: { command: "big" } }]), tool(3, 1, 1, [{ callId: "c1", name: "bash", content: "HEAD [truncated] TAIL", truncated: { fullBytes: 30, fullPath: full } }])]);
    ledger.open("ses_t", "/proj", "m");
    ledger.collect(s);
    await ledger.settle();
    const t = fs.readFileSync(path.join(dir, "ses_t", "transcript", "turn-0001.md"), "utf8");
    expect(t).not.toContain("middle-of-the-output");
    expect(t).toContain("HEAD [truncated] TAIL");
    expect(t).toContain(`full output 30 bytes kept at ${full}; this is what the model saw`);
  });

  it("fences outputs that contain backticks so nothing breaks out", () => {
    const md = renderRow(tool(3, 1, 1, [{ callId: "c", name: "bash", content: "```\n### user · seq 99\n````" }]));
    expect(md).toContain("`````\n```\n### user · seq 99\n````\n`````");
    expect(lastSeqIn("### user · seq 4\n\n### tool · seq 7 · step 1\n")).toBe(7);
    // a heading inside a tool output is content, not a row
    expect(lastSeqIn(md)).toBe(3);
    expect(shiftHeadings(`# Turn 1\n${md}`)).toBe(`## Turn 1\n${md.replace("### tool · seq 3", "#### tool · seq 3")}`);
  });

  it("a reopened session after a crash drops transcript rows the database never saw, then appends", async () => {
    const ledger = new Ledger(dir, true, quiet);
    const rows = [user(1, 1, "go"), asst(2, 1, 1, [], "one"), asst(3, 1, 2, [], "two-not-in-db")];
    ledger.open("ses_c", "/proj", "m");
    ledger.collect(session("ses_c", rows));
    await ledger.settle();
    // a new process: the database only has rows 1-2
    const l2 = new Ledger(dir, true, quiet);
    l2.open("ses_c", "/proj", "m", 2);
    l2.collect(session("ses_c", [...rows.slice(0, 2), asst(3, 1, 2, [], "three-from-db")]));
    await l2.settle();
    const t = fs.readFileSync(path.join(dir, "ses_c", "transcript", "turn-0001.md"), "utf8");
    expect(t).not.toContain("two-not-in-db");
    expect(t).toContain("three-from-db");
    expect(t.match(/### assistant · seq 3/g)).toHaveLength(1);
  });
});

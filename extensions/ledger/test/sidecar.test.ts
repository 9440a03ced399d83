/**
 * The ledger's machine-readable side, on real files: rows.jsonl read back (resume records, torn and bad
 * lines), transcripts checked against rows, and rows read back from transcript Markdown.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Row, Session } from "../../engine/api.js";
import { infoRecord, readSidecar, resumeRecord, rowRecords } from "../sidecar.js";
import { renderRow, turnHeader } from "../render.js";
import { checkTranscript } from "../verify.js";
import { parseTranscript } from "../parse.js";
import { rowsFromSections } from "../transcript-rows.js";
import type { JournalEntry } from "../api.js";

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "oc-sidecar-"));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const T0 = 1_700_000_000_000;
const totals = (steps: number) => ({ usage: { inputTokens: steps * 10, outputTokens: steps, cacheReadTokens: 0, cacheWriteTokens: 0 }, costUsd: 0.5 * steps, turns: 1, steps });
const rows: Row[] = [
  { role: "user", text: "fix it\nplease", context: ["hook said: careful"], seq: 1, turn: 1, step: 0, at: T0 + 1 },
  { role: "assistant", text: "Looking ```now```", toolCalls: [{ id: "c1", name: "bash", input: { command: "ls -la", n: 1.5 } }], usage: { inputTokens: 5, outputTokens: 2, cacheReadTokens: 1, cacheWriteTokens: 0 }, model: "scripted/x.json", seq: 2, turn: 1, step: 1, at: T0 + 2 },
  { role: "tool", results: [{ callId: "c1", name: "bash", content: "a\n````\nb", isError: true }], seq: 3, turn: 1, step: 1, at: T0 + 3 },
  { role: "assistant", text: "", toolCalls: [{ id: "c2", name: "read", input: { path: "x" } }, { id: "c3", name: "read", input: { path: "y" } }], seq: 4, turn: 1, step: 2, at: T0 + 4 },
  { role: "tool", results: [{ callId: "c2", name: "read", content: "X", isError: false }, { callId: "c3", name: "read", content: "Y", isError: false }], seq: 5, turn: 1, step: 2, at: T0 + 5 },
  { role: "note", text: "[continued by hooks] go on", seq: 6, turn: 1, step: 2, at: T0 + 6 },
  { role: "assistant", text: "done", toolCalls: [], seq: 7, turn: 1, step: 3, at: T0 + 7 },
];
const session = (n: number): Session => ({ info: { id: "ses_x", cwd: "/p", model: "scripted/x.json", createdAt: T0, overrides: { tideline: "50%" } }, rows: rows.slice(0, n), totals: totals(n), nextSeq: n + 1, lastActive: 0, ext: new Map() });
const transcript = (list: Row[]) => turnHeader(1, "ses_x", list[0]!.at) + list.map((r) => renderRow(r)).join("");

describe("rows.jsonl", () => {
  it("gives back rows, info and totals; a resume drops rows past it, and reused seqs take the newer row", async () => {
    const file = path.join(dir, "rows.jsonl");
    fs.writeFileSync(file, infoRecord(session(0), T0) + rowRecords(rows.slice(0, 5), totals(2), T0 + 5));
    // rows 4 and 5 never reached the database before a crash; the resumed run writes a different row 4
    const row4: Row = { role: "assistant", text: "other", toolCalls: [], seq: 4, turn: 1, step: 2, at: T0 + 40 };
    fs.appendFileSync(file, resumeRecord(3, T0 + 30) + infoRecord(session(3), T0 + 31) + rowRecords([row4], totals(2), T0 + 41) + '{"t":"row","row":{"role":"us');
    const st = (await readSidecar(file))!;
    expect([...st.rows.keys()]).toEqual([1, 2, 3, 4]);
    expect(st.rows.get(4)).toEqual(row4);
    expect(st.rows.get(2)).toEqual(rows[1]);
    expect([...st.dropped]).toEqual([5]);
    expect(st.info).toMatchObject({ id: "ses_x", overrides: { tideline: "50%" } });
    expect(st.totals).toEqual(totals(2));
    expect(st.updatedAt).toBe(T0 + 41);
    expect(st.badLines).toBe(1); // the torn last line
    expect(await readSidecar(path.join(dir, "none.jsonl"))).toBeUndefined();
  });
});

describe("checking a transcript against the database's rows", () => {
  it("sound, lagging, ahead, and the kinds of damage", () => {
    const text = transcript(rows);
    expect(checkTranscript(text, 1, rows, 7, false)).toEqual({ sound: true, keep: text.length, lastSeq: 7 });
    const lag = transcript(rows.slice(0, 3));
    expect(checkTranscript(lag, 1, rows, 7, true)).toEqual({ sound: true, keep: lag.length, lastSeq: 3 });
    expect(checkTranscript(lag, 1, rows, 7, false)).toMatchObject({ sound: false, why: "rows seq 4–7 are missing" });
    // the file holds rows 1-7, the database only 1-5: rows 6 and 7 are cut off
    const ahead = checkTranscript(text, 1, rows.slice(0, 5), 5, true);
    expect(ahead).toEqual({ sound: true, keep: text.indexOf("### note · seq 6"), lastSeq: 5 });
    expect(checkTranscript(text.slice(0, text.indexOf("careful")), 1, rows, 7, true)).toMatchObject({ sound: false, why: "it ends inside a fenced block" });
    expect(checkTranscript(text.replace("**tool call** `read` · id `c3`", "tool call read c3"), 1, rows, 7, false)).toMatchObject({ sound: false });
    expect(checkTranscript(text.replace("# Turn 1", "# Turn 2"), 1, rows, 7, false)).toMatchObject({ sound: false, why: "no `# Turn` header" });
    expect(checkTranscript(text.replace("### tool · seq 3", "### tool · seq 9"), 1, rows, 9, false)).toMatchObject({ sound: false });
    // a changed byte inside a fenced block is not visible to the check (documented)
    expect(checkTranscript(text.replace("ls -la", "ls -lb"), 1, rows, 7, false)).toMatchObject({ sound: true });
  });
});

describe("rows back from transcript Markdown", () => {
  it("every field comes back but a text's trailing newline; time and step from the journal", () => {
    const withNewline: Row = { role: "note", text: "ends with a newline\n", seq: 8, turn: 1, step: 3, at: T0 + 8 };
    const all = [...rows, withNewline];
    const p = parseTranscript(transcript(all));
    const hints = new Map<number, JournalEntry>(all.map((r) => [r.seq, { id: `r${r.seq}`, seq: r.seq, role: r.role, turn: r.turn, step: r.step, at: r.at }]));
    const got = rowsFromSections(p.sections, 1, hints, T0);
    expect(got.unreadable).toEqual([]);
    expect(got.rows.slice(0, 7)).toEqual(rows);
    expect(got.rows[7]).toEqual({ ...withNewline, text: "ends with a newline" });
    // without the journal: times fall back to the header's, steps of user and note rows to 0
    const bare = rowsFromSections(p.sections, 1, new Map(), T0 - 5);
    expect(bare.rows[0]!.at).toBe(T0 - 5);
    expect(bare.rows[5]).toMatchObject({ role: "note", step: 0 });
    expect(bare.rows[1]).toMatchObject({ step: 1, model: "scripted/x.json", usage: rows[1]!.role === "assistant" ? rows[1]!.usage : undefined });
  });

  it("a truncated result comes back with the whole output the transcript keeps, and is counted", () => {
    const full = path.join(dir, "full.txt");
    fs.writeFileSync(full, "the whole output");
    const tool: Row = { role: "tool", results: [{ callId: "c1", name: "bash", content: "the wh…", isError: false, truncated: { fullBytes: 16, fullPath: full } }], seq: 3, turn: 1, step: 1, at: T0 + 3 };
    const text = turnHeader(1, "ses_x", T0) + renderRow(tool, new Map([["c1", "the whole output"]]));
    const got = rowsFromSections(parseTranscript(text).sections, 1, new Map(), T0);
    expect(got.wholeOutputs).toBe(1);
    expect(got.rows[0]).toMatchObject({ results: [{ content: "the whole output", truncated: { fullBytes: 16 } }] });
  });
});

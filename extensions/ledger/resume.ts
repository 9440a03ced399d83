/**
 * When a session is reopened: the older transcript files (every turn before the one the ledger keeps
 * appending to) are checked against the database's rows behind the step, and a damaged or missing file
 * is rewritten from the database. One warning per reopened session names the files. The newest file is
 * picked up again (recoverTranscript) so the ledger keeps appending to it.
 */
import fs from "node:fs";
import path from "node:path";
import type { Logger } from "../../kernel/api.js";
import type { Row } from "../engine/api.js";
import type { TurnIndexEntry } from "./api.js";
import type { Ledger, SessionLedger } from "./ledger.js";
import type { LedgerWriter } from "./writer.js";
import { lastSeqIn, renderRow, rowHeadings, turnHeader } from "./render.js";
import { checkTranscript, rowsByTurn } from "./verify.js";

const fileName = (turn: number): string => `turn-${String(turn).padStart(4, "0")}.md`;

/** The rows of `turn` at the end of `rows` (scans back from the end: the newest turn is last). */
export function turnTail(rows: readonly Row[], turn: number): Row[] {
  let i = rows.length;
  while (i > 0 && rows[i - 1]!.turn >= turn) i--;
  return rows.slice(i).filter((r) => r.turn === turn);
}

/** The seq just before a turn's first row (the database's last seq when it has none of that turn). */
export function seqBefore(turnRows: readonly Row[], lastDbSeq: number): number {
  return turnRows.length ? turnRows[0]!.seq - 1 : lastDbSeq;
}

function oneLine(text: string, max: number): string {
  const l = text.replace(/\s+/g, " ").trim();
  return l.length > max ? `${l.slice(0, max - 1)}…` : l;
}

function indexEntry(turn: number, rows: readonly Row[]): TurnIndexEntry {
  const first = rows[0]!;
  const last = rows[rows.length - 1]!;
  const titled = rows.find((r) => r.role === "user" || r.role === "note") as { text: string } | undefined;
  return {
    turn,
    file: `transcript/${fileName(turn)}`,
    firstSeq: first.seq,
    lastSeq: last.seq,
    steps: rows.reduce((m, r) => Math.max(m, r.step), 0),
    title: titled ? oneLine(titled.text, 80) : "",
    startedAt: first.at,
    endedAt: last.at,
    reason: "rebuilt",
    pastTideline: false,
  };
}

function describe(list: Array<{ file: string; why: string }>): string {
  const shown = list.slice(0, 5).map((d) => `${d.file} (${d.why})`);
  return `${shown.join(", ")}${list.length > 5 ? ` and ${list.length - 5} more` : ""}`;
}

/**
 * Check every turn the ledger will not write again (all its rows at or before `upto`, the last one
 * queued before the resume, and not the open turn). It runs beside the writer, not in its queue, so
 * reading the older files never delays a step's writes; only a rewrite goes through the writer. The
 * rows are captured now: later the tideline may release them from memory.
 */
export function restoreOlderTurns(ledger: Ledger, st: SessionLedger, rows: readonly Row[], settled: { upto: number; openTurn?: number }, log: Logger): Promise<void> {
  const lastDbSeq = rows[rows.length - 1]?.seq ?? 0;
  const todo: Array<[number, Row[]]> = [];
  for (const [turn, list] of rowsByTurn(rows)) if (turn !== settled.openTurn && list[list.length - 1]!.seq <= settled.upto) todo.push([turn, list]);
  return (async () => {
    await new Promise<void>((r) => setImmediate(r)); // after the step that reopened the session
    const damaged = [...st.damaged];
    st.damaged = [];
    for (const [turn, list] of todo) {
      const file = path.join(st.dir, "transcript", fileName(turn));
      let text: string | undefined;
      try {
        text = await fs.promises.readFile(file, "utf8");
      } catch {
        text = undefined;
      }
      if (text !== undefined) {
        const v = checkTranscript(text, turn, list, lastDbSeq, false);
        if (v.sound) continue;
        damaged.push({ file, why: v.why });
      } else damaged.push({ file, why: "missing" });
      const content = turnHeader(turn, st.id, list[0]!.at) + list.map((r) => renderRow(r)).join("");
      ledger.writer.put(file, () => content);
      if (!st.turnByNum.has(turn)) {
        const e = indexEntry(turn, list);
        st.turns.push(e);
        st.turns.sort((a, b) => a.turn - b.turn);
        st.turnByNum.set(turn, e);
        ledger.putIndex(st);
      }
    }
    if (damaged.length) {
      log.warn(`ledger: session ${st.id}: rewrote ${damaged.length} damaged transcript file(s) from the database: ${describe(damaged)}`);
    }
  })().catch((e: unknown) => log.warn(`ledger: checking the transcripts of session ${st.id} failed: ${e instanceof Error ? e.message : String(e)}`));
}

/** Pick up the newest transcript file so a reopened session keeps appending to it. */
export function recoverTranscript(writer: LedgerWriter, st: SessionLedger, lastRowSeq: number | undefined, dbRows: readonly Row[] | undefined): void {
  let files: string[] = [];
  try {
    files = fs.readdirSync(path.join(st.dir, "transcript")).filter((f) => /^turn-\d{4,}\.md$/.test(f)).sort();
  } catch {
    return;
  }
  const last = files[files.length - 1];
  if (!last) return;
  const file = path.join(st.dir, "transcript", last);
  let text = fs.readFileSync(file, "utf8");
  const turn = Number(/turn-(\d+)\.md/.exec(last)![1]);
  let seq = lastSeqIn(text);
  if (dbRows && lastRowSeq !== undefined) {
    const turnRows = turnTail(dbRows, turn);
    const v = checkTranscript(text, turn, turnRows, lastRowSeq, true);
    if (!v.sound) {
      // rewritten from the database: collect() queues this turn's rows again into a fresh file
      if (turnRows.length) st.damaged.push({ file, why: v.why });
      st.lastQueuedSeq = seqBefore(turnRows, lastRowSeq);
      return;
    }
    text = text.slice(0, v.keep);
    seq = v.lastSeq || seqBefore(turnRows, lastRowSeq);
  } else if (lastRowSeq !== undefined && seq > lastRowSeq) {
    // the transcript got ahead of the database before a crash: drop rows the database never saw
    const ahead = rowHeadings(text).find((h) => h.seq > lastRowSeq);
    if (ahead) text = text.slice(0, ahead.index);
    seq = lastSeqIn(text);
  }
  st.cur = { turn, file, tail: text };
  st.lastQueuedSeq = Math.max(seq, 0);
  if (!st.turnByNum.has(turn)) {
    const first = rowHeadings(text)[0];
    const e: TurnIndexEntry = { turn, file: `transcript/${last}`, firstSeq: first ? first.seq : seq, lastSeq: seq, steps: 0, title: "", startedAt: Date.now(), pastTideline: false };
    st.turns.push(e);
    st.turnByNum.set(turn, e);
  }
  // rows appended before this is written are folded into it (LedgerWriter.append)
  writer.put(file, () => text);
}

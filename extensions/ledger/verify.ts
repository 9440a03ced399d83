/**
 * Checking a transcript file against the rows the database holds for its turn, when a session is
 * reopened. A sound file has the turn header, one section per row in seq order, each with the marker
 * lines and fenced blocks render.ts writes for that row, and no fence left open. The newest file may lag
 * the database (a crash before its last write) or run ahead of it (rows the database never committed);
 * every other file must hold exactly its turn's rows. Text inside a fence cannot be checked: a changed
 * byte inside a tool output goes unnoticed.
 */
import type { Row } from "../engine/api.js";
import { expectedShape, parseTranscript, shapeOf } from "./parse.js";

export type Verdict =
  /** `keep`: characters to keep (rows ahead of the database cut off); `lastSeq`: its last row, 0 for none */
  | { sound: true; keep: number; lastSeq: number }
  | { sound: false; why: string };

/**
 * @param rows the database's rows of this turn, in seq order
 * @param lastDbSeq the database's last seq in the whole session
 * @param newest the newest transcript file (may lag or run ahead); else it must be complete
 */
export function checkTranscript(text: string, turn: number, rows: readonly Row[], lastDbSeq: number, newest: boolean): Verdict {
  const p = parseTranscript(text);
  if (p.turn !== turn) return { sound: false, why: "no `# Turn` header" };
  if (p.openFence) return { sound: false, why: "it ends inside a fenced block" };
  if (p.stray > 0) return { sound: false, why: `${p.stray} line(s) that are not part of a transcript` };
  let i = 0;
  for (const s of p.sections) {
    if (newest && s.seq > lastDbSeq) return { sound: true, keep: s.index, lastSeq: i ? rows[i - 1]!.seq : 0 };
    const r = rows[i];
    if (!r || r.seq !== s.seq || r.role !== s.role) return { sound: false, why: `row seq ${s.seq} is not the database's ${r ? `seq ${r.seq}` : "(none)"}` };
    const want = expectedShape(r);
    const got = shapeOf(s);
    if (want.lines !== got.lines || want.blocks !== got.blocks) return { sound: false, why: `row seq ${s.seq} is incomplete` };
    i++;
  }
  if (!newest && i < rows.length) return { sound: false, why: `rows seq ${rows[i]!.seq}–${rows[rows.length - 1]!.seq} are missing` };
  return { sound: true, keep: text.length, lastSeq: i ? rows[i - 1]!.seq : 0 };
}

/** Group rows by turn (the rows are in seq order, so turns are contiguous). */
export function rowsByTurn(rows: readonly Row[]): Map<number, Row[]> {
  const m = new Map<number, Row[]>();
  for (const r of rows) {
    const list = m.get(r.turn);
    if (list) list.push(r);
    else m.set(r.turn, [r]);
  }
  return m;
}

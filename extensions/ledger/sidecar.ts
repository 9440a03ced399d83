/**
 * rows.jsonl: the machine-readable side of the ledger, so the database can be rebuilt from it
 * (`oceancode storage repair`). Append-only, one JSON record per line, written by the ledger's one writer
 * beside the transcripts. Per step it appends the step's new rows (as the database stores them) and the
 * session's totals: O(new rows), never the history. Session info is appended when a session opens, when a
 * turn ends and when it closes. A resume appends {"t":"resume","after":N}: rows past N were never committed
 * to the database before a crash and are dropped by readers (their seq numbers are reused).
 */
import fs from "node:fs";
import readline from "node:readline";
import type { Row, Session, SessionInfo, SessionTotals } from "../engine/api.js";

export const SIDECAR_FILE = "rows.jsonl";

export type SidecarRecord =
  | { t: "row"; row: Row }
  | { t: "totals"; at: number; totals: SessionTotals }
  | { t: "info"; at: number; info: SessionInfo; totals: SessionTotals }
  | { t: "resume"; at: number; after: number };

const line = (r: SidecarRecord): string => `${JSON.stringify(r)}\n`;

/** A step's new rows, then the totals that count them. */
export function rowRecords(rows: readonly Row[], totals: SessionTotals, at = Date.now()): string {
  let out = "";
  for (const row of rows) out += line({ t: "row", row });
  return out + line({ t: "totals", at, totals });
}

export function infoRecord(session: Session, at = Date.now()): string {
  return line({ t: "info", at, info: session.info, totals: session.totals });
}

export function resumeRecord(after: number, at = Date.now()): string {
  return line({ t: "resume", at, after });
}

/** What a sidecar file says, after applying its resume markers. */
export interface SidecarState {
  /** by seq; the last record of a seq wins */
  rows: Map<number, Row>;
  /** seqs a resume marker dropped and no later record wrote again */
  dropped: Set<number>;
  info?: SessionInfo;
  totals?: SessionTotals;
  /** the newest record's time */
  updatedAt: number;
  /** lines that were not a record (a torn last line after a crash, or damage) */
  badLines: number;
  lines: number;
}

function isRow(v: unknown): v is Row {
  const r = v as Partial<Row> | null;
  return !!r && typeof r === "object" && typeof r.seq === "number" && typeof r.turn === "number" && typeof r.step === "number" && typeof r.at === "number" && (r.role === "user" || r.role === "assistant" || r.role === "tool" || r.role === "note");
}

/** Read a sidecar file line by line (it may be large); undefined when there is none. */
export async function readSidecar(file: string): Promise<SidecarState | undefined> {
  let stream: fs.ReadStream;
  try {
    await fs.promises.access(file, fs.constants.R_OK);
    stream = fs.createReadStream(file, { encoding: "utf8" });
  } catch {
    return undefined;
  }
  const st: SidecarState = { rows: new Map(), dropped: new Set(), updatedAt: 0, badLines: 0, lines: 0 };
  for await (const raw of readline.createInterface({ input: stream, crlfDelay: Infinity })) {
    if (!raw.trim()) continue;
    st.lines++;
    let r: SidecarRecord;
    try {
      r = JSON.parse(raw) as SidecarRecord;
    } catch {
      st.badLines++;
      continue;
    }
    if (r.t === "row" && isRow(r.row)) {
      st.rows.set(r.row.seq, r.row);
      st.dropped.delete(r.row.seq);
      st.updatedAt = Math.max(st.updatedAt, r.row.at);
    } else if (r.t === "totals" && r.totals && typeof r.at === "number") {
      st.totals = r.totals;
      st.updatedAt = Math.max(st.updatedAt, r.at);
    } else if (r.t === "info" && r.info && typeof r.info.id === "string" && typeof r.at === "number") {
      st.info = r.info;
      if (r.totals) st.totals = r.totals;
      st.updatedAt = Math.max(st.updatedAt, r.at);
    } else if (r.t === "resume" && typeof r.after === "number") {
      for (const seq of [...st.rows.keys()]) {
        if (seq <= r.after) continue;
        st.rows.delete(seq);
        st.dropped.add(seq);
      }
    } else st.badLines++;
  }
  return st;
}

/**
 * rows.jsonl: the machine-readable side of the ledger, so the database can be rebuilt from it
 * (`oceancode storage repair`). Append-only, one JSON record per line, written by the ledger's one writer
 * beside the transcripts. Per step it appends the step's new rows (as the database stores them) and the
 * session's totals: O(new rows), never the history. Session info is appended when a session opens, when a
 * turn ends and when it closes. A resume appends {"t":"resume","after":N}: rows past N were never committed
 * to the database before a crash and are dropped by readers (their seq numbers are reused).
 *
 * A step's rows are always followed by a totals (or info) record in the same append, so rows after the
 * last such record are a step cut short (a write torn by a full disk or a power cut): readers leave them
 * out, as the database leaves out a step whose transaction did not commit.
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
  /** rows of a step cut short at the end of the file (no totals record after them), left out */
  torn: number;
  lines: number;
}

function isRow(v: unknown): v is Row {
  const r = v as Partial<Row> | null;
  return !!r && typeof r === "object" && typeof r.seq === "number" && typeof r.turn === "number" && typeof r.step === "number" && typeof r.at === "number" && (r.role === "user" || r.role === "assistant" || r.role === "tool" || r.role === "note");
}

function latest(at: number, rows: readonly Row[]): number {
  for (const r of rows) if (r.at > at) at = r.at;
  return at;
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
  const st: SidecarState = { rows: new Map(), dropped: new Set(), updatedAt: 0, badLines: 0, lines: 0, torn: 0 };
  /** rows since the last totals/info record: a step not yet known whole */
  let open: Row[] = [];
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
      open.push(r.row);
    } else if (r.t === "totals" && r.totals && typeof r.at === "number") {
      st.totals = r.totals;
      st.updatedAt = latest(Math.max(st.updatedAt, r.at), open);
      open = [];
    } else if (r.t === "info" && r.info && typeof r.info.id === "string" && typeof r.at === "number") {
      st.info = r.info;
      if (r.totals) st.totals = r.totals;
      st.updatedAt = latest(Math.max(st.updatedAt, r.at), open);
      open = [];
    } else if (r.t === "resume" && typeof r.after === "number") {
      for (const seq of [...st.rows.keys()]) {
        if (seq <= r.after) continue;
        st.rows.delete(seq);
        st.dropped.add(seq);
      }
      // what the database held (seq <= after) is whole; the rest was just dropped
      open = [];
    } else st.badLines++;
  }
  // a step cut short at the end: left out (and its seqs are free again, like dropped ones)
  for (const row of open) {
    if (st.rows.get(row.seq) !== row) continue;
    st.rows.delete(row.seq);
    st.torn++;
  }
  return st;
}

/**
 * The seq of the last whole row a sidecar file holds (after its resume markers), read from the end of the
 * file: a reopened session's check costs a few KB, not the history. 0 when it holds no row, undefined
 * when there is no file. Falls back to reading it all when the end alone cannot tell.
 */
export async function lastWholeSeq(file: string, window = 64 * 1024): Promise<number | undefined> {
  let fh: fs.promises.FileHandle;
  try {
    fh = await fs.promises.open(file, "r");
  } catch {
    return undefined;
  }
  try {
    const size = (await fh.stat()).size;
    for (let span = Math.min(window, size); ; span = Math.min(span * 4, size)) {
      const buf = Buffer.alloc(span);
      await fh.read(buf, 0, span, size - span);
      const lines = buf.toString("utf8").split("\n");
      if (span < size) lines.shift(); // the first line may be cut by the window
      const found = scanBack(lines);
      if (found !== undefined) return found;
      if (span === size) return 0;
    }
  } finally {
    await fh.close();
  }
}

/** Walk records from the end: the first row that a later totals/info record confirms and no later resume marker drops. */
function scanBack(lines: readonly string[]): number | undefined {
  let cap = Infinity;
  let confirmed = false;
  for (let i = lines.length - 1; i >= 0; i--) {
    const raw = lines[i]!;
    if (!raw.trim()) continue;
    let r: SidecarRecord;
    try {
      r = JSON.parse(raw) as SidecarRecord;
    } catch {
      continue;
    }
    if (r.t === "totals" || r.t === "info") confirmed = true;
    else if (r.t === "resume" && typeof r.after === "number") {
      cap = Math.min(cap, r.after);
      confirmed = true; // rows before a marker that it keeps were the database's
    } else if (r.t === "row" && isRow(r.row) && confirmed && r.row.seq <= cap) return r.row.seq;
  }
  return undefined;
}

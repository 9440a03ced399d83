/** Per-session tideline state, kept in session.ext under the extension id. */
import type { Session, Row, ToolRow } from "../engine/api.js";
import type { TidelineLine } from "./api.js";
import { BlockTracker, firstAfter } from "./blocks.js";

export interface TidelineState {
  tracker: BlockTracker;
  /** the line in force for the current turn (re-resolved at each turn's first step) */
  line?: TidelineLine;
  lineTurn: number;
  /** a cut happened since the last contextBuild: make sure the ledger wrote those rows first */
  cutPending: boolean;
  /** a reopened session: place the window at its first step */
  resumePending?: boolean;
  /** tool outputs at or before this seq are elided in the window (moves only at a cut; 0 = none) */
  elideSeq: number;
  /** each elided row by seq, so every step sends the same elided form until the next cut */
  elided: Map<number, ToolRow>;
  /** last measured gauge (after cuts), for the meter */
  contextWindow: number;
  model: string;
}

export const EXT_ID = "tideline";

export function stateOf(session: Session): TidelineState {
  let s = session.ext.get(EXT_ID) as TidelineState | undefined;
  if (!s) {
    s = { tracker: new BlockTracker(), lineTurn: 0, cutPending: false, elideSeq: 0, elided: new Map(), contextWindow: 0, model: session.info.model };
    session.ext.set(EXT_ID, s);
  }
  return s;
}

/** Rough size of a row in tokens (bytes / 4), used only to place the window when a session is reopened. */
export function estimateRowTokens(row: Row): number {
  let chars = 0;
  if (row.role === "tool") for (const r of row.results) chars += r.content.length + 40;
  else if (row.role === "assistant") {
    chars += row.text.length;
    for (const c of row.toolCalls) chars += JSON.stringify(c.input).length + 40;
  } else chars += row.text.length + (row.role === "user" ? (row.context ?? []).join("").length : 0);
  return Math.ceil(chars / 4) + 4;
}

/**
 * A reopened session: keep about `keep` tokens of the newest rows and put the cut just before a row
 * that can open a window (a user or assistant row, never a tool result). Scans back from the end only
 * as far as the kept part.
 */
export function resumeCutSeq(rows: Row[], keep: number): number {
  let total = 0;
  let i = rows.length - 1;
  for (; i >= 0; i--) {
    total += estimateRowTokens(rows[i]!);
    if (total > keep) break;
  }
  if (i < 0) return 0;
  // move forward to a row that may start a window
  let j = i + 1;
  while (j < rows.length && rows[j]!.role === "tool") j++;
  if (j >= rows.length) return rows[rows.length - 1]!.seq;
  return rows[j]!.seq - 1;
}

/**
 * The provider refused a request as too long and no closed block is there to cut (nothing closed yet in
 * this process, e.g. the first request after --continue): the older half of the window, by estimate,
 * never the current prompt or what follows it. Undefined when there is nothing older to cut.
 */
export function estimatedCut(rows: Row[], cutSeq: number): { seq: number; rows: number; tokens: number } | undefined {
  const live = rows.slice(firstAfter(rows, cutSeq));
  let lastUser = -1;
  for (let k = live.length - 1; k >= 0; k--) {
    if (live[k]!.role === "user") {
      lastUser = k;
      break;
    }
  }
  if (lastUser <= 0) return undefined;
  const total = live.reduce((n, r) => n + estimateRowTokens(r), 0);
  const seq = Math.min(resumeCutSeq(live, Math.floor(total / 2)), live[lastUser]!.seq - 1);
  if (seq <= cutSeq) return undefined;
  const gone = live.filter((r) => r.seq <= seq);
  return { seq, rows: gone.length, tokens: gone.reduce((n, r) => n + estimateRowTokens(r), 0) };
}

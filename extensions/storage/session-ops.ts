/**
 * What a session store queues for its writer as the engine runs: the session's row, its rows, its
 * totals. Both stores (oceancode.db and PostgreSQL) queue the same ops; only their event op differs (the
 * SQLite store numbers events as it queues them, the PostgreSQL one at commit), hence the `Event`
 * parameter. Pure: no database driver is imported.
 */
import type { Session, SessionInfo, SessionTotals } from "../engine/api.js";
import { titleFrom } from "./session-rows.js";

export type SessionWriteOp = {
  t: "session";
  id: string;
  parentId: string | null;
  cwd: string;
  model: string;
  title: string | null;
  createdAt: number;
  updatedAt: number;
  overrides: string;
  totals: string | null;
};
export type RowWriteOp = { t: "row"; sessionId: string; seq: number; turn: number; step: number; role: string; json: string };
export type TotalsWriteOp = { t: "totals"; sessionId: string; totals: string; updatedAt: number; title: string | null };
export type DeleteWriteOp = { t: "delete"; sessionId: string };

/** What a store remembers of an open session between steps. */
export interface TrackedSession<Event> {
  /** highest row seq queued for this session */
  lastSeq: number;
  title?: string;
  /**
   * A new session not written yet: it is stored with its first rows, so one opened and left (or whose
   * first prompt never reached a model) leaves nothing behind. Events for it wait here until then.
   */
  unwritten?: { events: Event[] };
}

/** The session's own row (`totals` when they are to be written with it, `title` when the info has none). */
export function sessionOp(info: SessionInfo, totals?: SessionTotals, title?: string): SessionWriteOp {
  return {
    t: "session",
    id: info.id,
    parentId: info.parentId ?? null,
    cwd: info.cwd,
    model: info.model,
    title: info.title ?? title ?? null,
    createdAt: info.createdAt,
    updatedAt: Date.now(),
    overrides: JSON.stringify(info.overrides ?? {}),
    totals: totals ? JSON.stringify(totals) : null,
  };
}

/**
 * After a step or a turn: the rows not queued yet (in seq order), then the new totals; at a turn's end
 * (`full`) the session's info instead (a resumed run may change model or overrides). A session not
 * written yet gets its row and waiting events first. Updates `t`. Undefined: nothing to keep yet.
 * The store queues the result as one group, so a step commits whole or not at all.
 */
export function stepOps<Event>(session: Session, t: TrackedSession<Event>, full: boolean): Array<SessionWriteOp | RowWriteOp | TotalsWriteOp | Event> | undefined {
  const rows = session.rows;
  const group: Array<SessionWriteOp | RowWriteOp | TotalsWriteOp | Event> = [];
  let i = rows.length;
  while (i > 0 && rows[i - 1]!.seq > t.lastSeq) i--; // walk back over the new rows only
  for (; i < rows.length; i++) {
    const r = rows[i]!;
    if (t.title === undefined && r.role === "user" && r.text.trim()) t.title = titleFrom(r.text);
    group.push({ t: "row", sessionId: session.info.id, seq: r.seq, turn: r.turn, step: r.step, role: r.role, json: JSON.stringify(r) });
    t.lastSeq = r.seq;
  }
  if (t.unwritten) {
    if (group.length === 0) return undefined; // still nothing to keep
    // the session's first rows: its row goes first, then the events that waited for it
    group.unshift(sessionOp(session.info, session.totals, t.title), ...t.unwritten.events);
    t.unwritten = undefined;
  }
  if (full) group.push(sessionOp(session.info, session.totals, t.title));
  else group.push({ t: "totals", sessionId: session.info.id, totals: JSON.stringify(session.totals), updatedAt: Date.now(), title: session.info.title ?? t.title ?? null });
  return group;
}

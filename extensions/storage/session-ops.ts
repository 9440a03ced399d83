/**
 * What a session store queues for its writer as the engine runs: the session's row, its rows, its
 * totals. Both stores (oceancode.db and PostgreSQL) queue the same ops; only their event op differs (the
 * SQLite store numbers events as it queues them, the PostgreSQL one at commit), hence the `Event`
 * parameter. Pure: no database driver is imported.
 */
import type { Session, SessionInfo, SessionTotals } from "../engine/api.js";
import { titleFrom } from "./session-rows.js";
import { type TrackedSession, type TotalsWriteOp, type SessionWriteOp, type RowWriteOp } from "./api.js";
export { type DeleteWriteOp, type RowWriteOp, type SessionWriteOp, type TotalsWriteOp, type TrackedSession } from "./api.js";

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

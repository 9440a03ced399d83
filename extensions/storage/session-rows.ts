/**
 * The session tables' rows as both stores read them back (oceancode.db and the PostgreSQL store have the
 * same tables and meanings, docs/storage.md), and how a row becomes a summary, a session's info or an
 * event record. Pure: no database driver is imported. Times are ms since the epoch: a number in SQLite, a
 * string in PostgreSQL (node-postgres gives BIGINT as text), hence the `Time` parameter.
 */
import type { SessionInfo, SessionTotals } from "../engine/api.js";
import type { SessionEventRecord, SessionSummary } from "./api.js";
import { type SessionDbRow, type EventDbRow } from "./api.js";
export { type EventDbRow, type SessionDbRow } from "./api.js";

/** a time as read: SQLite's number as it is, PostgreSQL's BIGINT text as a number */
function ms(t: number | string): number {
  return typeof t === "number" ? t : Number(t);
}

export function emptyTotals(): SessionTotals {
  return { usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 }, costUsd: 0, turns: 0, steps: 0 };
}

export function parseObject(text: string | null | undefined): Record<string, unknown> {
  if (!text) return {};
  try {
    const v: unknown = JSON.parse(text);
    return typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

export function parseTotals(text: string): SessionTotals {
  const o = parseObject(text) as Partial<SessionTotals>;
  const base = emptyTotals();
  return { ...base, ...o, usage: { ...base.usage, ...(o.usage ?? {}) } };
}

/** A session's title: the first line of its first prompt, at most 80 characters. */
export function titleFrom(text: string): string {
  const line = text.trim().split("\n")[0] ?? "";
  return line.length > 80 ? `${line.slice(0, 79)}…` : line;
}

export function summaryOf(r: SessionDbRow<number | string>): SessionSummary {
  const totals = parseTotals(r.totals);
  return {
    id: r.id,
    ...(r.parent_id ? { parentId: r.parent_id } : {}),
    cwd: r.cwd,
    model: r.model,
    ...(r.title ? { title: r.title } : {}),
    createdAt: ms(r.created_at),
    updatedAt: ms(r.updated_at),
    turns: totals.turns,
    steps: totals.steps,
    ...(r.pinned_at != null ? { pinned: true } : {}),
  };
}

export function infoOf(s: SessionDbRow<number | string>): SessionInfo {
  return {
    id: s.id,
    ...(s.parent_id ? { parentId: s.parent_id } : {}),
    cwd: s.cwd,
    model: s.model,
    createdAt: ms(s.created_at),
    ...(s.title ? { title: s.title } : {}),
    // the slots come back as the JSON that was stored (each owner checks what a bad row could break)
    overrides: parseObject(s.overrides),
  };
}

export function eventOf(e: EventDbRow<number | string>): SessionEventRecord {
  return { sessionId: e.session_id, seq: e.seq, at: ms(e.at), kind: e.kind, data: parseObject(e.json) };
}

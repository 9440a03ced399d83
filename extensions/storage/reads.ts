/** The read queries over oceancode.db (the store runs them after settling its writer) and the row shapes they map. */
import type Database from "better-sqlite3";
import type { Row, SessionInfo, SessionTotals, StoredSession } from "../engine/api.js";
import type { SessionEventRecord, SessionSummary } from "./api.js";

export interface SessionDbRow {
  id: string;
  parent_id: string | null;
  cwd: string;
  model: string;
  title: string | null;
  created_at: number;
  updated_at: number;
  overrides: string;
  totals: string;
  /** from the pins table (list only) */
  pinned_at?: number | null;
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

export function titleFrom(text: string): string {
  const line = text.trim().split("\n")[0] ?? "";
  return line.length > 80 ? `${line.slice(0, 79)}…` : line;
}

export function list(db: Database.Database, opts: { cwd?: string; limit?: number }): SessionSummary[] {
  const limit = Math.max(1, Math.min(opts.limit ?? 1000, 100000));
  const rows = (
    opts.cwd !== undefined
      ? db.prepare(`SELECT s.*, p.pinned_at FROM sessions s LEFT JOIN pins p ON p.session_id = s.id WHERE s.cwd = ? ORDER BY s.updated_at DESC, s.rowid DESC LIMIT ?`).all(opts.cwd, limit)
      : db.prepare(`SELECT s.*, p.pinned_at FROM sessions s LEFT JOIN pins p ON p.session_id = s.id ORDER BY s.updated_at DESC, s.rowid DESC LIMIT ?`).all(limit)
  ) as SessionDbRow[];
  return rows.map((r) => {
    const totals = parseTotals(r.totals);
    return {
      id: r.id,
      ...(r.parent_id ? { parentId: r.parent_id } : {}),
      cwd: r.cwd,
      model: r.model,
      ...(r.title ? { title: r.title } : {}),
      createdAt: r.created_at,
      updatedAt: r.updated_at,
      turns: totals.turns,
      steps: totals.steps,
      ...(r.pinned_at != null ? { pinned: true } : {}),
    };
  });
}

export function load(db: Database.Database, id: string): StoredSession | undefined {
  const s = db.prepare(`SELECT * FROM sessions WHERE id = ?`).get(id) as SessionDbRow | undefined;
  if (!s) return undefined;
  const rows = (db.prepare(`SELECT json FROM rows WHERE session_id = ? ORDER BY seq`).all(id) as Array<{ json: string }>).map((r) => JSON.parse(r.json) as Row);
  const info: SessionInfo = {
    id: s.id,
    ...(s.parent_id ? { parentId: s.parent_id } : {}),
    cwd: s.cwd,
    model: s.model,
    createdAt: s.created_at,
    ...(s.title ? { title: s.title } : {}),
    overrides: parseObject(s.overrides),
  };
  return { info, rows, totals: parseTotals(s.totals) };
}

export function eventRows(db: Database.Database, sessionId: string, kind: string | undefined): SessionEventRecord[] {
  const rows = (
    kind === undefined
      ? db.prepare(`SELECT * FROM events WHERE session_id = ? ORDER BY seq`).all(sessionId)
      : db.prepare(`SELECT * FROM events WHERE session_id = ? AND kind = ? ORDER BY seq`).all(sessionId, kind)
  ) as Array<{ session_id: string; seq: number; at: number; kind: string; json: string }>;
  return rows.map((r) => ({ sessionId: r.session_id, seq: r.seq, at: r.at, kind: r.kind, data: parseObject(r.json) }));
}

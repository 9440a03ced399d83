/** The read queries of the PostgreSQL store (run after the writer settled) and the row shapes they map: as oceancode.db's. */
import type pg from "pg";
import type { Row, SessionInfo, SessionTotals, StoredSession } from "../engine/api.js";
import type { SessionEventRecord, SessionSummary } from "../storage/api.js";

type Q = Pick<pg.ClientBase, "query">;

interface SessionDbRow {
  id: string;
  parent_id: string | null;
  cwd: string;
  model: string;
  title: string | null;
  created_at: string;
  updated_at: string;
  overrides: string;
  totals: string;
  pinned_at?: string | null;
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

export async function list(c: Q, opts: { cwd?: string; limit?: number }): Promise<SessionSummary[]> {
  const limit = Math.max(1, Math.min(opts.limit ?? 1000, 100000));
  const head = `SELECT s.*, p.pinned_at FROM sessions s LEFT JOIN pins p ON p.session_id = s.id`;
  const r =
    opts.cwd !== undefined
      ? await c.query(`${head} WHERE s.cwd = $1 ORDER BY s.updated_at DESC, s.n DESC LIMIT $2`, [opts.cwd, limit])
      : await c.query(`${head} ORDER BY s.updated_at DESC, s.n DESC LIMIT $1`, [limit]);
  return (r.rows as SessionDbRow[]).map((s) => {
    const totals = parseTotals(s.totals);
    return {
      id: s.id,
      ...(s.parent_id ? { parentId: s.parent_id } : {}),
      cwd: s.cwd,
      model: s.model,
      ...(s.title ? { title: s.title } : {}),
      createdAt: Number(s.created_at),
      updatedAt: Number(s.updated_at),
      turns: totals.turns,
      steps: totals.steps,
      ...(s.pinned_at != null ? { pinned: true } : {}),
    };
  });
}

export async function load(c: Q, id: string): Promise<StoredSession | undefined> {
  const s = (await c.query(`SELECT * FROM sessions WHERE id = $1`, [id])).rows[0] as SessionDbRow | undefined;
  if (!s) return undefined;
  const rows = ((await c.query(`SELECT json FROM rows WHERE session_id = $1 ORDER BY seq`, [id])).rows as Array<{ json: string }>).map((r) => JSON.parse(r.json) as Row);
  const info: SessionInfo = {
    id: s.id,
    ...(s.parent_id ? { parentId: s.parent_id } : {}),
    cwd: s.cwd,
    model: s.model,
    createdAt: Number(s.created_at),
    ...(s.title ? { title: s.title } : {}),
    overrides: parseObject(s.overrides),
  };
  return { info, rows, totals: parseTotals(s.totals) };
}

export async function eventRows(c: Q, sessionId: string, kind: string | undefined): Promise<SessionEventRecord[]> {
  const r =
    kind === undefined
      ? await c.query(`SELECT * FROM events WHERE session_id = $1 ORDER BY seq`, [sessionId])
      : await c.query(`SELECT * FROM events WHERE session_id = $1 AND kind = $2 ORDER BY seq`, [sessionId, kind]);
  return (r.rows as Array<{ session_id: string; seq: number; at: string; kind: string; json: string }>).map((e) => ({
    sessionId: e.session_id,
    seq: e.seq,
    at: Number(e.at),
    kind: e.kind,
    data: parseObject(e.json),
  }));
}

export async function latest(c: Q, cwd: string): Promise<string | undefined> {
  const r = await c.query(`SELECT id FROM sessions WHERE cwd = $1 AND parent_id IS NULL ORDER BY updated_at DESC, n DESC LIMIT 1`, [cwd]);
  return (r.rows[0] as { id: string } | undefined)?.id;
}

export async function stale(c: Q, days: number): Promise<string[]> {
  const cutoff = Date.now() - days * 86_400_000;
  const r = await c.query(`SELECT id FROM sessions WHERE updated_at < $1 AND id NOT IN (SELECT session_id FROM pins) ORDER BY updated_at`, [cutoff]);
  return (r.rows as Array<{ id: string }>).map((x) => x.id);
}

/**
 * The storage extension's public API. Service name: "storage" (StorageService).
 * One writer owns oceancode.db (better-sqlite3, WAL). Rows of an open session are written behind the
 * step in batches; readers that need the latest state call settle() first.
 */
import type { Row, SessionInfo, SessionTotals, StoredSession } from "../engine/api.js";

export interface SessionSummary {
  id: string;
  parentId?: string;
  cwd: string;
  model: string;
  title?: string;
  createdAt: number;
  updatedAt: number;
  turns: number;
  steps: number;
}

/** An event recorded against a session (hook outcomes with provenance, notices, bounds, ...). */
export interface SessionEventRecord {
  sessionId: string;
  seq: number;
  at: number;
  kind: string;
  data: Record<string, unknown>;
}

/** The writer's health (metrics endpoint: oceancode_writer_lag_ms, doctor --storage). */
export interface StorageStats {
  dbPath: string;
  /** writes queued, not yet committed */
  queued: number;
  /** age of the oldest queued write: what a crash now would lose */
  lagMs: number;
  committedOps: number;
  batches: number;
  /** writes given up (database unusable, or a write for a session that was never stored) */
  dropped: number;
  lastError?: string;
}

export interface StorageService {
  readonly dbPath: string;
  /** Wait until every queued write is committed. */
  settle(): Promise<void>;
  listSessions(opts?: { cwd?: string; limit?: number }): Promise<SessionSummary[]>;
  loadSession(id: string): Promise<StoredSession | undefined>;
  latestSessionId(cwd: string): Promise<string | undefined>;
  /** Queue an event row (write-behind, in order with the session's rows). */
  recordEvent(sessionId: string, kind: string, data: Record<string, unknown>): void;
  events(sessionId: string, kind?: string): Promise<SessionEventRecord[]>;
  /** Persist per-session overrides (e.g. /tideline) so they survive --continue. */
  saveInfo(info: SessionInfo): void;
  deleteSession(id: string): Promise<void>;
  /** Sessions idle longer than `days` (retention sweep). */
  staleSessions(days: number): Promise<string[]>;
  /** Writer health; optional so a replacement store need not offer it. */
  stats?(): StorageStats;
}

export type { Row, SessionInfo, SessionTotals, StoredSession };

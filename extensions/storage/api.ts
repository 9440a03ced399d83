/**
 * The storage extension's public API. Service name: "storage" (StorageService).
 * One writer owns oceancode.db (better-sqlite3, WAL). Rows of an open session are written behind the
 * step in batches; readers that need the latest state call settle() first.
 */
import type { Row, SessionInfo, SessionTotals, StoredSession } from "../engine/api.js";
import type { ResolvedConfig } from "../../kernel/config.js";

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
  /** kept by the retention sweep until unpinned (oceancode session pin) */
  pinned?: boolean;
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
  /** Sessions idle longer than `days`, oldest first; pinned sessions are never stale. */
  staleSessions(days: number): Promise<string[]>;
  /** Another store that keeps per-session copies (the ledger's directories) joins the retention sweep. */
  addRetentionParticipant?(p: RetentionParticipant): void;
  /** Writer health; optional so a replacement store need not offer it. */
  stats?(): StorageStats;
}

/**
 * A store that keeps its own copy of each session (files on disk, ...) and lets the retention sweep
 * remove it. Extensions register one with `storage.addRetentionParticipant` when they activate, and
 * listen to the activation event `onEvent:retention` so `oceancode sessions --expiring` sees them too.
 */
export interface RetentionParticipant {
  /** shown to the user: "ledger" */
  readonly name: string;
  /** its copy goes this many days after the session's last activity; 0 keeps it forever */
  readonly days: number;
  /** every session id it holds a copy of */
  ids(): string[];
  has(id: string): boolean;
  /** last activity and project as this store knows them (used when the database no longer holds the session) */
  describe(id: string): { lastActive: number; cwd?: string };
  /** bytes its copy takes on disk */
  bytes(id: string): number;
  remove(id: string): void | Promise<void>;
}

/** One session the retention sweep removes (or would remove next). */
export interface ExpiringSession {
  id: string;
  /** the project; undefined when no store remembers it */
  cwd?: string;
  lastActive: number;
  /** what goes: the database's payload plus each participant's copy */
  bytes: number;
  /** which copies go: "database" and/or participant names */
  stores: string[];
  /** copies that stay, under a longer retention of their own */
  keeps?: string[];
}

/**
 * Retention is one policy for every project, so it is read from the built-in default, the user's
 * config, managed config and pins only: a project's `.oceancode/` file must not make a run there sweep
 * every other project. Returns the value and the project files that set it (ignored, to warn about).
 */
export function globalSetting(config: ResolvedConfig, dotted: string): { value: unknown; ignoredIn: string[] } {
  let value: unknown;
  const ignoredIn: string[] = [];
  const segs = dotted.split(".");
  for (const layer of config.layers) {
    let cur: unknown = layer.value;
    for (const s of segs) cur = typeof cur === "object" && cur !== null && !Array.isArray(cur) ? (cur as Record<string, unknown>)[s] : undefined;
    if (cur === undefined) continue;
    if (layer.name === "project") ignoredIn.push(layer.file ?? "project config");
    else value = cur;
  }
  return { value, ignoredIn };
}

export type { Row, SessionInfo, SessionTotals, StoredSession };

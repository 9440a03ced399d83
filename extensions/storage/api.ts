/**
 * The published contract `oceancode/api/storage` (what other extensions and third parties may import).
 *
 * The storage extension's public API. Service name: "storage" (StorageService).
 * One writer owns oceancode.db (better-sqlite3, WAL). Rows of an open session are written behind the
 * step in batches; readers that need the latest state call settle() first.
 */
import type { Row, SessionInfo, SessionTotals, StoredSession } from "../engine/api.js";
import path from "node:path";
import type { ResolvedConfig } from "../../kernel/config.js";
import type { CommandIO } from "../../kernel/api.js";
import type { OrphanedSession } from "./orphans.js";

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
  /** of those, writes refused one by one (a row or event for a session that was never stored) */
  skipped?: number;
  lastError?: string;
}

/** Whether the store kept everything it was given (the run host exits 1 when not). */
export interface StorageHealth {
  /** every queued write is committed and none was given up */
  ok: boolean;
  /** SQLite reports the file damaged (or not a database): `oceancode storage repair` rebuilds it */
  damaged: boolean;
  /** why not, naming the database file and the fix */
  message?: string;
}

/** One session as a recovery source gives it back, for `oceancode storage repair`. */
export interface RecoveredSession {
  info: SessionInfo;
  totals: SessionTotals;
  /** in seq order, no duplicates */
  rows: Row[];
  /** the last time the source saw the session change (ms) */
  updatedAt: number;
  /** what could not be given back exactly, one line each (shown in the repair report) */
  gaps: string[];
}

/** What a recovery source yields per session: the session, or why it could not give it back. */
export type RecoveryItem = { ok: true; session: RecoveredSession } | { ok: false; id: string; why: string };

/**
 * Where sessions can be rebuilt from when oceancode.db is damaged. The ledger registers one (its
 * transcripts, rows.jsonl and journal). `storage repair` fires the activation event
 * RECOVERY_EVENT so every extension that can give sessions back activates and registers.
 */
export interface RecoverySource {
  /** e.g. "ledger" */
  readonly name: string;
  /** what it reads (shown in the report), e.g. the ledger root */
  readonly location: string;
  /** Every session it holds, one at a time (a source never holds all of them in memory). */
  sessions(): AsyncIterable<RecoveryItem>;
  /**
   * The seq of the last whole row it holds of one session, cheaply (the ledger reads the end of
   * rows.jsonl); 0 for none, undefined when it holds nothing of the session. With `session` it lets a
   * store find out, when a session is reopened, whether the source is ahead of the database (reconcile).
   */
  lastSeq?(id: string, parentId?: string): Promise<number | undefined>;
  /** One session, as sessions() gives it; undefined when it holds nothing of it. */
  session?(id: string, parentId?: string): Promise<RecoveryItem | undefined>;
  /** The ids of the (root) sessions it holds. */
  ids?(): Promise<string[]>;
}

export const RECOVERY_EVENT = "onEvent:storage:recover";

/** The result of checking a database file (doctor --storage, storage repair). */
export interface DatabaseCheck {
  file: string;
  /** unreadable: it could not be checked (permissions, locked), which says nothing about damage */
  status: "absent" | "ok" | "damaged" | "unreadable";
  /** quick_check's first findings, or why the file cannot be read */
  detail: string;
  /** unreadable because another process holds its lock (SQLITE_BUSY): `detail` names it when it can */
  locked?: boolean;
  bytes: number;
  walBytes: number;
  /** schema version and session count, when the file could be read */
  schema?: number;
  sessions?: number;
}

/**
 * Check a database file without the storage extension (no activation): PRAGMA quick_check on a
 * read-only connection. Loaded on demand so importing this contract stays cheap.
 */
export async function checkDatabase(file: string): Promise<DatabaseCheck> {
  const { checkDatabaseFile } = await import("./health.js");
  return checkDatabaseFile(file);
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
  /**
   * Persist totals that changed between steps (a cache keep-alive touch's usage and cost); a session not
   * stored yet is skipped (its totals go with its first rows). Optional: a store without it keeps the
   * totals of the last step.
   */
  saveTotals?(sessionId: string, totals: SessionTotals): void;
  deleteSession(id: string): Promise<void>;
  /** Sessions idle longer than `days`, oldest first; pinned sessions are never stale. */
  staleSessions(days: number): Promise<string[]>;
  /** Another store that keeps per-session copies (the ledger's directories) joins the retention sweep. */
  addRetentionParticipant?(p: RetentionParticipant): void;
  /** Writer health; optional so a replacement store need not offer it. */
  stats?(): StorageStats;
  /** Whether everything given so far is stored (after settle); optional. */
  health?(): StorageHealth;
  /** Offer sessions for `storage repair` (the ledger does); optional. */
  registerRecoverySource?(source: RecoverySource): void;

  // The storage contract's commands (`oceancode sessions`, `migrate`, `doctor --storage`) are served by
  // the `storage-commands` extension for whichever extension provides "storage"; these optional
  // members are what they ask of it. A provider without one gets a plain answer ("has no migrations").

  /** `doctor --storage`: checks of the store, one line each (never opens it for writing). */
  doctorChecks?(): Promise<StorageCheck[]>;
  /** `oceancode migrate`: the store's schema migrations. */
  readonly migrations?: StorageMigrations;
  /** `sessions --db <location>`: the same kind of store over another location, closed after use. */
  at?(location: string): StorageService & { close(): void };
  /** `sessions --expiring`: print what the next retention sweep removes; resolves to the exit code. */
  expiring?(io: CommandIO, opts: { json: boolean; location?: string }): Promise<number>;
  /** `session pin|unpin`: sessions the retention sweep keeps, whatever their age. */
  readonly pins?: SessionPins;
  /** `doctor`: sessions whose last turn was left running by a process that is gone (read only, never opens the store for writing). */
  orphans?(): Promise<OrphanedSession[]>;
  /** `doctor --storage`: the figures of its `storage:` block (read only). */
  figures?(): Promise<StorageFigures>;
}

/** What `doctor --storage` prints under `storage:` (docs/operations-doctor.md). */
export interface StorageFigures {
  /** what the store is called in the block: the database file's name ("oceancode.db"), or a redacted URL */
  name: string;
  /** the file, or the redacted URL */
  location: string;
  bytes: number;
  /** undefined when the store has no WAL file of its own to measure (PostgreSQL without the right) */
  walBytes?: number;
  sessions: number;
  /** the retention participants' copies (the ledger) */
  ledgerBytes?: number;
  ledgerSessions?: number;
  /** the oldest last activity among the ledger's sessions (ms) */
  ledgerOldest?: number;
  /** what the next retention sweep removes */
  retentionDue: { sessions: number; bytes: number };
  /** database.vacuum, and what a vacuum could give back now (free pages inside the file) */
  vacuum?: { on: boolean; detail: string };
  /** free space where the data lives; undefined when it cannot be asked (a remote server) */
  freeBytes?: number;
  freeDir: string;
}

export { endsTurn, findOrphans, type LastRow, type OrphanedSession } from "./orphans.js";
export { participantFigures } from "./figures.js";

/** Pins, as `oceancode session pin|unpin` asks for them; each call is written at once (a command, not a step). */
export interface SessionPins {
  /** whether this store, or another that keeps a copy (a retention participant such as the ledger), holds the session */
  known(id: string): Promise<boolean>;
  /** true when the pin is new */
  pin(id: string): Promise<boolean>;
  /** true when there was a pin to remove */
  unpin(id: string): Promise<boolean>;
}

/** One `doctor` line: `ok`/`info`/`warn`/`FAIL`, what was checked, the detail. */
export interface StorageCheck {
  status: "ok" | "info" | "warn" | "FAIL";
  check: string;
  detail: string;
}

export interface StorageMigrations {
  /** the schema version this build writes */
  readonly latest: number;
  /** what is migrated, for `migrate --help` (e.g. "oceancode.db") */
  readonly target: string;
  /** Bring the store at `location` (default: the store's own) to `latest`; throws when it cannot be opened. */
  apply(location?: string): Promise<MigrationReport>;
}

export interface MigrationReport {
  /** the file or directory migrated */
  location: string;
  from: number;
  to: number;
  applied: Array<{ version: number; summary: string }>;
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
 * The retention engine, for any store: a store implements RetentionBackend (its idle sessions, pins,
 * payload sizes, a try-lock, deleteSession) and gets the sweep at session start (tapRetention), the plan
 * and `sessions --expiring` (expiringCommand) with the bundled store's policy and messages. The bundled
 * store and storage-postgres both use it. (These modules import types only: this contract stays cheap.)
 */
export {
  busyElsewhere,
  DEFAULT_RETENTION_DAYS,
  planRetention,
  sweepLine,
  sweepRetention,
  tapRetention,
  type RetentionBackend,
  type RetentionLock,
  type RetentionPlan,
  type RetentionPolicy,
  type SweepReport,
  type TapRetentionOptions,
} from "./retention.js";
export { expiringCommand, type ExpiringDeps } from "./expiring.js";

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

/**
 * The session database: `database.path` (the user config < $OC_DB < --db < managed/pins as layered; a project
 * file cannot move it: one database for every project), else `<dataDir>/oceancode.db`.
 */
export function databaseFile(config: ResolvedConfig, dataDir: string): { file: string; isDefault: boolean; ignoredIn: string[] } {
  const s = globalSetting(config, "database.path");
  const set = typeof s.value === "string" && s.value.length > 0 ? path.resolve(s.value) : undefined;
  return { file: set ?? path.join(dataDir, "oceancode.db"), isDefault: set === undefined, ignoredIn: s.ignoredIn };
}

export type { Row, SessionInfo, SessionTotals, StoredSession };
/** storage's coded errors other stores throw too (a database a newer oceancode wrote) */
export { SchemaTooNew, isStorageOpenError } from "./errors.js";

/**
 * The write-behind queue a session store writes through (batches that never split a step, retry back-off
 * with one message per failure episode, settle), and the health it implies; the SQLite and PostgreSQL
 * stores' writers are thin adapters over it. Type imports only: no database driver is loaded.
 */
export { WriteQueue, writerHealth, type QueueOp, type WriteQueueOptions, type WriterStats } from "./write-queue.js";

/**
 * The session tables' rows (the same in every store: docs/storage.md) and how they read back as
 * summaries, session info and event records; pure, no database driver.
 */
export { emptyTotals, eventOf, infoOf, parseObject, parseTotals, summaryOf, titleFrom, type EventDbRow, type SessionDbRow } from "./session-rows.js";

/** What a session store queues for its writer as the engine runs (the same in every store); pure. */
export { sessionOp, stepOps, type DeleteWriteOp, type RowWriteOp, type SessionWriteOp, type TotalsWriteOp, type TrackedSession } from "./session-ops.js";

/**
 * The ledger and the database reconciled on open (reconcile.ts): whether a recovery source runs past a
 * store's rows, the writes that catch the store up, and the lines that say so; any store uses them on the
 * open of a session it has claimed. Pure: no database driver.
 */
export { catchUp, catchUpOps, caughtUpLine, reconcileSession, refusalLine, type CatchUpTarget, type Reconcile } from "./reconcile.js";

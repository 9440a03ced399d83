/**
 * The published contract `oceancode/api/storage` (what other extensions and third parties may import).
 *
 * The storage extension's public API. Service name: "storage" (StorageService).
 * One writer owns oceancode.db (better-sqlite3, WAL). Rows of an open session are written behind the
 * step in batches; readers that need the latest state call settle() first.
 */
import type { Row, SessionInfo, SessionTotals, StoredSession } from "../engine/api.js";
import type { CommandIO, Logger } from "../../kernel/api.js";

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

export type { Row, SessionInfo, SessionTotals, StoredSession };

/*
 * The types of the implementation both stores share (the kit `oceancode/kit/storage`: the retention
 * engine, the write-behind queue, the row mapping, a step's write group, reconcile on open).
 */

/** The last stored row of a root session, as a store reads it. */
export interface LastRow {
  id: string;
  cwd: string;
  updatedAt: number;
  seq: number;
  turn: number;
  role: string;
  /** the row as stored (JSON) */
  json: string;
  title?: string;
}

export interface OrphanedSession {
  id: string;
  cwd: string;
  /** the turn left running */
  turn: number;
  /** the last row stored of it */
  lastSeq: number;
  /** when the session last changed (ms) */
  lastActive: number;
  title?: string;
}

export const DEFAULT_RETENTION_DAYS = 30;

/** A session's lock, taken without waiting: held (release it), or busy in another process. */
export type RetentionLock = { release(): Promise<void> } | { busy: true; holder?: string };

/** What the retention engine asks of a store. Every read is of committed state (the engine settles first). */
export interface RetentionBackend {
  /** wait until the store's queued writes are committed */
  settle(): Promise<void>;
  /** ids of the sessions whose last activity is before `cutoff` (ms), oldest first, pinned or not */
  idleBefore(cutoff: number): Promise<string[]>;
  /** the session's project and last activity (ms); undefined when the store does not hold it */
  session(id: string): Promise<{ cwd: string; lastActive: number } | undefined>;
  pinned(id: string): Promise<boolean>;
  /** the JSON payload of its rows and events, in bytes */
  payloadBytes(id: string): Promise<number>;
  /** the session's lock without waiting; `holder` names who has it ("process 12 on host") */
  tryLock(id: string): Promise<RetentionLock>;
  /** its rows and events go */
  deleteSession(id: string): Promise<void>;
  /** an error the store reports itself (an unusable database): a sweep it stops is logged at debug only */
  reportsItself?(e: unknown): boolean;
}

export interface RetentionPolicy {
  /** database.retention_days; 0 keeps the rows forever */
  dbDays: number;
  participants: readonly RetentionParticipant[];
  /** ids never swept (the sessions open in this process) */
  keep?: ReadonlySet<string>;
  now?: number;
}

export interface RetentionPlan {
  expiring: ExpiringSession[];
  /** pinned sessions past retention, kept */
  pinned: number;
}

export interface SweepReport {
  removed: ExpiringSession[];
  /** open in another process: kept this time */
  busy: Array<{ id: string; holder?: string }>;
}

export interface TapRetentionOptions {
  /** the tap's name (the extension id) */
  name: string;
  dbDays: number;
  log: Logger;
  /** the stores that joined (the ledger) */
  participants(): readonly RetentionParticipant[];
  /** the sessions this process has open (started or written, not closed) */
  openSessionIds(): Set<string>;
  /** after each sweep (database.vacuum: give the freed space back); its failure is logged, never thrown */
  afterSweep?(report: SweepReport): Promise<void>;
}

export interface ExpiringDeps {
  dbDays: number;
  /** activates the other stores (onEvent:retention) and returns who joined */
  participants(): Promise<readonly RetentionParticipant[]>;
  /** database.vacuum: the sweep gives the space back to the file system (said after the total) */
  vacuum?: boolean;
}

/** What the queue needs of an op: its kind and its session (`id` on the session row itself), for messages. */
export type QueueOp = { t: string; sessionId: string } | { t: string; id: string };

/** The writer's part of the storage stats (the store adds dbPath). */
export type WriterStats = Omit<StorageStats, "dbPath">;

export interface WriteQueueOptions {
  /** called once per failure episode (not per retry), for each skipped op, and on a permanent failure */
  onError(message: string): void;
  onRecover?(message: string): void;
  maxBatch?: number;
  /** retry delays after a failed flush, the last one repeats */
  retryMs?: readonly number[];
}

/** A `sessions` row (`pinned_at` from the pins table, when the query joins it). */
export interface SessionDbRow<Time extends number | string = number> {
  id: string;
  parent_id: string | null;
  cwd: string;
  model: string;
  title: string | null;
  created_at: Time;
  updated_at: Time;
  overrides: string;
  totals: string;
  /** from the pins table (list only) */
  pinned_at?: Time | null;
}

/** An `events` row. */
export interface EventDbRow<Time extends number | string = number> {
  session_id: string;
  seq: number;
  at: Time;
  kind: string;
  json: string;
}

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

export type Reconcile =
  /** nothing to do: the source is not ahead (or holds nothing of the session) */
  | { kind: "even"; dbLast: number; sourceLast?: number }
  /** `rows`: what the database lacks, seq dbLast+1.. in order; `info`/`totals`: the source's newest */
  | { kind: "ahead"; source: string; dbLast: number; sourceLast: number; rows: Row[]; info: SessionInfo; totals: SessionTotals; updatedAt: number }
  | { kind: "conflict"; source: string; dbLast: number; sourceLast: number; why: string };

/** What a store needs to catch its database up on open: its write queue, a settle, and a line for the user. */
export interface CatchUpTarget {
  enqueueGroup(ops: ReadonlyArray<SessionWriteOp | RowWriteOp>): void;
  settle(): Promise<void>;
  warn(line: string): void;
}

/** The services this contract names, typed for `ctx.services.get(name)` and `kernel.service(name)` (storage-postgres provides the same service). */
declare module "../../kernel/api.js" {
  interface ServiceMap {
    storage: StorageService;
  }
}

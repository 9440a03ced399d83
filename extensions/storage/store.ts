/**
 * SqliteStore: the StorageService over oceancode.db. Reads are synchronous SQLite queries made after
 * settle(); writes go through the one Writer (write-behind). It also tracks, per open session, the
 * last row it queued, so each step queues only its new rows (work per step does not grow with the
 * session's length).
 */
import type Database from "better-sqlite3";
import type { Session, SessionInfo, SessionRefusal, SessionTotals, StoredSession } from "../engine/api.js";
import type { RecoverySource, RetentionParticipant, SessionEventRecord, SessionSummary, StorageHealth, StorageService, StorageStats } from "./api.js";
import { fullDisk, isDamage, openDb, repairCommandFor, storageDamaged, type OpenedDb } from "./db.js";
import { isStorageOpenError, StorageClosed, StorageDamaged, StorageFull, StorageLocked } from "./errors.js";
import { Writer, type WriteOp, type WriteTarget } from "./writer.js";
import { writerHealth } from "./write-queue.js";
import { eventRows, list, load } from "./reads.js";
import { sessionOp, stepOps, type TrackedSession } from "./session-ops.js";
import { isLocked, lockedLine } from "./lock-holders.js";
import { catchUp, reconcileSession, refusalLine } from "./reconcile.js";

export { emptyTotals, titleFrom } from "./session-rows.js";

export interface StoreOptions {
  file: string;
  onError(message: string): void;
  onInfo?(message: string): void;
  /** something the user should know that is not a failure (a session caught up from its ledger); default onError */
  onWarn?(message: string): void;
  /** database.retention_days: a session only a recovery source holds, idle longer than this, aged out of the database (0: never) */
  retentionDays?: number;
  /** the command named when the file is damaged (default: `oceancode --db <file> storage repair`) */
  repair?: string;
  maxBatch?: number;
  retryMs?: readonly number[];
}

interface Tracked extends TrackedSession<WriteOp> {
  /** next event seq (lazy: read from the db on the first event) */
  nextEvent?: number;
}

const isConstraint = (e: unknown): boolean => typeof (e as { code?: unknown }).code === "string" && (e as { code: string }).code.startsWith("SQLITE_CONSTRAINT");

export class SqliteStore implements StorageService, WriteTarget {
  readonly dbPath: string;
  private opened: OpenedDb | undefined;
  private openError: Error | undefined;
  private stmts: ReturnType<SqliteStore["prepare"]> | undefined;
  private readonly writer: Writer;
  private readonly tracked = new Map<string, Tracked>();
  private closed = false;
  private readonly participants: RetentionParticipant[] = [];
  private readonly sources: RecoverySource[] = [];
  private readonly onExit = () => this.flushNow();
  /** the last read refused because another process holds the lock, or the disk is full (cleared by a read that works) */
  private lockedRead: string | undefined;

  constructor(private readonly opts: StoreOptions) {
    this.dbPath = opts.file;
    this.writer = new Writer({ target: this, onError: opts.onError, onRecover: opts.onInfo, maxBatch: opts.maxBatch, retryMs: opts.retryMs });
    process.on("exit", this.onExit);
  }

  // ------------------------------------------------------------ db access

  /** Open (and migrate) on first use. A permanent failure is remembered and rethrown. */
  db(): Database.Database {
    if (this.openError) throw this.openError; // also once a query found the open file damaged
    if (this.opened) return this.opened.db;
    if (this.closed) throw StorageClosed({ file: this.dbPath });
    try {
      this.opened = openDb(this.dbPath, this.repair);
    } catch (e) {
      if (isStorageOpenError(e) && !/unable to open|cannot create|SQLITE_BUSY|locked|is full/i.test(e.message)) this.openError = e;
      throw e;
    }
    const m = this.opened.migration;
    if (m.applied.length && m.from > 0) this.opts.onInfo?.(`${this.dbPath}: migrated schema v${m.from} -> v${m.to}`);
    this.stmts = this.prepare(this.opened.db);
    return this.opened.db;
  }

  private get repair(): string {
    return this.opts.repair ?? repairCommandFor(this.dbPath, false);
  }

  /**
   * SQLite reported damage (a page, not the header, may be hit only by some queries): from now on the
   * store refuses like a file that does not open, so writes stop and every reader names the file and the fix.
   */
  private damaged(e: unknown): Error {
    if (StorageDamaged.is(this.openError)) return this.openError;
    const err = storageDamaged(this.dbPath, e instanceof Error ? e.message : String(e), this.repair, { cause: e });
    this.openError = err;
    return err;
  }

  /** Run a read; a damage error becomes the store's remembered StorageDamaged error. */
  private read<T>(fn: (db: Database.Database) => T): Promise<T> {
    return this.settled().then(
      (db) => {
        try {
          const out = fn(db);
          this.lockedRead = undefined;
          return out;
        } catch (e) {
          throw isDamage(e) ? this.damaged(e) : this.lockedOr(e);
        }
      },
      (e: unknown) => {
        throw this.lockedOr(e);
      },
    );
  }

  /** A lock error is remembered (health() names the holder, so "no earlier session" is never said for it). */
  private lockedOr(e: unknown): unknown {
    // a full disk under the file: remembered the same way (transient: the next read that works clears it)
    if (isStorageOpenError(e) && /the disk holding it is full/.test(e.message)) {
      this.lockedRead = e.message;
      return e;
    }
    if (!isLocked(e)) return e;
    this.lockedRead = isStorageOpenError(e) ? e.message : lockedLine(this.dbPath);
    return StorageLocked({ line: this.lockedRead }, { cause: e });
  }

  private prepare(db: Database.Database) {
    return {
      upsertSession: db.prepare(
        `INSERT INTO sessions (id, parent_id, cwd, model, title, created_at, updated_at, overrides, totals)
         VALUES (@id, @parentId, @cwd, @model, @title, @createdAt, @updatedAt, @overrides, COALESCE(@totals, '{}'))
         ON CONFLICT(id) DO UPDATE SET parent_id = excluded.parent_id, cwd = excluded.cwd, model = excluded.model,
           title = COALESCE(excluded.title, sessions.title), overrides = excluded.overrides,
           totals = COALESCE(@totals, sessions.totals), updated_at = MAX(sessions.updated_at, excluded.updated_at)`,
      ),
      row: db.prepare(`INSERT OR REPLACE INTO rows (session_id, seq, turn, step, role, json) VALUES (?, ?, ?, ?, ?, ?)`),
      totals: db.prepare(`UPDATE sessions SET totals = ?, updated_at = MAX(updated_at, ?), title = COALESCE(title, ?) WHERE id = ?`),
      event: db.prepare(`INSERT OR REPLACE INTO events (session_id, seq, at, kind, json) VALUES (?, ?, ?, ?, ?)`),
      del: db.prepare(`DELETE FROM sessions WHERE id = ?`),
      maxRowSeq: db.prepare(`SELECT MAX(seq) AS m FROM rows WHERE session_id = ?`),
      maxEventSeq: db.prepare(`SELECT MAX(seq) AS m FROM events WHERE session_id = ?`),
    };
  }

  // ------------------------------------------------------------ WriteTarget (called by the writer only)

  runBatch(ops: readonly WriteOp[], onSkip: (op: WriteOp, error: unknown) => void): void {
    try {
      this.commit(ops, onSkip);
    } catch (e) {
      if (isDamage(e)) throw this.damaged(e);
      // "database is locked" says nothing of who: name the holder
      if (isLocked(e) && !isStorageOpenError(e)) throw StorageLocked({ line: lockedLine(this.dbPath) }, { cause: e });
      // "database or disk is full" says neither which disk nor how full
      const full = isStorageOpenError(e) ? undefined : fullDisk(e, this.dbPath, { measured: true });
      if (full) throw StorageFull({ line: full.replace("cannot use the database: ", "cannot write the database: ") }, { cause: e });
      throw e;
    }
  }

  private commit(ops: readonly WriteOp[], onSkip: (op: WriteOp, error: unknown) => void): void {
    const db = this.db();
    const s = this.stmts!;
    db.transaction(() => {
      for (const op of ops) {
        try {
          switch (op.t) {
            case "session":
              s.upsertSession.run(op);
              break;
            case "row":
              s.row.run(op.sessionId, op.seq, op.turn, op.step, op.role, op.json);
              break;
            case "totals":
              s.totals.run(op.totals, op.updatedAt, op.title, op.sessionId);
              break;
            case "event":
              s.event.run(op.sessionId, op.seq, op.at, op.kind, op.json);
              break;
            case "delete":
              s.del.run(op.sessionId);
              break;
          }
        } catch (e) {
          // a constraint failure (e.g. a row whose session was never stored) undoes only that statement
          if (!isConstraint(e)) throw e;
          onSkip(op, e);
        }
      }
    }).immediate();
  }

  isPermanent(e: unknown): boolean {
    return e === this.openError && e !== undefined;
  }

  // ------------------------------------------------------------ write-behind (engine taps call these)

  /** A session opened: queue its row first, so no row of it can ever be committed before it. */
  sessionStarted(session: Session, source: "startup" | "resume"): void {
    const known = this.tracked.get(session.info.id);
    if (known) return void this.writer.enqueue(sessionOp(session.info));
    const last = session.rows[session.rows.length - 1];
    const t: Tracked = { lastSeq: source === "resume" && last ? last.seq : Number.NEGATIVE_INFINITY };
    this.tracked.set(session.info.id, t);
    if (source === "startup" && !last) t.unwritten = { events: [] };
    else this.writer.enqueue(sessionOp(session.info, session.totals));
  }

  /**
   * After a step or a turn: queue the rows not queued yet (in seq order), then the new totals. At a
   * turn's end (`full`) the session's info is written too (a resumed run may change model or overrides).
   */
  sessionProgress(session: Session, full = false): void {
    const t = this.tracked.get(session.info.id) ?? this.adopt(session);
    const group = stepOps(session, t, full);
    if (group) this.writer.enqueueGroup(group); // one step commits whole or not at all
  }

  /** A session we did not see start (e.g. opened before this extension activated). */
  private adopt(session: Session): Tracked {
    let lastSeq = Number.NEGATIVE_INFINITY;
    try {
      const m = (this.db(), this.stmts!.maxRowSeq.get(session.info.id) as { m: number | null }).m;
      if (m !== null) lastSeq = m;
    } catch {
      // db unavailable: queue everything; rows are written idempotently
    }
    const t: Tracked = { lastSeq };
    this.tracked.set(session.info.id, t);
    this.writer.enqueue(sessionOp(session.info, session.totals));
    return t;
  }

  /** The session left memory (closed or evicted): forget its tracking; its writes stay queued. */
  forget(sessionId: string): void {
    this.tracked.delete(sessionId);
  }

  // ------------------------------------------------------------ StorageService

  settle(): Promise<void> {
    return this.writer.settle();
  }

  stats(): StorageStats {
    return { dbPath: this.dbPath, ...this.writer.stats() };
  }

  registerRecoverySource(source: RecoverySource): void {
    if (!this.sources.some((s) => s.name === source.name)) this.sources.push(source);
  }

  recoverySources(): readonly RecoverySource[] {
    return this.sources;
  }

  health(): StorageHealth {
    const damaged = StorageDamaged.is(this.openError);
    if (this.openError) return { ok: false, damaged, message: this.openError.message };
    const w = writerHealth(this.dbPath, this.writer.stats());
    if (w.ok && this.lockedRead) return { ok: false, damaged: false, message: this.lockedRead };
    return w;
  }

  recordEvent(sessionId: string, kind: string, data: Record<string, unknown>): void {
    let t = this.tracked.get(sessionId);
    if (!t) {
      t = { lastSeq: Number.NEGATIVE_INFINITY };
      try {
        const m = (this.db(), this.stmts!.maxRowSeq.get(sessionId) as { m: number | null }).m;
        if (m !== null) t.lastSeq = m;
      } catch {
        /* db unavailable */
      }
      this.tracked.set(sessionId, t);
    }
    if (t.nextEvent === undefined) {
      t.nextEvent = 1;
      try {
        const m = (this.db(), this.stmts!.maxEventSeq.get(sessionId) as { m: number | null }).m;
        if (m !== null) t.nextEvent = m + 1;
      } catch {
        /* db unavailable: events start at 1 */
      }
    }
    const op: WriteOp = { t: "event", sessionId, seq: t.nextEvent++, at: Date.now(), kind, json: JSON.stringify(data) };
    if (t.unwritten) t.unwritten.events.push(op);
    else this.writer.enqueue(op);
  }

  /**
   * Totals that changed between steps (a cache keep-alive touch): queued for a session already stored;
   * one not stored yet gets them with its first rows (its totals object is the same one).
   */
  saveTotals(sessionId: string, totals: SessionTotals): void {
    const t = this.tracked.get(sessionId);
    if (!t || t.unwritten) return;
    // updatedAt 0: a touch is no activity of the session's own (updated_at = MAX keeps the last one)
    this.writer.enqueue({ t: "totals", sessionId, totals: JSON.stringify(totals), updatedAt: 0, title: t.title ?? null });
  }

  saveInfo(info: SessionInfo): void {
    // a session not written yet is stored with its info (read then) at its first rows
    if (this.tracked.get(info.id)?.unwritten) return;
    this.writer.enqueue(sessionOp(info));
  }

  private async settled(): Promise<Database.Database> {
    // read what is on disk even when the writer is failing: it is still an in-order prefix
    await this.settle().catch(() => undefined);
    return this.db();
  }

  async listSessions(opts: { cwd?: string; limit?: number } = {}): Promise<SessionSummary[]> {
    return this.read((db) => list(db, opts));
  }

  async loadSession(id: string): Promise<StoredSession | undefined> {
    return this.read((db) => load(db, id));
  }

  /** the newest root session in cwd: a sub-agent (child) session is never what --continue resumes */
  /**
   * Reopen a session this process has claimed (the engine's loadSession): when a recovery source (the
   * ledger) holds rows past the database's, the database catches up first — the missing rows are queued
   * ahead of anything the resumed session writes, and the session comes back whole. When the two cannot
   * be joined the open is refused, naming `storage repair`; nothing is written. A session the database
   * does not have at all is not reopened from the ledger (it may have been deleted): `storage repair` restores it.
   */
  async openClaimed(id: string): Promise<StoredSession | SessionRefusal | undefined> {
    const stored = await this.loadSession(id);
    // a session the database does not have is not brought back by opening it: it may have been deleted
    // (its ledger folder outlives it); `doctor --storage` lists ledger-only sessions, `storage repair` restores them
    if (!stored) return undefined;
    const r = await reconcileSession(this.sources, id, stored);
    if (r.kind === "even") return stored;
    if (r.kind === "conflict") return { refused: refusalLine(id, r, this.repair) };
    return catchUp(id, stored, r, { enqueueGroup: (ops) => this.writer.enqueueGroup(ops), settle: () => this.settle(), warn: this.opts.onWarn ?? this.opts.onError });
  }

  async latestSessionId(cwd: string): Promise<string | undefined> {
    return this.read((db) => (db.prepare(`SELECT id FROM sessions WHERE cwd = ? AND parent_id IS NULL ORDER BY updated_at DESC, rowid DESC LIMIT 1`).get(cwd) as { id: string } | undefined)?.id);
  }

  async events(sessionId: string, kind?: string): Promise<SessionEventRecord[]> {
    return this.read((db) => eventRows(db, sessionId, kind));
  }

  async deleteSession(id: string): Promise<void> {
    this.tracked.delete(id);
    this.writer.enqueue({ t: "delete", sessionId: id });
    await this.settle();
  }

  async staleSessions(days: number): Promise<string[]> {
    const cutoff = Date.now() - days * 86_400_000;
    return this.read((db) =>
      (db.prepare(`SELECT id FROM sessions WHERE updated_at < ? AND id NOT IN (SELECT session_id FROM pins) ORDER BY updated_at`).all(cutoff) as Array<{ id: string }>).map((r) => r.id),
    );
  }

  addRetentionParticipant(p: RetentionParticipant): void {
    if (!this.participants.includes(p)) this.participants.push(p);
  }

  retentionParticipants(): readonly RetentionParticipant[] {
    return this.participants;
  }

  /** Sessions this process has open (started or written, not closed): the retention sweep never touches them. */
  openSessionIds(): Set<string> {
    return new Set(this.tracked.keys());
  }

  // ------------------------------------------------------------ lifecycle

  /** Commit everything queued, synchronously (best effort). */
  flushNow(): boolean {
    if (this.writer.pending === 0) return true;
    try {
      return this.writer.flushNow();
    } catch {
      return false;
    }
  }

  close(): void {
    if (this.closed) return;
    this.flushNow();
    this.closed = true;
    process.off("exit", this.onExit);
    try {
      this.opened?.db.close();
    } catch {
      /* already closed */
    }
    this.opened = undefined;
  }
}

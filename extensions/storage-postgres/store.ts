/**
 * PgStore: the StorageService over a PostgreSQL database (pg's Pool). Reads run after settle(); writes go
 * through the one AsyncWriter (write-behind, a step's group in one transaction). Per open session it
 * tracks the last row it queued, so each step queues only its new rows. Every message it shows names the
 * database by its redacted URL (`dbPath`), never with the password.
 */
import pg from "pg";
import type { Session, SessionInfo, SessionRefusal, SessionTotals, StoredSession } from "../engine/api.js";
import { type RecoverySource, type RetentionParticipant, type SessionEventRecord, type SessionSummary, type StorageHealth, type StorageService, type StorageStats, type TrackedSession } from "../storage/api.js";
import { catchUp, reconcileSession, refusalLine, sessionOp, stepOps, writerHealth } from "../storage/kit.js";
import { redactText } from "./kit/shared.js";
import { redactUrl } from "../obs/kit.js";
import { migrate, type PgMigrationReport } from "./migrations.js";
import { SchemaTooNew } from "../storage/kit.js";
import { SessionBusy } from "../engine/kit.js";
import { PgUnusable } from "./errors.js";
import { eventRows, latest, list, load, stale } from "./reads.js";
import { AsyncWriter, type AsyncWriteTarget, type WriteOp } from "./writer.js";
import { acquirePgSessionLock, type PgLockHandle } from "./lock.js";

export interface PgStoreOptions {
  /** the database URL; undefined: none configured (every use fails, saying how to set one) */
  url: string | undefined;
  onError(message: string): void;
  onInfo?(message: string): void;
  /** database.retention_days: a session older than this that the database no longer has is not brought back from the ledger */
  retentionDays?: number;
  /** a session caught up from the ledger on open (default: onError) */
  onWarn?(message: string): void;
  poolSize?: number;
  maxBatch?: number;
  retryMs?: readonly number[];
}

type Tracked = TrackedSession<WriteOp>;

/** An error retrying cannot heal (OC_ERR_PG_UNUSABLE): no URL, a newer schema, refused credentials, no such database. */
export const isPgOpenError = (e: unknown): e is Error => PgUnusable.is(e);

const PERMANENT_CODES = new Set(["28P01", "28000", "3D000", "42501"]);

export const NO_URL =
  "storage-postgres: no database URL: set storage.url in the user config (~/.config/oceancode/oceancode.jsonc) or $OC_DATABASE_URL (docs/storage-postgres.md)";

/**
 * One transaction commits the whole batch, so a session's totals written by several steps of it need only
 * the last write: earlier ones are dropped (their latest activity time and first title carried into it).
 * The steps' rows then sit next to each other and go in one statement per session.
 */
export function coalesceTotals(ops: readonly WriteOp[]): WriteOp[] {
  const last = new Map<string, number>();
  ops.forEach((op, i) => op.t === "totals" && last.set(op.sessionId, i));
  if (last.size === 0) return [...ops];
  const carry = new Map<string, { updatedAt: number; title: string | null }>();
  const out: WriteOp[] = [];
  ops.forEach((op, i) => {
    if (op.t !== "totals") return void out.push(op);
    const c = carry.get(op.sessionId);
    const merged = { updatedAt: Math.max(op.updatedAt, c?.updatedAt ?? 0), title: c?.title ?? op.title };
    if (last.get(op.sessionId) === i) out.push({ ...op, ...merged });
    else carry.set(op.sessionId, merged);
  });
  return out;
}

export class PgStore implements StorageService, AsyncWriteTarget {
  /** the redacted URL: what every message names */
  readonly dbPath: string;
  private pool: pg.Pool | undefined;
  private opening: Promise<pg.Pool> | undefined;
  private openError: Error | undefined;
  private readonly writer: AsyncWriter;
  private readonly tracked = new Map<string, Tracked>();
  private readonly locks = new Set<PgLockHandle>();
  private readonly participants: RetentionParticipant[] = [];
  private readonly sources: RecoverySource[] = [];
  /** sessions this process holds the lock of: only those are reconciled with the ledger on open (a reader never writes) */
  private readonly claimed = new Set<string>();
  private closed = false;

  constructor(private readonly opts: PgStoreOptions) {
    this.dbPath = opts.url ? redactUrl(opts.url) : "storage-postgres (no URL)";
    if (!opts.url) this.openError = PgUnusable({ message: NO_URL });
    else if (!/^postgres(ql)?:\/\//i.test(opts.url)) this.openError = PgUnusable({ message: `storage-postgres: ${this.dbPath}: not a postgres:// or postgresql:// URL; fix storage.url / OC_DATABASE_URL` });
    this.writer = new AsyncWriter({ target: this, onError: opts.onError, onRecover: opts.onInfo, maxBatch: opts.maxBatch, retryMs: opts.retryMs });
  }

  /** A message for display: the URL and its password never appear. */
  describe(e: unknown): string {
    const msg = e instanceof Error ? e.message || String((e as { code?: string }).code ?? e) : String(e);
    const text = redactText(msg, this.opts.url);
    return text.includes(this.dbPath) || isPgOpenError(e) ? text : `${this.dbPath}: ${text}`;
  }

  // ------------------------------------------------------------ connections

  /** A connection of its own (session locks, doctor), never from the pool. */
  async client(applicationName = "oceancode"): Promise<pg.Client> {
    if (this.openError) throw this.openError;
    const c = new pg.Client({ connectionString: this.opts.url, application_name: applicationName, connectionTimeoutMillis: 10_000 });
    // followed by 'end', where a session lock is retaken (lock.ts)
    c.on("error", (e) => this.opts.onInfo?.(`session lock connection lost: ${this.describe(e)}`));
    try {
      await c.connect();
    } catch (e) {
      throw this.wrap(e);
    }
    return c;
  }

  private wrap(e: unknown): Error {
    if (isPgOpenError(e)) return e;
    const code = (e as { code?: string }).code;
    const err = PgUnusable({ message: this.describe(e) }, { cause: e });
    if (SchemaTooNew.is(e) || (code && PERMANENT_CODES.has(code))) this.openError = err;
    return err;
  }

  /** The pool, opened (and migrated) on first use. A permanent failure is remembered and rethrown. */
  open(): Promise<pg.Pool> {
    if (this.openError) return Promise.reject(this.openError);
    if (this.pool) return Promise.resolve(this.pool);
    if (this.closed) return Promise.reject(PgUnusable({ message: `${this.dbPath}: the store is closed` }));
    this.opening ??= (async () => {
      const pool = new pg.Pool({ connectionString: this.opts.url, max: this.opts.poolSize ?? 4, allowExitOnIdle: true, connectionTimeoutMillis: 10_000, application_name: "oceancode" });
      pool.on("error", (e) => this.opts.onError(`idle connection lost: ${this.describe(e)}`));
      // a client that is checked out when the server goes away (a restart) emits 'error' on itself, not on the
      // pool: without a listener that is an uncaught exception that ends the process. The query it was running
      // fails on its own; the listener only keeps the process alive.
      pool.on("connect", (client) => client.on("error", () => undefined));
      try {
        const c = await pool.connect();
        try {
          const m = await migrate(c, this.dbPath);
          if (m.applied.length && m.from > 0) this.opts.onInfo?.(`${this.dbPath}: migrated schema v${m.from} -> v${m.to}`);
        } finally {
          c.release();
        }
      } catch (e) {
        await pool.end().catch(() => undefined);
        throw this.wrap(e);
      }
      this.pool = pool;
      return pool;
    })().finally(() => {
      this.opening = undefined;
    });
    return this.opening;
  }

  /** `oceancode migrate`: migrate and report, without opening the store's pool. */
  async migrateNow(): Promise<PgMigrationReport> {
    const c = await this.client("oceancode migrate");
    try {
      return await migrate(c, this.dbPath);
    } catch (e) {
      throw this.wrap(e);
    } finally {
      await c.end().catch(() => undefined);
    }
  }

  // ------------------------------------------------------------ AsyncWriteTarget

  isPermanent(e: unknown): boolean {
    return e !== undefined && e === this.openError;
  }

  async runBatch(batch: readonly WriteOp[], onSkip: (op: WriteOp, why: string) => void): Promise<void> {
    const ops = coalesceTotals(batch);
    const pool = await this.open();
    const c = await pool.connect().catch((e: unknown) => {
      throw this.wrap(e);
    });
    let broken = false;
    try {
      await c.query("BEGIN");
      for (let i = 0; i < ops.length; ) {
        const op = ops[i]!;
        if (op.t === "row") {
          // consecutive rows of one session: one statement
          let j = i;
          while (j < ops.length && ops[j]!.t === "row" && (ops[j] as typeof op).sessionId === op.sessionId) j++;
          const run = new Map<number, typeof op>();
          for (const r of ops.slice(i, j) as Array<typeof op>) run.set(r.seq, r);
          const rs = [...run.values()];
          const res = await c.query(
            `INSERT INTO rows (session_id, seq, turn, step, role, json)
             SELECT $1, u.seq, u.turn, u.step, u.role, u.json FROM unnest($2::int[], $3::int[], $4::int[], $5::text[], $6::text[]) AS u(seq, turn, step, role, json)
             WHERE EXISTS (SELECT 1 FROM sessions WHERE id = $1)
             ON CONFLICT (session_id, seq) DO UPDATE SET turn = excluded.turn, step = excluded.step, role = excluded.role, json = excluded.json`,
            [op.sessionId, rs.map((r) => r.seq), rs.map((r) => r.turn), rs.map((r) => r.step), rs.map((r) => r.role), rs.map((r) => r.json)],
          );
          if (res.rowCount === 0) for (const r of rs) onSkip(r, `session ${op.sessionId} is not stored`);
          i = j;
          continue;
        }
        await this.apply(c, op, onSkip);
        i++;
      }
      await c.query("COMMIT");
    } catch (e) {
      await c.query("ROLLBACK").catch(() => {
        broken = true;
      });
      throw this.wrap(e);
    } finally {
      c.release(broken);
    }
  }

  private async apply(c: pg.PoolClient, op: WriteOp, onSkip: (op: WriteOp, why: string) => void): Promise<void> {
    switch (op.t) {
      case "session":
        await c.query(
          `INSERT INTO sessions (id, parent_id, cwd, model, title, created_at, updated_at, overrides, totals)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, COALESCE($9, '{}'))
           ON CONFLICT (id) DO UPDATE SET parent_id = excluded.parent_id, cwd = excluded.cwd, model = excluded.model,
             title = COALESCE(excluded.title, sessions.title), overrides = excluded.overrides,
             totals = COALESCE($9, sessions.totals), updated_at = GREATEST(sessions.updated_at, excluded.updated_at)`,
          [op.id, op.parentId, op.cwd, op.model, op.title, op.createdAt, op.updatedAt, op.overrides, op.totals],
        );
        return;
      case "totals":
        await c.query(`UPDATE sessions SET totals = $1, updated_at = GREATEST(updated_at, $2), title = COALESCE(title, $3) WHERE id = $4`, [op.totals, op.updatedAt, op.title, op.sessionId]);
        return;
      case "event": {
        const r = await c.query(
          `INSERT INTO events (session_id, seq, at, kind, json)
           SELECT $1, COALESCE((SELECT max(seq) FROM events WHERE session_id = $1), 0) + 1, $2, $3, $4 WHERE EXISTS (SELECT 1 FROM sessions WHERE id = $1)`,
          [op.sessionId, op.at, op.kind, op.json],
        );
        if (r.rowCount === 0) onSkip(op, `session ${op.sessionId} is not stored`);
        return;
      }
      case "delete":
        await c.query(`DELETE FROM sessions WHERE id = $1`, [op.sessionId]);
        return;
      case "row":
        return; // handled in runs by runBatch
    }
  }

  // ------------------------------------------------------------ write-behind (engine taps)

  sessionStarted(session: Session, source: "startup" | "resume"): void {
    if (this.tracked.has(session.info.id)) return void this.writer.enqueue(sessionOp(session.info));
    const last = session.rows[session.rows.length - 1];
    const t: Tracked = { lastSeq: source === "resume" && last ? last.seq : Number.NEGATIVE_INFINITY };
    this.tracked.set(session.info.id, t);
    if (source === "startup" && !last) t.unwritten = { events: [] };
    else this.writer.enqueue(sessionOp(session.info, session.totals));
  }

  sessionProgress(session: Session, full = false): void {
    let t = this.tracked.get(session.info.id);
    if (!t) {
      // a session we did not see start: queue all of it (rows are written idempotently)
      t = { lastSeq: Number.NEGATIVE_INFINITY };
      this.tracked.set(session.info.id, t);
      this.writer.enqueue(sessionOp(session.info, session.totals));
    }
    const group = stepOps(session, t, full);
    if (group) this.writer.enqueueGroup(group);
  }

  forget(sessionId: string): void {
    this.tracked.delete(sessionId);
  }

  async claim(id: string, wait: boolean): Promise<{ release(): Promise<void> } | { refused: string }> {
    try {
      const h = await acquirePgSessionLock(id, { wait, connect: (app) => this.client(app), log: { warn: (m) => this.opts.onInfo?.(m), error: (m) => this.opts.onError(m) } });
      this.locks.add(h);
      this.claimed.add(id);
      return {
        release: async () => {
          this.locks.delete(h);
          this.claimed.delete(id);
          await h.release();
        },
      };
    } catch (e) {
      if (SessionBusy.is(e)) return { refused: e.message };
      throw e;
    }
  }

  // ------------------------------------------------------------ StorageService

  settle(): Promise<void> {
    return this.writer.settle();
  }

  stats(): StorageStats {
    return { dbPath: this.dbPath, ...this.writer.stats() };
  }

  health(): StorageHealth {
    if (this.openError) return { ok: false, damaged: false, message: this.openError.message };
    return writerHealth(this.dbPath, this.writer.stats());
  }

  recordEvent(sessionId: string, kind: string, data: Record<string, unknown>): void {
    const op: WriteOp = { t: "event", sessionId, at: Date.now(), kind, json: JSON.stringify(data) };
    const t = this.tracked.get(sessionId);
    if (t?.unwritten) t.unwritten.events.push(op);
    else this.writer.enqueue(op);
  }

  saveTotals(sessionId: string, totals: SessionTotals): void {
    const t = this.tracked.get(sessionId);
    if (!t || t.unwritten) return;
    this.writer.enqueue({ t: "totals", sessionId, totals: JSON.stringify(totals), updatedAt: 0, title: t.title ?? null });
  }

  saveInfo(info: SessionInfo): void {
    if (this.tracked.get(info.id)?.unwritten) return;
    this.writer.enqueue(sessionOp(info));
  }

  /** A read after the writer settled (what is committed is an in-order prefix even when the writer fails). */
  private async read<T>(fn: (c: pg.Pool) => Promise<T>): Promise<T> {
    await this.settle().catch(() => undefined);
    const pool = await this.open();
    try {
      return await fn(pool);
    } catch (e) {
      throw this.wrap(e);
    }
  }

  /** A statement a command runs at once (session pin|unpin), after the writer settled. */
  atOnce<T>(fn: (c: pg.Pool) => Promise<T>): Promise<T> {
    return this.read(fn);
  }

  listSessions(opts: { cwd?: string; limit?: number } = {}): Promise<SessionSummary[]> {
    return this.read((c) => list(c, opts));
  }
  loadSession(id: string): Promise<StoredSession | undefined> {
    return this.read((c) => load(c, id));
  }

  /** the ledger registers itself (its rows.jsonl): what a session's open is reconciled with */
  registerRecoverySource(source: RecoverySource): void {
    if (!this.sources.some((x) => x.name === source.name)) this.sources.push(source);
  }

  /**
   * The engine's loadSession: a session this process has claimed is reconciled with the ledger first, as
   * the bundled store does (storage/reconcile.ts): rows only the ledger holds (the database lost its newest
   * commits: a restore, a failover, writes a full disk or an outage kept out) are queued ahead of anything
   * the resumed session writes, so the transcript is never rewritten from a database that has less. When
   * the two cannot be joined the open is refused and nothing is written.
   */
  async openSession(id: string): Promise<StoredSession | SessionRefusal | undefined> {
    const stored = await this.loadSession(id);
    // a session the database does not have is not brought back from the ledger: it may have been deleted
    if (!stored || !this.claimed.has(id) || this.sources.length === 0) return stored;
    const r = await reconcileSession(this.sources, id, stored);
    if (r.kind === "even") return stored;
    if (r.kind === "conflict") {
      return { refused: refusalLine(id, r, { fix: `PostgreSQL has no rebuild in place: compare the ${r.source}'s rows.jsonl with the database (\`oceancode export --md ${id}\`) before resuming, or start a new session` }) };
    }
    return catchUp(id, stored, r, { enqueueGroup: (ops) => this.writer.enqueueGroup(ops), settle: () => this.settle(), warn: this.opts.onWarn ?? this.opts.onError });
  }
  latestSessionId(cwd: string): Promise<string | undefined> {
    return this.read((c) => latest(c, cwd));
  }
  events(sessionId: string, kind?: string): Promise<SessionEventRecord[]> {
    return this.read((c) => eventRows(c, sessionId, kind));
  }
  staleSessions(days: number): Promise<string[]> {
    return this.read((c) => stale(c, days));
  }
  async deleteSession(id: string): Promise<void> {
    this.tracked.delete(id);
    this.writer.enqueue({ t: "delete", sessionId: id });
    await this.settle();
  }

  /** retention (retention.ts): stores that keep per-session copies (the ledger), and the sessions this process has open */
  addRetentionParticipant(p: RetentionParticipant): void {
    if (!this.participants.includes(p)) this.participants.push(p);
  }
  retentionParticipants = (): readonly RetentionParticipant[] => this.participants;
  openSessionIds = (): Set<string> => new Set(this.tracked.keys());

  // ------------------------------------------------------------ lifecycle

  /** Commit what is queued, release the session locks, close the pool. */
  async close(): Promise<void> {
    if (this.closed) return;
    if (this.writer.pending > 0 && !this.openError) await this.writer.drain().catch(() => false);
    this.closed = true;
    for (const h of [...this.locks]) await h.release().catch(() => undefined);
    this.locks.clear();
    const p = this.pool;
    this.pool = undefined;
    await p?.end().catch(() => undefined);
  }
}


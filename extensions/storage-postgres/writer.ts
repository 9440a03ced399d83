/**
 * The one writer of the PostgreSQL store, as in the SQLite store (extensions/storage/writer.ts) but with
 * an asynchronous target: a FIFO queue of write operations, flushed behind the caller in batches, one
 * transaction per batch, started with setImmediate so whoever enqueues (a step) never waits on the
 * network. One batch is in flight at a time; batches are contiguous slices of the queue that end at a
 * group's end (a step's rows and totals are never split), and each commits whole or not at all, so what
 * the database holds is always an in-order prefix of what was enqueued.
 */
import type { StorageStats } from "../storage/api.js";

export type WriteOp =
  | { t: "session"; id: string; parentId: string | null; cwd: string; model: string; title: string | null; createdAt: number; updatedAt: number; overrides: string; totals: string | null }
  | { t: "row"; sessionId: string; seq: number; turn: number; step: number; role: string; json: string }
  | { t: "totals"; sessionId: string; totals: string; updatedAt: number; title: string | null }
  /** seq is given at commit (the next one of the session): events commit in queue order */
  | { t: "event"; sessionId: string; at: number; kind: string; json: string }
  | { t: "delete"; sessionId: string };

export interface AsyncWriteTarget {
  /** Commit all ops in one transaction, or throw (nothing committed). `onSkip`: an op refused on its own. */
  runBatch(ops: readonly WriteOp[], onSkip: (op: WriteOp, why: string) => void): Promise<void>;
  isPermanent(error: unknown): boolean;
  /** the message shown for an error (the store redacts its URL) */
  describe(error: unknown): string;
}

export interface WriterOptions {
  target: AsyncWriteTarget;
  onError(message: string): void;
  onRecover?(message: string): void;
  maxBatch?: number;
  retryMs?: readonly number[];
}

interface Queued {
  op: WriteOp;
  at: number;
  end: boolean;
}

export class AsyncWriter {
  private q: Queued[] = [];
  private head = 0;
  private scheduled = false;
  private inFlight: Promise<boolean> | undefined;
  private retryTimer: NodeJS.Timeout | undefined;
  private retries = 0;
  private failing = false;
  private disabled: string | undefined;
  private waiters: Array<{ resolve(): void; reject(e: Error): void }> = [];
  private committedOps = 0;
  private batches = 0;
  private dropped = 0;
  private skipped = 0;
  private lastError: string | undefined;
  private readonly maxBatch: number;
  private readonly retryMs: readonly number[];

  constructor(private readonly opts: WriterOptions) {
    this.maxBatch = opts.maxBatch ?? 2000;
    this.retryMs = opts.retryMs ?? [250, 1000, 5000, 15000];
  }

  get pending(): number {
    return this.q.length - this.head;
  }

  enqueue(op: WriteOp): void {
    this.enqueueGroup([op]);
  }

  enqueueGroup(ops: readonly WriteOp[]): void {
    if (ops.length === 0) return;
    if (this.disabled !== undefined) {
      this.dropped += ops.length;
      return;
    }
    const at = Date.now();
    for (let i = 0; i < ops.length; i++) this.q.push({ op: ops[i]!, at, end: i === ops.length - 1 });
    this.schedule();
  }

  stats(): Omit<StorageStats, "dbPath"> {
    const oldest = this.q[this.head];
    return {
      queued: this.pending,
      lagMs: oldest ? Date.now() - oldest.at : 0,
      committedOps: this.committedOps,
      batches: this.batches,
      dropped: this.dropped,
      skipped: this.skipped,
      ...(this.lastError !== undefined ? { lastError: this.lastError } : {}),
    };
  }

  settle(): Promise<void> {
    if (this.pending === 0 && !this.inFlight) return Promise.resolve();
    return new Promise((resolve, reject) => {
      this.waiters.push({ resolve, reject });
      if (this.retryTimer) {
        clearTimeout(this.retryTimer);
        this.retryTimer = undefined;
      }
      this.schedule();
    });
  }

  /** Drain (shutdown): keep flushing until empty or a flush fails. Resolves true when everything is committed. */
  async drain(): Promise<boolean> {
    if (this.retryTimer) {
      clearTimeout(this.retryTimer);
      this.retryTimer = undefined;
    }
    if (this.inFlight) await this.inFlight;
    while (this.pending > 0) if (!(await this.flush())) return false;
    this.wake();
    return true;
  }

  private schedule(): void {
    if (this.scheduled || this.retryTimer || this.inFlight) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      if (this.pending === 0) return this.wake();
      void this.flush().then((ok) => {
        if (!ok) return;
        if (this.pending > 0) this.schedule();
        else this.wake();
      });
    });
  }

  private wake(): void {
    if (this.pending !== 0 || this.inFlight) return;
    const w = this.waiters;
    this.waiters = [];
    for (const x of w) x.resolve();
  }

  private fail(error: Error): void {
    const w = this.waiters;
    this.waiters = [];
    for (const x of w) x.reject(error);
  }

  private flush(): Promise<boolean> {
    if (this.inFlight) return this.inFlight;
    const p = this.flushBatch().finally(() => {
      this.inFlight = undefined;
    });
    this.inFlight = p;
    return p;
  }

  private async flushBatch(): Promise<boolean> {
    let end = Math.min(this.q.length, this.head + this.maxBatch);
    while (end < this.q.length && !this.q[end - 1]!.end) end++; // finish the group
    const batch: WriteOp[] = [];
    for (let i = this.head; i < end; i++) batch.push(this.q[i]!.op);
    const skips: Array<{ op: WriteOp; why: string }> = [];
    try {
      await this.opts.target.runBatch(batch, (op, why) => skips.push({ op, why }));
    } catch (e) {
      const msg = this.opts.target.describe(e);
      this.lastError = msg;
      if (this.opts.target.isPermanent(e)) {
        this.disabled = msg;
        this.dropped += this.pending;
        this.q = [];
        this.head = 0;
        this.opts.onError(`${msg}; this session is kept in memory only`);
        this.fail(new Error(msg));
        return false;
      }
      if (!this.failing) this.opts.onError(`cannot write the session database (${msg}); the session keeps running in memory and the writes are retried`);
      this.failing = true;
      const delay = this.retryMs[Math.min(this.retries, this.retryMs.length - 1)]!;
      this.retries++;
      this.retryTimer = setTimeout(() => {
        this.retryTimer = undefined;
        this.schedule();
      }, delay);
      this.retryTimer.unref();
      this.fail(new Error(`the session database is not writable: ${msg}`));
      return false;
    }
    for (const s of skips) {
      this.dropped++;
      this.skipped++;
      this.opts.onError(`skipped an unstorable ${s.op.t} write for session ${"sessionId" in s.op ? s.op.sessionId : s.op.id}: ${s.why}`);
    }
    this.head = end;
    this.committedOps += batch.length;
    this.batches++;
    if (this.head > 4096 && this.head * 2 > this.q.length) {
      this.q = this.q.slice(this.head);
      this.head = 0;
    }
    if (this.failing) {
      this.failing = false;
      this.retries = 0;
      this.opts.onRecover?.("the session database is writable again; queued writes committed");
    }
    return true;
  }
}

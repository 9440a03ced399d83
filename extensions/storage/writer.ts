/**
 * The one database writer: a FIFO queue of write operations, flushed behind the caller in batches,
 * one transaction per batch, scheduled with setImmediate so whoever enqueues (a step) never waits
 * on the disk. Because batches are contiguous slices of the queue and each commits atomically,
 * what is on disk is always an in-order prefix of what was enqueued.
 */
import type { StorageStats } from "./api.js";

export type WriteOp =
  | {
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
    }
  | { t: "row"; sessionId: string; seq: number; turn: number; step: number; role: string; json: string }
  | { t: "totals"; sessionId: string; totals: string; updatedAt: number; title: string | null }
  | { t: "event"; sessionId: string; seq: number; at: number; kind: string; json: string }
  | { t: "delete"; sessionId: string };

/** Where batches go. `runBatch` commits all ops in one transaction or throws (nothing committed). */
export interface WriteTarget {
  runBatch(ops: readonly WriteOp[], onSkip: (op: WriteOp, error: unknown) => void): void;
  /** true when an error can never heal by retrying (newer schema, not a database) */
  isPermanent(error: unknown): boolean;
}

export interface WriterOptions {
  target: WriteTarget;
  /** called once per failure episode (not per retry) */
  onError(message: string): void;
  onRecover?(message: string): void;
  maxBatch?: number;
  /** retry delays after a failed flush, the last one repeats */
  retryMs?: readonly number[];
}

/** The writer's part of the storage stats (the service adds dbPath). */
export type WriterStats = Omit<StorageStats, "dbPath">;

interface Queued {
  op: WriteOp;
  at: number;
  /** last op of a group (a step's rows + totals): batches end only here, so a step is never split */
  end: boolean;
}

export class Writer {
  private q: Queued[] = [];
  private head = 0;
  private scheduled = false;
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

  /** Queue ops that must commit together (never split across transactions). */
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

  stats(): WriterStats {
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

  /** Resolves when every write queued so far is committed; rejects if the writer is failing. */
  settle(): Promise<void> {
    if (this.pending === 0) return Promise.resolve();
    return new Promise((resolve, reject) => {
      this.waiters.push({ resolve, reject });
      if (this.retryTimer) {
        // a reader is waiting: try now rather than at the end of the back-off
        clearTimeout(this.retryTimer);
        this.retryTimer = undefined;
      }
      this.schedule();
    });
  }

  /** Drain synchronously (shutdown, process exit). Returns true when the queue is empty. */
  flushNow(): boolean {
    if (this.retryTimer) {
      clearTimeout(this.retryTimer);
      this.retryTimer = undefined;
    }
    while (this.pending > 0) if (!this.flushBatch()) return false;
    this.wake();
    return true;
  }

  private schedule(): void {
    if (this.scheduled || this.retryTimer) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      if (this.pending === 0) return this.wake();
      if (!this.flushBatch()) return;
      if (this.pending > 0) this.schedule();
      else this.wake();
    });
  }

  private wake(): void {
    if (this.pending !== 0) return;
    const w = this.waiters;
    this.waiters = [];
    for (const x of w) x.resolve();
  }

  private fail(error: Error): void {
    const w = this.waiters;
    this.waiters = [];
    for (const x of w) x.reject(error);
  }

  private flushBatch(): boolean {
    let end = Math.min(this.q.length, this.head + this.maxBatch);
    while (end < this.q.length && !this.q[end - 1]!.end) end++; // finish the group
    const batch: WriteOp[] = [];
    for (let i = this.head; i < end; i++) batch.push(this.q[i]!.op);
    try {
      this.opts.target.runBatch(batch, (op, e) => {
        this.dropped++;
        this.skipped++;
        this.opts.onError(`skipped an unstorable ${op.t} write for session ${"sessionId" in op ? op.sessionId : op.id}: ${(e as Error).message}`);
      });
    } catch (e) {
      const msg = e instanceof Error ? e.message : String(e);
      this.lastError = msg;
      if (this.opts.target.isPermanent(e)) {
        // nothing will ever commit: stop queueing so memory does not grow; the session runs on in memory
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
      this.retryTimer.unref(); // never keep the process alive for a retry; exit flushes once more
      this.fail(new Error(`the session database is not writable: ${msg}`));
      return false;
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

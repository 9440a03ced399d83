/**
 * The write-behind queue of a session store: a FIFO queue of write operations, flushed behind the
 * caller in batches, one transaction per batch, scheduled with setImmediate so whoever enqueues (a step)
 * never waits on the database. Batches are contiguous slices of the queue that end at a group's end (a
 * step's rows and totals are never split) and each commits whole or not at all, so what the database
 * holds is always an in-order prefix of what was enqueued.
 *
 * Both stores' writers are this class plus a `flush()` that commits `nextBatch()` and reports the outcome
 * with `committed`/`skipped`/`failed`: the SQLite Writer commits synchronously (so it can drain at process
 * exit), the PostgreSQL AsyncWriter asynchronously with one batch in flight (`busy()`). Type imports
 * only: importing this (through api.ts) loads no database driver.
 */
import type { StorageHealth, StorageStats } from "./api.js";
import { type WriterStats, type WriteQueueOptions, type QueueOp } from "./api.js";
export { type QueueOp, type WriteQueueOptions, type WriterStats } from "./api.js";

interface Queued<Op> {
  op: Op;
  at: number;
  /** last op of a group (a step's rows + totals): batches end only here, so a step is never split */
  end: boolean;
}

/** Past this many committed ops at the head, the queue array is compacted (when they are most of it). */
const COMPACT_AFTER = 4096;

/** State is in #private fields: the writers subclass it, and their own fields must not collide with it. */
export abstract class WriteQueue<Op extends QueueOp> {
  #q: Queued<Op>[] = [];
  #head = 0;
  #scheduled = false;
  #retryTimer: NodeJS.Timeout | undefined;
  #retries = 0;
  #failing = false;
  #disabled: string | undefined;
  #waiters: Array<{ resolve(): void; reject(e: Error): void }> = [];
  #committedOps = 0;
  #batches = 0;
  #dropped = 0;
  #skippedOps = 0;
  #lastError: string | undefined;
  readonly #maxBatch: number;
  readonly #retryMs: readonly number[];
  readonly #queueOpts: WriteQueueOptions;

  constructor(queueOpts: WriteQueueOptions) {
    this.#queueOpts = queueOpts;
    this.#maxBatch = queueOpts.maxBatch ?? 2000;
    this.#retryMs = queueOpts.retryMs ?? [250, 1000, 5000, 15000];
  }

  /** Commit `nextBatch()` and report it (committed / failed); false when it did not commit. */
  protected abstract flush(): boolean | Promise<boolean>;

  /** A batch is being committed (asynchronously): settle() waits for it, no second flush starts. */
  protected busy(): boolean {
    return false;
  }

  get pending(): number {
    return this.#q.length - this.#head;
  }

  enqueue(op: Op): void {
    this.enqueueGroup([op]);
  }

  /** Queue ops that must commit together (never split across transactions). */
  enqueueGroup(ops: readonly Op[]): void {
    if (ops.length === 0) return;
    if (this.#disabled !== undefined) {
      this.#dropped += ops.length;
      return;
    }
    const at = Date.now();
    for (let i = 0; i < ops.length; i++) this.#q.push({ op: ops[i]!, at, end: i === ops.length - 1 });
    this.#schedule();
  }

  stats(): WriterStats {
    const oldest = this.#q[this.#head];
    return {
      queued: this.pending,
      lagMs: oldest ? Date.now() - oldest.at : 0,
      committedOps: this.#committedOps,
      batches: this.#batches,
      dropped: this.#dropped,
      skipped: this.#skippedOps,
      ...(this.#lastError !== undefined ? { lastError: this.#lastError } : {}),
    };
  }

  /** Resolves when every write queued so far is committed; rejects if the writer is failing. */
  settle(): Promise<void> {
    if (this.pending === 0 && !this.busy()) return Promise.resolve();
    return new Promise((resolve, reject) => {
      this.#waiters.push({ resolve, reject });
      // a reader is waiting: try now rather than at the end of the back-off
      this.cancelRetry();
      this.#schedule();
    });
  }

  /** Drop a pending retry (a reader waits, or the writer drains at shutdown and flushes itself). */
  protected cancelRetry(): void {
    if (this.#retryTimer) {
      clearTimeout(this.#retryTimer);
      this.#retryTimer = undefined;
    }
  }

  #schedule(): void {
    if (this.#scheduled || this.#retryTimer || this.busy()) return;
    this.#scheduled = true;
    setImmediate(() => {
      this.#scheduled = false;
      if (this.pending === 0) return this.wake();
      const next = (ok: boolean): void => {
        if (!ok) return;
        if (this.pending > 0) this.#schedule();
        else this.wake();
      };
      const ok = this.flush();
      // the synchronous writer goes on in the same tick, as it always did
      if (typeof ok === "boolean") next(ok);
      else void ok.then(next);
    });
  }

  /** Resolve the settle() waiters once everything is committed. */
  protected wake(): void {
    if (this.pending !== 0 || this.busy()) return;
    const w = this.#waiters;
    this.#waiters = [];
    for (const x of w) x.resolve();
  }

  #rejectWaiters(error: Error): void {
    const w = this.#waiters;
    this.#waiters = [];
    for (const x of w) x.reject(error);
  }

  /** The next batch: from the head, up to maxBatch ops, extended to the end of the group it reaches into. */
  protected nextBatch(): Op[] {
    let end = Math.min(this.#q.length, this.#head + this.#maxBatch);
    while (end < this.#q.length && !this.#q[end - 1]!.end) end++; // finish the group
    const batch: Op[] = [];
    for (let i = this.#head; i < end; i++) batch.push(this.#q[i]!.op);
    return batch;
  }

  /** An op its batch left out on its own (a row or event for a session that was never stored). */
  protected skipped(op: Op, why: string): void {
    this.#dropped++;
    this.#skippedOps++;
    this.#queueOpts.onError(`skipped an unstorable ${op.t} write for session ${sessionOf(op)}: ${why}`);
  }

  /** The batch `nextBatch()` gave (of `count` ops) is committed: it leaves the queue; a failure episode ends. */
  protected committed(count: number): void {
    this.#head += count;
    this.#committedOps += count;
    this.#batches++;
    if (this.#head > COMPACT_AFTER && this.#head * 2 > this.#q.length) {
      this.#q = this.#q.slice(this.#head);
      this.#head = 0;
    }
    if (this.#failing) {
      this.#failing = false;
      this.#retries = 0;
      this.#queueOpts.onRecover?.("the session database is writable again; queued writes committed");
    }
  }

  /**
   * The batch did not commit (nothing of it did). `permanent`: it never will (newer schema, not a
   * database), so the queue is dropped and the writer disabled; otherwise it is retried after a back-off.
   */
  protected failed(message: string, permanent: boolean): void {
    this.#lastError = message;
    if (permanent) {
      // nothing will ever commit: stop queueing so memory does not grow; the session runs on in memory
      this.#disabled = message;
      this.#dropped += this.pending;
      this.#q = [];
      this.#head = 0;
      this.#queueOpts.onError(`${message}; this session is kept in memory only`);
      this.#rejectWaiters(new Error(message));
      return;
    }
    if (!this.#failing) this.#queueOpts.onError(`cannot write the session database (${message}); the session keeps running in memory and the writes are retried`);
    this.#failing = true;
    const delay = this.#retryMs[Math.min(this.#retries, this.#retryMs.length - 1)]!;
    this.#retries++;
    this.#retryTimer = setTimeout(() => {
      this.#retryTimer = undefined;
      this.#schedule();
    }, delay);
    this.#retryTimer.unref(); // never keep the process alive for a retry; exit flushes once more
    this.#rejectWaiters(new Error(`the session database is not writable: ${message}`));
  }
}

function sessionOf(op: QueueOp): string {
  return "sessionId" in op ? op.sessionId : op.id;
}

/**
 * Whether a store kept everything its writer was given (StorageService.health), from the writer's stats.
 * A write refused on its own (an event for a session never stored) is reported where it happens; the
 * session itself is stored, so it does not count.
 */
export function writerHealth(dbPath: string, w: WriterStats): StorageHealth {
  const dropped = w.dropped - (w.skipped ?? 0);
  if (w.queued > 0 || dropped > 0) {
    const why = w.lastError ?? "writes were given up";
    const lost = w.queued > 0 ? `${w.queued} write(s) not committed` : `${dropped} write(s) dropped`;
    return { ok: false, damaged: false, message: `${why.startsWith(dbPath) ? why : `${dbPath}: ${why}`} (${lost})` };
  }
  return { ok: true, damaged: false };
}

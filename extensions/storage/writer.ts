/**
 * The one database writer of oceancode.db: the write-behind queue (write-queue.ts: batches, groups,
 * retries, settle) over a synchronous target, one transaction per batch. Commits are synchronous so
 * flushNow() can drain the queue at process exit, where nothing asynchronous runs any more.
 */
import type { DeleteWriteOp, RowWriteOp, SessionWriteOp, TotalsWriteOp } from "./session-ops.js";
import { WriteQueue, type WriteQueueOptions } from "./write-queue.js";

export type { WriterStats } from "./write-queue.js";

export type WriteOp =
  | SessionWriteOp
  | RowWriteOp
  | TotalsWriteOp
  | { t: "event"; sessionId: string; seq: number; at: number; kind: string; json: string }
  | DeleteWriteOp;

/** Where batches go. `runBatch` commits all ops in one transaction or throws (nothing committed). */
export interface WriteTarget {
  runBatch(ops: readonly WriteOp[], onSkip: (op: WriteOp, error: unknown) => void): void;
  /** true when an error can never heal by retrying (newer schema, not a database) */
  isPermanent(error: unknown): boolean;
}

export interface WriterOptions extends WriteQueueOptions {
  target: WriteTarget;
}

export class Writer extends WriteQueue<WriteOp> {
  constructor(private readonly opts: WriterOptions) {
    super(opts);
  }

  /** Drain synchronously (shutdown, process exit). Returns true when the queue is empty. */
  flushNow(): boolean {
    this.cancelRetry();
    while (this.pending > 0) if (!this.flush()) return false;
    this.wake();
    return true;
  }

  protected override flush(): boolean {
    const batch = this.nextBatch();
    try {
      this.opts.target.runBatch(batch, (op, e) => this.skipped(op, (e as Error).message));
    } catch (e) {
      this.failed(e instanceof Error ? e.message : String(e), this.opts.target.isPermanent(e));
      return false;
    }
    this.committed(batch.length);
    return true;
  }
}

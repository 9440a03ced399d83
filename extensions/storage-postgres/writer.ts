/**
 * The one writer of the PostgreSQL store: the storage extension's write-behind queue (batches that never
 * split a step's group, retries with one message per failure episode, settle) over an asynchronous
 * target. One batch is in flight at a time, so batches still commit in queue order and what the database
 * holds is always an in-order prefix of what was enqueued.
 */
import { type DeleteWriteOp, type RowWriteOp, type SessionWriteOp, type TotalsWriteOp, type WriteQueueOptions } from "../storage/api.js";
import { WriteQueue } from "../storage/kit.js";

export type WriteOp =
  | SessionWriteOp
  | RowWriteOp
  | TotalsWriteOp
  /** seq is given at commit (the next one of the session): events commit in queue order */
  | { t: "event"; sessionId: string; at: number; kind: string; json: string }
  | DeleteWriteOp;

export interface AsyncWriteTarget {
  /** Commit all ops in one transaction, or throw (nothing committed). `onSkip`: an op refused on its own. */
  runBatch(ops: readonly WriteOp[], onSkip: (op: WriteOp, why: string) => void): Promise<void>;
  isPermanent(error: unknown): boolean;
  /** the message shown for an error (the store redacts its URL) */
  describe(error: unknown): string;
}

export interface WriterOptions extends WriteQueueOptions {
  target: AsyncWriteTarget;
}

export class AsyncWriter extends WriteQueue<WriteOp> {
  private inFlight: Promise<boolean> | undefined;

  constructor(private readonly opts: WriterOptions) {
    super(opts);
  }

  /** Drain (shutdown): keep flushing until empty or a flush fails. Resolves true when everything is committed. */
  async drain(): Promise<boolean> {
    this.cancelRetry();
    if (this.inFlight) await this.inFlight;
    while (this.pending > 0) if (!(await this.flush())) return false;
    this.wake();
    return true;
  }

  protected override busy(): boolean {
    return this.inFlight !== undefined;
  }

  protected override flush(): Promise<boolean> {
    if (this.inFlight) return this.inFlight;
    const p = this.flushBatch().finally(() => {
      this.inFlight = undefined;
    });
    this.inFlight = p;
    return p;
  }

  private async flushBatch(): Promise<boolean> {
    const batch = this.nextBatch();
    // reported once the batch committed: a batch that fails is retried whole, skips and all
    const skips: Array<{ op: WriteOp; why: string }> = [];
    try {
      await this.opts.target.runBatch(batch, (op, why) => skips.push({ op, why }));
    } catch (e) {
      this.failed(this.opts.target.describe(e), this.opts.target.isPermanent(e));
      return false;
    }
    for (const s of skips) this.skipped(s.op, s.why);
    this.committed(batch.length);
    return true;
  }
}

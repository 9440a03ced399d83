/**
 * The shared write-behind queue (write-queue.ts) on its own, through fake writers: what the SQLite and
 * PostgreSQL stores' tests do not reach directly (the recovery message, compaction of a long queue, an
 * asynchronous batch in flight while settle() waits).
 */
import { describe, expect, it } from "vitest";
import { WriteQueue, type WriteQueueOptions } from "../write-queue.js";

type Op = { t: "row"; sessionId: string; n: number };
const op = (n: number): Op => ({ t: "row", sessionId: "s", n });

/** A synchronous writer whose commits fail while `failWith` is set. */
class SyncQueue extends WriteQueue<Op> {
  commits: number[][] = [];
  failWith: { message: string; permanent: boolean } | undefined;
  protected override flush(): boolean {
    const batch = this.nextBatch();
    if (this.failWith) {
      this.failed(this.failWith.message, this.failWith.permanent);
      return false;
    }
    this.commits.push(batch.map((o) => o.n));
    this.committed(batch.length);
    return true;
  }
}

/** An asynchronous writer with one batch in flight, each commit taking a few ms. */
class AsyncQueue extends WriteQueue<Op> {
  commits: number[][] = [];
  private inFlight: Promise<boolean> | undefined;
  protected override busy(): boolean {
    return this.inFlight !== undefined;
  }
  protected override flush(): Promise<boolean> {
    if (this.inFlight) return this.inFlight;
    const batch = this.nextBatch();
    this.inFlight = new Promise<void>((r) => setTimeout(r, 5)).then(() => {
      this.commits.push(batch.map((o) => o.n));
      this.committed(batch.length);
      this.inFlight = undefined;
      return true;
    });
    return this.inFlight;
  }
}

function options(messages: string[], extra: Partial<WriteQueueOptions> = {}): WriteQueueOptions {
  return { onError: (m) => messages.push(`error: ${m}`), onRecover: (m) => messages.push(`recover: ${m}`), ...extra };
}

describe("the write-behind queue", () => {
  it("batches up to maxBatch ops but never splits a group", async () => {
    const q = new SyncQueue(options([], { maxBatch: 3 }));
    q.enqueueGroup([op(1), op(2)]);
    q.enqueueGroup([op(3), op(4), op(5)]);
    q.enqueue(op(6));
    await q.settle();
    expect(q.commits).toEqual([[1, 2, 3, 4, 5], [6]]);
    expect(q.stats()).toMatchObject({ queued: 0, committedOps: 6, batches: 2, dropped: 0 });
  });

  it("a failure episode is reported once, retried with back-off, and its end is reported", async () => {
    const messages: string[] = [];
    const q = new SyncQueue(options(messages, { retryMs: [5] }));
    q.failWith = { message: "disk is full", permanent: false };
    q.enqueue(op(1));
    await expect(q.settle()).rejects.toThrow("the session database is not writable: disk is full");
    await new Promise((r) => setTimeout(r, 40)); // several retries fail meanwhile
    expect(messages).toEqual(["error: cannot write the session database (disk is full); the session keeps running in memory and the writes are retried"]);
    expect(q.stats()).toMatchObject({ queued: 1, lastError: "disk is full" });
    q.failWith = undefined;
    await q.settle();
    expect(messages.at(-1)).toBe("recover: the session database is writable again; queued writes committed");
    expect(q.commits).toEqual([[1]]);
  });

  it("a permanent failure drops the queue and every later write", async () => {
    const messages: string[] = [];
    const q = new SyncQueue(options(messages));
    q.failWith = { message: "not a database", permanent: true };
    q.enqueueGroup([op(1), op(2)]);
    await expect(q.settle()).rejects.toThrow(/^not a database$/);
    q.enqueue(op(3));
    expect(messages).toEqual(["error: not a database; this session is kept in memory only"]);
    expect(q.stats()).toMatchObject({ queued: 0, dropped: 3, lastError: "not a database" });
    await q.settle(); // nothing pending: resolves
  });

  it("keeps order across the compaction of a long queue", async () => {
    const q = new SyncQueue(options([], { maxBatch: 1000 }));
    for (let i = 0; i < 6000; i++) q.enqueue(op(i));
    await q.settle();
    for (let i = 6000; i < 7000; i++) q.enqueue(op(i));
    await q.settle();
    expect(q.commits.flat()).toEqual(Array.from({ length: 7000 }, (_, i) => i));
    expect(q.stats()).toMatchObject({ queued: 0, committedOps: 7000 });
  });

  it("asynchronous: one batch in flight; settle() waits for it and for what was queued meanwhile", async () => {
    const q = new AsyncQueue(options([]));
    q.enqueue(op(1));
    await new Promise((r) => setImmediate(r)); // the first batch is now in flight
    q.enqueueGroup([op(2), op(3)]);
    await q.settle();
    expect(q.commits).toEqual([[1], [2, 3]]);
    expect(q.pending).toBe(0);
  });
});

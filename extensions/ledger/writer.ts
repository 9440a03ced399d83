/**
 * The ledger's one writer. Steps queue jobs (render rows, note facts) and return at once; a single loop
 * runs the jobs in order and then writes every file they dirtied, each replaced atomically (temp file +
 * rename) so a reader never sees a torn file. Files dirtied several times before a flush are written
 * once (coalescing), so a fast run costs one write per file per flush, not per step. Files that only grow
 * (the journal, the sidecar, the open turn's transcript after its header) are appended instead: a
 * rewrite costs the whole file each time, and the open turn of a 10,000-step run is ~170 MB.
 */
import fs from "node:fs";
import path from "node:path";
import type { Logger } from "../../kernel/api.js";

let tmpCounter = 0;

/** Replace a file atomically: write a temp file beside it, then rename over it. */
export async function writeAtomic(file: string, data: string): Promise<void> {
  const tmp = `${file}.tmp-${process.pid}-${++tmpCounter}`;
  try {
    await fs.promises.writeFile(tmp, data);
    await fs.promises.rename(tmp, file);
  } catch (e) {
    // a full disk leaves a zero-byte or half temp file: never leave it behind
    await fs.promises.rm(tmp, { force: true }).catch(() => undefined);
    throw e;
  }
}

export function writeAtomicSync(file: string, data: string): void {
  const tmp = `${file}.tmp-${process.pid}-${++tmpCounter}`;
  try {
    fs.writeFileSync(tmp, data);
    fs.renameSync(tmp, file);
  } catch (e) {
    fs.rmSync(tmp, { force: true });
    throw e;
  }
}

type Job = () => void | Promise<void>;

/**
 * A file rewritten less than this long ago waits (coalescing the steps in between) unless someone settles.
 * With real model latency every step is on disk before the next one ends; a run at 0 ms latency lags by
 * at most this interval instead of rewriting a long turn's file on every step.
 */
export const MIN_REWRITE_MS = 100;

export class LedgerWriter {
  private jobs: Job[] = [];
  private dirty = new Map<string, () => string>();
  /** appends that arrived while their file waited for a whole-file write, in order (written with it) */
  private folded = new Map<string, string[]>();
  private appends = new Map<string, string[]>();
  private lastWrite = new Map<string, number>();
  private running: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private urgent = 0;
  private madeDirs = new Set<string>();
  private failedOnce = false;
  /** the first write that failed (a full disk, permissions): what is on disk may lack it */
  firstError: string | undefined;
  bytesWritten = 0;

  constructor(
    private readonly log: Logger,
    private readonly minRewriteMs = MIN_REWRITE_MS,
  ) {}

  /** Queue work that runs in order on the writer (rendering, reading full tool outputs). */
  job(fn: Job): void {
    this.jobs.push(fn);
    this.kick();
  }

  /** Mark a file dirty; `content` is read when the writer flushes (latest state wins). */
  put(file: string, content: () => string): void {
    this.dirty.set(file, content);
    this.folded.set(file, []); // a new whole state: earlier appends to a waiting write are part of it or gone
    this.kick();
  }

  /**
   * Append text to a file (the journal, the open turn's transcript); appends are flushed in order. A file
   * still waiting for a whole-file write (put) gets the text added to that write instead, so the write
   * cannot land over it.
   */
  append(file: string, text: string): void {
    const folded = this.folded.get(file);
    if (folded) {
      folded.push(text);
      this.kick();
      return;
    }
    const a = this.appends.get(file);
    if (a) a.push(text);
    else this.appends.set(file, [text]);
    this.kick();
  }

  /** Resolves when every queued job and write is on disk (waiting files are written now). */
  async settle(): Promise<void> {
    this.urgent++;
    try {
      for (;;) {
        if (this.running) await this.running;
        else if (this.jobs.length || this.dirty.size || this.appends.size) this.kick();
        else break;
      }
    } finally {
      this.urgent--;
    }
  }

  private kick(): void {
    if (this.running) return;
    if (this.timer && this.urgent === 0 && this.jobs.length === 0 && this.appends.size === 0) return; // a flush is already scheduled
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.running = this.loop().finally(() => {
      this.running = undefined;
      // work queued while the loop was finishing
      if (this.jobs.length || this.appends.size || (this.dirty.size && !this.timer)) this.kick();
    });
  }

  private async loop(): Promise<void> {
    // let the step that queued us return first: the write happens behind it
    await new Promise<void>((r) => setImmediate(r));
    for (;;) {
      while (this.jobs.length) {
        const j = this.jobs.shift()!;
        try {
          await j();
        } catch (e) {
          this.fail(e);
        }
      }
      const appends = [...this.appends];
      this.appends.clear();
      for (const [file, parts] of appends) {
        try {
          await this.ensureDir(file);
          const text = parts.join("");
          await fs.promises.appendFile(file, text);
          this.bytesWritten += text.length;
        } catch (e) {
          this.fail(e);
        }
      }
      let wait = Infinity;
      // In the order files first became dirty, stopping at the first one not yet due: a newer file (the
      // next turn) is never on disk while an older one (the turn before) still waits for its last rows,
      // so what a crash leaves is a prefix across files too.
      for (const [file, content] of [...this.dirty]) {
        const due = (this.lastWrite.get(file) ?? -Infinity) + this.minRewriteMs;
        const now = performance.now();
        if (this.urgent === 0 && now < due) {
          wait = due - now;
          break;
        }
        this.dirty.delete(file);
        const tail = this.folded.get(file) ?? [];
        this.folded.delete(file);
        try {
          await this.ensureDir(file);
          const text = content() + tail.join("");
          await writeAtomic(file, text);
          this.bytesWritten += text.length;
        } catch (e) {
          this.fail(e);
        }
        this.lastWrite.set(file, performance.now());
      }
      if (this.jobs.length || this.appends.size) continue;
      if (this.dirty.size === 0) return;
      if (this.urgent > 0) continue;
      if (wait !== Infinity) {
        // come back when the earliest waiting file is due
        this.timer = setTimeout(() => {
          this.timer = undefined;
          this.kick();
        }, Math.ceil(wait));
        this.timer.unref();
        return;
      }
    }
  }

  private async ensureDir(file: string): Promise<void> {
    const d = path.dirname(file);
    if (this.madeDirs.has(d)) return;
    await fs.promises.mkdir(d, { recursive: true });
    this.madeDirs.add(d);
  }

  /** Writing is best effort: a full disk never fails a step (logged once). */
  private fail(e: unknown): void {
    if (this.failedOnce) return;
    this.failedOnce = true;
    this.firstError = e instanceof Error ? e.message : String(e);
    this.log.error(`ledger: a write failed (${this.firstError}); the session goes on, the ledger may lag`);
  }

  /** Forget a directory we created (it was removed by retention). */
  forgetDirs(prefix: string): void {
    for (const d of [...this.madeDirs]) if (d.startsWith(prefix)) this.madeDirs.delete(d);
  }
}

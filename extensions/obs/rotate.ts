/**
 * The log file: JSON lines appended synchronously (pino.destination, a sonic-boom in sync mode: a line is on disk when the
 * call returns, so a crash loses nothing) and rotated by size: `<file>` → `<file>.1` (newest) … `<file>.N`.
 * A file that cannot be opened or written reports once and stops; the caller goes on without it.
 */
import fs from "node:fs";
import path from "node:path";
import pino from "pino";

/** pino.destination: a sonic-boom (pino's own dependency, reached through pino) */
type SonicBoom = ReturnType<typeof pino.destination>;

export interface RotatingFileOptions {
  file: string;
  /** rotate before a line would take the file past this many bytes */
  rotateBytes: number;
  /** rotated files kept (`<file>.1` … `<file>.keep`) */
  keep: number;
  /** called once, when the file cannot be opened or written (it is then closed and skipped) */
  onFailure(message: string): void;
}

export class RotatingFile {
  private boom?: SonicBoom;
  private size = 0;

  constructor(private readonly o: RotatingFileOptions) {
    try {
      fs.mkdirSync(path.dirname(o.file), { recursive: true });
      // probe first: sonic-boom's sync open failure has no listener to report to
      fs.closeSync(fs.openSync(o.file, "a", 0o600));
      this.size = fs.statSync(o.file).size;
      this.boom = pino.destination({ dest: o.file, sync: true, append: true, mode: 0o600 });
      this.boom.on("error", (e: Error) => this.fail(e));
    } catch (e) {
      this.fail(e);
    }
  }

  get open(): boolean {
    return this.boom !== undefined;
  }

  write(line: string): void {
    const boom = this.boom;
    if (!boom) return;
    try {
      const n = Buffer.byteLength(line);
      if (this.size > 0 && this.size + n > this.o.rotateBytes) this.rotate(boom);
      boom.write(line);
      this.size += n;
    } catch (e) {
      this.fail(e);
    }
  }

  flush(): void {
    try {
      this.boom?.flushSync();
    } catch {
      // sync mode has nothing buffered; a closed file has nothing to flush
    }
  }

  private rotate(boom: SonicBoom): void {
    boom.flushSync();
    const { file, keep } = this.o;
    for (let i = keep - 1; i >= 1; i--) {
      if (fs.existsSync(`${file}.${i}`)) fs.renameSync(`${file}.${i}`, `${file}.${i + 1}`);
    }
    fs.renameSync(file, `${file}.1`);
    boom.reopen(); // sync mode: the new file is open when this returns
    this.size = 0;
  }

  private fail(e: unknown): void {
    const boom = this.boom;
    this.boom = undefined;
    try {
      boom?.destroy();
    } catch {
      // already closed
    }
    this.o.onFailure(`cannot write the log file ${this.o.file}: ${e instanceof Error ? e.message : String(e)}; logging goes on without it`);
  }
}

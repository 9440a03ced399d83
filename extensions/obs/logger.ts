/**
 * The obs logger core: one pino instance serialises every line (ISO time, level name, ext, session/turn/step
 * from the async context, fields, msg), already redacted, into three sinks: the recent-lines ring (every
 * level), live subscribers (every level) and the log file (obs.log_level and above). The display (stderr,
 * the pager) is the kernel's, fed the redacted message by the sink this returns.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import pino from "pino";
import type { LogFields, LogLevel } from "./api.js";
import type { Redactor } from "./redact.js";
import type { RotatingFile } from "./rotate.js";

export const RING_SIZE = 200;
const RANK: Record<LogLevel, number> = { trace: 10, debug: 20, info: 30, warn: 40, error: 50 };
/** keys the line itself owns: a field of the same name would write a second, conflicting key */
const OWN = new Set(["level", "time", "msg", "ext"]);

/** The recent lines, oldest first: a fixed array used as a circle. */
export class Ring {
  private lines: string[] = [];
  private next = 0;
  constructor(private readonly size = RING_SIZE) {}
  push(line: string): void {
    if (this.lines.length < this.size) this.lines.push(line);
    else this.lines[this.next] = line;
    this.next = (this.next + 1) % this.size;
  }
  last(n = this.size): string[] {
    const ordered = this.lines.length < this.size ? this.lines : [...this.lines.slice(this.next), ...this.lines.slice(0, this.next)];
    return ordered.slice(Math.max(0, ordered.length - n));
  }
}

/** Redact a field value: strings, errors and plain objects/arrays (a few levels deep). */
function scrub(v: unknown, redact: Redactor, depth = 0): unknown {
  if (typeof v === "string") return redact(v);
  if (v === null || typeof v !== "object") return v;
  if (v instanceof Error) return { type: v.name, message: redact(v.message), ...(v.stack ? { stack: redact(v.stack) } : {}), ...((v as { code?: unknown }).code !== undefined ? { code: (v as { code?: unknown }).code } : {}) };
  if (depth >= 4) return "[…]";
  if (Array.isArray(v)) return v.map((x) => scrub(x, redact, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) out[k] = scrub(x, redact, depth + 1);
  return out;
}

export interface LogCoreOptions {
  redact: Redactor;
  fileLevel: LogLevel;
}

export class LogCore {
  readonly ring = new Ring();
  readonly context = new AsyncLocalStorage<LogFields>();
  private readonly listeners = new Set<(line: string) => void>();
  private readonly pino: pino.Logger;
  /** the level of the line being written (the destination cannot see it otherwise) */
  private writing: LogLevel = "info";
  private readonly fileRank: number;
  /** the log file, once opened (set after the sink is attached, so its failure can be logged) */
  file?: RotatingFile;

  constructor(private readonly o: LogCoreOptions) {
    this.fileRank = RANK[o.fileLevel];
    const dest = { write: (line: string) => this.dispatch(line) };
    this.pino = pino({ level: "trace", base: undefined, timestamp: pino.stdTimeFunctions.isoTime, formatters: { level: (label) => ({ level: label }) },
      // errors are already plain and redacted (scrub): pino's own err serializer would re-type them "Object"
      serializers: { err: (v: unknown) => v } }, dest);
  }

  /** One line from any extension: returns the redacted message (what the display shows). */
  write(level: LogLevel, msg: string, fields: Record<string, unknown>): string {
    const text = this.o.redact(msg);
    const obj: Record<string, unknown> = { ext: typeof fields.ext === "string" ? fields.ext : "kernel", ...this.context.getStore() };
    for (const k in fields) if (!OWN.has(k) && fields[k] !== undefined) obj[k] = scrub(fields[k], this.o.redact);
    this.writing = level;
    try {
      this.pino[level](obj, text);
    } catch {
      // a field that cannot be serialised never breaks the caller (pino already guards cycles)
    }
    return text;
  }

  subscribe(fn: (line: string) => void): () => void {
    this.listeners.add(fn);
    return () => void this.listeners.delete(fn);
  }

  flush(): void {
    this.file?.flush();
  }

  private dispatch(line: string): void {
    const bare = line.endsWith("\n") ? line.slice(0, -1) : line;
    this.ring.push(bare);
    for (const fn of this.listeners) {
      try {
        fn(bare);
      } catch {
        // a failing subscriber (a closed HTTP tail) does not stop logging
      }
    }
    if (this.file && RANK[this.writing] >= this.fileRank) this.file.write(line);
  }
}

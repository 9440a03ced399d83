/**
 * The published logging contract `oceancode/api/obs`: the structured logger every extension logs
 * through and the service behind it, and the shared redactor as plain functions (crash reports and
 * telemetry use it without the service). The logger's implementation is the obs extension's.
 */
export { REDACTED, type Redactor } from "./redact.js";

/** Log levels, lowest first. */
export type LogLevel = "trace" | "debug" | "info" | "warn" | "error";
export const LOG_LEVELS: readonly LogLevel[] = Object.freeze(["trace", "debug", "info", "warn", "error"]);

/** Fields a log line carries beside its message: where in a session it was written, and anything else. */
export interface LogFields {
  session?: string;
  turn?: number;
  step?: number;
  [key: string]: unknown;
}

export interface StructuredLogger {
  trace(msg: string, fields?: LogFields): void;
  debug(msg: string, fields?: LogFields): void;
  info(msg: string, fields?: LogFields): void;
  warn(msg: string, fields?: LogFields): void;
  error(msg: string, fields?: LogFields): void;
  /** a logger whose lines also carry `fields` */
  child(fields: LogFields): StructuredLogger;
}

/** Service "obs". */
export interface ObsService {
  /** a logger whose lines carry `ext` (an extension id) and `fields` */
  logger(ext: string, fields?: LogFields): StructuredLogger;
  /** the last lines logged at any level (JSON lines, already redacted), oldest first, at most `n` */
  recentLines(n?: number): string[];
  /** the shared redactor: secret values of the environment, API keys, URL passwords → *** */
  redact(text: string): string;
  /** every line from now on (a JSON line, redacted) as it is logged; returns the unsubscribe (the HTTP log tail) */
  subscribe(listener: (line: string) => void): () => void;
  /**
   * Run `fn` with `fields` (session, turn, step) on every line logged inside it, by any extension, across
   * its awaits (AsyncLocalStorage): the engine runs a turn in it.
   */
  withContext<T>(fields: LogFields, fn: () => T): T;
  /** From here on in the current async context (inside withContext), lines carry `fields` too (the engine's step). */
  enterContext(fields: LogFields): void;
  /** write out what is buffered (before an exit or a crash report) */
  flush(): void;
  /** the file level and the log file (absent: no file) */
  readonly level: LogLevel;
  readonly file?: string;
}

export const OBS_SERVICE = "obs";

/** The services this contract names, typed for `ctx.services.get(name)` and `kernel.service(name)`. */
declare module "../../kernel/api.js" {
  interface ServiceMap {
    obs: ObsService;
  }
}

/**
 * The published contract `oceancode/api/crash`.
 *
 * Service name: "crash" (CrashService). The crash extension installs the process's uncaught-exception and
 * unhandled-rejection handlers: each writes one crash report (JSON, redacted) to `<state dir>/crash/`
 * and exits with CRASH_EXIT_CODE. `oceancode doctor` reads the reports back with readCrashReports.
 */

/** The exit code of a crashed process (the guide names none; sysexits' EX_SOFTWARE, an internal error). */
export const CRASH_EXIT_CODE = 70;
/** How many reports are kept (the newest; older ones are removed when a new one is written). */
export const CRASH_KEEP = 20;

/** One crash report, as written to `<state dir>/crash/crash-<time>-<pid>.json`. */
export interface CrashReport {
  /** ISO time of the crash */
  time: string;
  /** "uncaughtException" or "unhandledRejection" */
  kind: string;
  oceancodeVersion: string;
  nodeVersion: string;
  platform: string;
  pid: number;
  /** the command line after the node binary and script, redacted */
  argv: string[];
  error: { name: string; message: string; stack: string };
  /** the extension whose code the stack runs through first (its id), or undefined when none matched */
  extension?: string;
  /** sessions open in the process (as the engine knows them) */
  sessions: string[];
  /** the last log lines before the crash (JSON lines), redacted */
  logTail: string[];
}

/** Context a crash report should carry, asked for at crash time (must be cheap and never throw on purpose). */
export interface CrashContext {
  /** sessions this process has open */
  sessions?(): string[];
}

export interface CrashService {
  /** the folder the reports go to */
  readonly dir: string;
  /** Add context (e.g. the engine's open sessions); asked only when a crash is written. */
  addContext(source: CrashContext): void;
}

export const CRASH_SERVICE = "crash";

/** The services this contract names, typed for `ctx.services.get(name)` and `kernel.service(name)`. */
declare module "../../kernel/api.js" {
  interface ServiceMap {
    crash: CrashService;
  }
}

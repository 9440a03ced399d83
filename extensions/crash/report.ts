/** Building, writing and pruning crash reports. Synchronous on purpose: it runs in a dying process. */
import fs from "node:fs";
import path from "node:path";
import { CRASH_KEEP, type CrashReport } from "./api.js";
import { extensionOf, type ExtensionDir } from "./origin.js";

export interface ReportInput {
  kind: string;
  error: unknown;
  version: string;
  argv: readonly string[];
  dirs: readonly ExtensionDir[];
  sessions: readonly string[];
  logTail: readonly string[];
  redact(text: string): string;
  now?: Date;
}

function errorParts(e: unknown): { name: string; message: string; stack: string } {
  if (e instanceof Error) return { name: e.name, message: e.message, stack: e.stack ?? `${e.name}: ${e.message}` };
  // a rejection with a non-Error value: no stack of its own
  let message: string;
  try {
    message = typeof e === "string" ? e : JSON.stringify(e) ?? String(e);
  } catch {
    message = String(e);
  }
  return { name: "NonError", message, stack: "" };
}

export function buildReport(i: ReportInput): CrashReport {
  const err = errorParts(i.error);
  const r = i.redact;
  const extension = err.stack ? extensionOf(err.stack, i.dirs) : undefined;
  return {
    time: (i.now ?? new Date()).toISOString(),
    kind: i.kind,
    oceancodeVersion: i.version,
    nodeVersion: process.version,
    platform: `${process.platform}-${process.arch}`,
    pid: process.pid,
    argv: i.argv.map(r),
    error: { name: r(err.name), message: r(err.message), stack: r(err.stack) },
    ...(extension ? { extension } : {}),
    sessions: [...i.sessions],
    logTail: i.logTail.map(r),
  };
}

/** Write the report (atomically: a reader never sees half a file), then keep the newest `keep`. Returns its path. */
export function writeReport(dir: string, report: CrashReport, keep = CRASH_KEEP): string {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const stamp = report.time.replace(/[:.]/g, "-");
  const file = path.join(dir, `crash-${stamp}-${report.pid}.json`);
  const tmp = `${file}.tmp`;
  fs.writeFileSync(tmp, `${JSON.stringify(report, null, 2)}\n`, { mode: 0o600 });
  fs.renameSync(tmp, file);
  prune(dir, keep);
  return file;
}

export function prune(dir: string, keep: number): void {
  const names = fs
    .readdirSync(dir)
    .filter((n) => n.startsWith("crash-") && n.endsWith(".json"))
    .sort();
  for (const n of names.slice(0, Math.max(0, names.length - keep))) fs.rmSync(path.join(dir, n), { force: true });
}

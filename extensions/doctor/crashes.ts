/** doctor's crash-report lines: the newest reports the crash extension wrote to `<state dir>/crash/`. */
import { crashDir, readCrashReports } from "../crash/kit.js";
import type { CheckLine } from "./checks.js";

/** At most this many reports are listed one by one (the rest are counted). */
export const LISTED = 5;

export function crashChecks(stateDir: string): CheckLine[] {
  const dir = crashDir(stateDir);
  const all = readCrashReports(dir);
  if (all.length === 0) return [{ status: "ok", check: "crash reports", detail: `none in ${dir}` }];
  const lines: CheckLine[] = all.slice(0, LISTED).map(({ file, report }) => ({
    status: "warn",
    check: `crash ${report.time}`,
    detail: `${report.extension ? `extension ${report.extension}` : "no extension in its stack"}: ${report.error.message.split("\n")[0]!.slice(0, 160)} (${file})`,
  }));
  if (all.length > LISTED) lines.push({ status: "warn", check: "crash reports", detail: `and ${all.length - LISTED} older report(s) in ${dir}` });
  lines.push({
    status: "info",
    check: "crash reports",
    detail: `${all.length} report(s) in ${dir}; each carries the stack, the sessions open and the last log lines (redacted): attach one to a bug report; delete them once read`,
  });
  return lines;
}

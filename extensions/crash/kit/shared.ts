/** Implementation published by the kit `oceancode/kit/crash` (moved out of extensions/crash/api.ts, which keeps the types). */
import fs from "node:fs";
import path from "node:path";
import { CRASH_KEEP, type CrashReport } from "../api.js";

/** `<state dir>/crash` */
export function crashDir(stateDir: string): string {
  return path.join(stateDir, "crash");
}

/** The reports in `dir`, newest first (unreadable or foreign files are skipped), with their paths. */
export function readCrashReports(dir: string, limit = CRASH_KEEP): Array<{ file: string; report: CrashReport }> {
  let names: string[];
  try {
    names = fs.readdirSync(dir).filter((n) => n.startsWith("crash-") && n.endsWith(".json"));
  } catch {
    return [];
  }
  const out: Array<{ file: string; report: CrashReport }> = [];
  for (const n of names.sort().reverse()) {
    const file = path.join(dir, n);
    try {
      const report = JSON.parse(fs.readFileSync(file, "utf8")) as CrashReport;
      if (typeof report.time === "string" && report.error && typeof report.error.message === "string") out.push({ file, report });
    } catch {
      // a half-written or foreign file: not a report
    }
    if (out.length >= limit) break;
  }
  return out;
}

/**
 * Who holds a database file open, for the message when SQLite reports it locked (SQLITE_BUSY): on Linux
 * the processes whose open files (/proc/<pid>/fd) include it or its -wal/-shm, with their command names.
 * Elsewhere, or when /proc cannot be read, nobody is named ("another process"). Only run on that error
 * path: it walks every process's file table.
 */
import fs from "node:fs";
import path from "node:path";

export interface Holder {
  pid: number;
  command?: string;
}

/** SQLite's verdict that another connection holds the lock (not damage, not permissions). */
export function isLocked(e: unknown): boolean {
  const code = (e as { code?: unknown } | null)?.code;
  if (typeof code === "string" && (code.startsWith("SQLITE_BUSY") || code.startsWith("SQLITE_LOCKED"))) return true;
  const cause = (e as { cause?: unknown } | null)?.cause;
  if (cause !== undefined && cause !== e && isLocked(cause)) return true;
  return /database (table )?is locked|SQLITE_BUSY/i.test(e instanceof Error ? e.message : String(e));
}

export function lockHolders(file: string): Holder[] {
  if (process.platform !== "linux") return [];
  const want = path.resolve(file);
  const names = new Set([want, `${want}-wal`, `${want}-shm`, `${want}-journal`]);
  const out: Holder[] = [];
  let pids: string[];
  try {
    pids = fs.readdirSync("/proc").filter((p) => /^\d+$/.test(p) && Number(p) !== process.pid);
  } catch {
    return [];
  }
  for (const p of pids) {
    let fds: string[];
    try {
      fds = fs.readdirSync(`/proc/${p}/fd`);
    } catch {
      continue; // gone, or not ours to read
    }
    const holds = fds.some((fd) => {
      try {
        return names.has(fs.readlinkSync(`/proc/${p}/fd/${fd}`));
      } catch {
        return false;
      }
    });
    if (!holds) continue;
    let command: string | undefined;
    try {
      command = fs.readFileSync(`/proc/${p}/comm`, "utf8").trim() || undefined;
    } catch {
      command = undefined;
    }
    out.push({ pid: Number(p), ...(command ? { command } : {}) });
  }
  return out;
}

/** "locked by another process (pid 123, sqlite3)": what to tell the user, and what to do. */
export function lockedLine(file: string): string {
  const who = lockHolders(file);
  const named = who.length ? `${who.length > 1 ? "processes" : "process"} ${who.map((h) => `pid ${h.pid}${h.command ? ` (${h.command})` : ""}`).join(", ")}` : "another process";
  return `${file} is locked by ${named}; wait for it to finish or stop it, then run again`;
}

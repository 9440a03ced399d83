/**
 * Who holds a database file's lock, for the message when SQLite reports it locked (SQLITE_BUSY): on Linux
 * the processes /proc/locks lists with a lock on it or its -wal/-shm, with their command names. Elsewhere,
 * or when /proc cannot be read, nobody is named ("another process"). Only run on that error path.
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

/**
 * The processes holding a lock on the file (or its -wal/-shm), from /proc/locks: SQLite takes POSIX
 * (fcntl) locks, so the one that keeps others out holds a WRITE lock there. Writers first; readers
 * (WAL readers hold READ locks on the -shm) only when no writer is found.
 */
function fromProcLocks(files: readonly string[]): number[] {
  const inodes = new Set<number>();
  for (const f of files) {
    try {
      inodes.add(fs.statSync(f).ino);
    } catch {
      // absent
    }
  }
  let text: string;
  try {
    text = fs.readFileSync("/proc/locks", "utf8");
  } catch {
    return [];
  }
  const writers = new Set<number>();
  const readers = new Set<number>();
  for (const l of text.split("\n")) {
    // "1: POSIX  ADVISORY  WRITE 5429 fd:01:123456 0 EOF"
    const m = /^\d+:\s+(?:POSIX|FLOCK)\s+\S+\s+(READ|WRITE)\s+(\d+)\s+[0-9a-f]+:[0-9a-f]+:(\d+)\s/.exec(l);
    if (!m || !inodes.has(Number(m[3]))) continue;
    const pid = Number(m[2]);
    if (pid === process.pid || pid <= 0) continue;
    (m[1] === "WRITE" ? writers : readers).add(pid);
  }
  return [...(writers.size ? writers : readers)];
}

function holdsOpen(pid: number, names: ReadonlySet<string>): boolean {
  try {
    return fs.readdirSync(`/proc/${pid}/fd`).some((fd) => {
      try {
        return names.has(fs.readlinkSync(`/proc/${pid}/fd/${fd}`));
      } catch {
        return false;
      }
    });
  } catch {
    return false;
  }
}

function commandOf(pid: number): string | undefined {
  try {
    return fs.readFileSync(`/proc/${pid}/comm`, "utf8").trim() || undefined;
  } catch {
    return undefined;
  }
}

export function lockHolders(file: string): Holder[] {
  if (process.platform !== "linux") return [];
  const want = path.resolve(file);
  const files = [want, `${want}-wal`, `${want}-shm`, `${want}-journal`];
  const names = new Set(files);
  // an inode can repeat on another device: keep only processes that really have the file open
  return fromProcLocks(files)
    .filter((pid) => holdsOpen(pid, names))
    .map((pid) => {
      const command = commandOf(pid);
      return { pid, ...(command ? { command } : {}) };
    });
}

/** "locked by another process (pid 123, sqlite3)": what to tell the user, and what to do. */
export function lockedLine(file: string): string {
  const who = lockHolders(file);
  const named = who.length ? `${who.length > 1 ? "processes" : "process"} ${who.map((h) => `pid ${h.pid}${h.command ? ` (${h.command})` : ""}`).join(", ")}` : "another process";
  return `${file} is locked by ${named}; wait for it to finish or stop it, then run again`;
}

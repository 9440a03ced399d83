/**
 * CPU time (utime + stime, from /proc) of the bench's processes: the serve instances by pid, and the
 * throwaway PostgreSQL's postmaster with its children (backends, writer, WAL writer...), found by its port.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";

const CLK_TCK = (() => {
  try {
    return Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;
  } catch {
    return 100;
  }
})();
export function statOf(pid: number): { ppid: number; cpuMs: number } | undefined {
  try {
    const st = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    const f = st.slice(st.lastIndexOf(")") + 2).split(" "); // f[0] is field 3 (state)
    return { ppid: Number(f[1]), cpuMs: ((Number(f[11]) + Number(f[12])) * 1000) / CLK_TCK };
  } catch {
    return undefined;
  }
}
/** CPU ms so far of the postmaster listening on `port` and its children (backends, writer, WAL writer...), by pid. */
export function pgCpu(port: number): Map<number, number> {
  const pids = fs.readdirSync("/proc").filter((d) => /^\d+$/.test(d)).map(Number);
  let master: number | undefined;
  for (const pid of pids) {
    try {
      const argv = fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
      const i = argv.indexOf("-p");
      if (i >= 0 && argv[i + 1] === String(port) && argv.includes("-D")) master = pid;
    } catch {
      /* gone */
    }
  }
  const out = new Map<number, number>();
  if (master === undefined) return out;
  for (const pid of pids) {
    const st = statOf(pid);
    if (st && (pid === master || st.ppid === master)) out.set(pid, st.cpuMs);
  }
  return out;
}
export const cpuOf = (pids: number[]) => pids.reduce((sum, pid) => sum + (statOf(pid)?.cpuMs ?? 0), 0);
/** CPU ms spent between two snapshots (a process that started in between counts from zero) */
export const pgSpent = (a: Map<number, number>, b: Map<number, number>) => [...b].reduce((sum, [pid, ms]) => sum + ms - (a.get(pid) ?? 0), 0);

/**
 * A small real tmpfs for the full-disk fault tests (root mounts it; without the mount a test fails, it does
 * not skip), and filling it to the last byte.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

export function mountTmpfs(dir: string, size = "8m"): void {
  fs.mkdirSync(dir, { recursive: true });
  execFileSync("mount", ["-t", "tmpfs", "-o", `size=${size}`, "tmpfs", dir]);
}

export function unmount(dir: string): void {
  execFileSync("umount", [dir]);
}

/** Fill the file system holding `filler`: write until ENOSPC, then the last partial chunk. */
export function fill(filler: string): void {
  const fd = fs.openSync(filler, "a");
  try {
    for (const size of [64 * 1024, 512]) {
      const chunk = Buffer.alloc(size, 1);
      try {
        for (;;) fs.writeSync(fd, chunk);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== "ENOSPC") throw e;
      }
    }
  } finally {
    fs.closeSync(fd);
  }
}

/** Temp files (`*.tmp*`) anywhere under `dir`: a write a full disk cut short must leave none. */
export function tmpFiles(dir: string): string[] {
  return (fs.readdirSync(dir, { recursive: true }) as string[]).filter((f) => /\.tmp/.test(path.basename(f)));
}

/**
 * A small real tmpfs for the full-disk fault tests (root mounts it; without the mount a test fails, it does
 * not skip), and filling it to the last byte.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll } from "vitest";
import { makeSandbox, runCliAsync, type RunResult, type Sandbox } from "../kit/cli.js";

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

export interface FullDiskFile {
  sb: Sandbox;
  /** the data dir (~/.local/share/oceancode), an 8 MiB tmpfs while the file's tests run */
  data: string;
  /** the file `fill` grows in the data dir */
  filler: string;
  /** the CLI in the sandbox's project, asynchronous */
  cli(...args: string[]): Promise<RunResult>;
}

/** A full-disk test file's set-up: its sandbox, whose data dir is mounted before the tests and unmounted (the sandbox removed) after. */
export function fullDiskFile(prefix: string): FullDiskFile {
  const sb = makeSandbox(prefix);
  const data = path.join(sb.home, ".local", "share", "oceancode");
  // 8 MiB: room for a session, then filled to the last byte
  beforeAll(() => mountTmpfs(data));
  afterAll(() => {
    try {
      unmount(data);
    } finally {
      sb.cleanup();
    }
  });
  return { sb, data, filler: path.join(data, "filler"), cli: (...args) => runCliAsync(args, { cwd: sb.project, env: sb.env, timeoutMs: 60_000 }) };
}

/** A session's rows as the data dir's database holds them (seq order), and its user prompts in order. */
export function storedSession(data: string, id: string): { rows: Array<{ seq: number; role: string; json: string }>; prompts: string[] } {
  const db = new Database(path.join(data, "oceancode.db"), { readonly: true });
  const rows = db.prepare("SELECT seq, role, json FROM rows WHERE session_id = ? ORDER BY seq").all(id) as Array<{ seq: number; role: string; json: string }>;
  db.close();
  return { rows, prompts: rows.filter((x) => x.role === "user").map((x) => (JSON.parse(x.json) as { text: string }).text) };
}

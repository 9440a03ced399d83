/**
 * Fault-suite helpers: the process table read from /proc (a process is found by a marker in its command
 * line), bounded waits on a condition, and the compiled CLI started with its events parsed as they arrive.
 */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { CLI, type Sandbox } from "../kit/cli.js";
import { parseEvents, type JsonEvent } from "../kit/stored.js";

/** The pids whose command line contains `marker` (zombies have none and are not counted). */
export function pidsWithMarker(marker: string): number[] {
  const out: number[] = [];
  for (const d of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(d)) continue;
    let cmd: string;
    try {
      cmd = fs.readFileSync(`/proc/${d}/cmdline`, "utf8");
    } catch {
      continue; // gone meanwhile
    }
    if (cmd.includes(marker)) out.push(Number(d));
  }
  return out;
}

/** Wait until `cond` holds, polling every `everyMs`; throws `what` after `timeoutMs`. */
export async function waitFor<T>(what: string, cond: () => T | undefined | false | Promise<T | undefined | false>, timeoutMs = 30_000, everyMs = 50): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await cond();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

export interface LiveRun {
  child: ChildProcess;
  events(): JsonEvent[];
  stderr(): string;
  /** resolves with the exit code (or the signal that ended it) */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** `oceancode run --format json <args>` in the sandbox, stdin closed; a 60 s guard SIGKILLs it. */
export function startRun(sb: Sandbox, args: string[], env: NodeJS.ProcessEnv = {}): LiveRun {
  const child = spawn(process.execPath, [CLI, "run", "--format", "json", ...args], { cwd: sb.project, env: { ...sb.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  let err = "";
  child.stdout!.on("data", (d: Buffer) => (out += d.toString()));
  child.stderr!.on("data", (d: Buffer) => (err += d.toString()));
  const guard = setTimeout(() => child.kill("SIGKILL"), 60_000);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code, signal) => {
      clearTimeout(guard);
      resolve({ code, signal });
    });
  });
  return { child, events: () => parseEvents(out.slice(0, out.lastIndexOf("\n") + 1)), stderr: () => err, exited };
}

/** The session database of a sandbox (the default data dir), opened read-only. */
export function openSessionDb(sb: Sandbox): Database.Database {
  return new Database(path.join(sb.home, ".local", "share", "oceancode", "oceancode.db"), { readonly: true, fileMustExist: true });
}

/** A session's rows as stored in SQLite: role and the row's JSON. */
export function storedRows(sb: Sandbox, sessionId: string): Array<{ role: string; row: Record<string, unknown> }> {
  const db = openSessionDb(sb);
  try {
    return (db.prepare("SELECT role, json FROM rows WHERE session_id = ? ORDER BY seq").all(sessionId) as Array<{ role: string; json: string }>).map((r) => ({ role: r.role, row: JSON.parse(r.json) as Record<string, unknown> }));
  } finally {
    db.close();
  }
}

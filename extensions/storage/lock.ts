/**
 * One process per session: a lock the OS releases when the holder dies, so a kill -9 never leaves a
 * session stuck. The lock is a listening Unix socket named after the database and the session: on Linux
 * in the abstract namespace (no file; gone with the process), elsewhere a socket file whose stale copy
 * (nobody answering) is removed. A second process that cannot bind asks the holder who it is (pid, host,
 * since) and either fails with that or, with `wait`, retries until the holder lets go.
 */
import crypto from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { SessionBusy } from "../engine/kit.js";

export interface LockHolder {
  pid: number;
  host: string;
  since: number;
}

export interface SessionLockHandle {
  release(): Promise<void>;
}

/** The engine's OC_ERR_SESSION_BUSY naming the holder (its pid, host and since as `data.holder`). */
export function sessionBusy(sessionId: string, holder: LockHolder | undefined) {
  const who = holder ? `process ${holder.pid} on ${holder.host} (since ${new Date(holder.since).toISOString()})` : "another process";
  return SessionBusy({ sessionId, holder: who }, { data: { holder } });
}

/** The socket address for one session of one database. */
export function lockAddress(dbFile: string, sessionId: string, dir = os.tmpdir()): string {
  const key = crypto.createHash("sha256").update(`${path.resolve(dbFile)}\0${sessionId}`).digest("hex").slice(0, 32);
  return process.platform === "linux" ? `\0oceancode-session-${key}` : path.join(dir, `oc-session-${key}.sock`);
}

function listen(address: string, holder: LockHolder): Promise<net.Server | undefined> {
  return new Promise((resolve, reject) => {
    const server = net.createServer((sock) => sock.end(JSON.stringify(holder)));
    server.once("error", (e: NodeJS.ErrnoException) => (e.code === "EADDRINUSE" ? resolve(undefined) : reject(e)));
    server.listen({ path: address, exclusive: true }, () => {
      // the lock must never keep the process alive on its own
      server.unref();
      resolve(server);
    });
  });
}

/** Ask the holder who it is. undefined: nobody answered (a stale socket file). */
function whoHolds(address: string): Promise<LockHolder | "stale"> {
  return new Promise((resolve) => {
    const sock = net.connect({ path: address });
    let data = "";
    const timer = setTimeout(() => sock.destroy(), 2000);
    sock.on("data", (d) => (data += d.toString()));
    sock.on("error", (e: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      resolve(e.code === "ECONNREFUSED" || e.code === "ENOENT" ? "stale" : { pid: 0, host: "?", since: 0 });
    });
    sock.on("close", () => {
      clearTimeout(timer);
      try {
        resolve(JSON.parse(data) as LockHolder);
      } catch {
        resolve({ pid: 0, host: "?", since: 0 });
      }
    });
  });
}

export interface AcquireOptions {
  /** wait for the holder to let go instead of failing */
  wait?: boolean;
  /** poll interval while waiting */
  pollMs?: number;
  /** give up waiting after this long (default: forever) */
  timeoutMs?: number;
  /** where socket files go on platforms without abstract sockets */
  dir?: string;
}

export async function acquireSessionLock(dbFile: string, sessionId: string, opts: AcquireOptions = {}): Promise<SessionLockHandle> {
  const address = lockAddress(dbFile, sessionId, opts.dir);
  const me: LockHolder = { pid: process.pid, host: os.hostname(), since: Date.now() };
  const deadline = opts.timeoutMs === undefined ? Infinity : Date.now() + opts.timeoutMs;
  for (;;) {
    const server = await listen(address, me);
    if (server) {
      return {
        release: () =>
          new Promise<void>((resolve) => {
            server.close(() => resolve());
          }),
      };
    }
    const holder = await whoHolds(address);
    if (holder === "stale") {
      // only socket files go stale (abstract sockets vanish with their process)
      if (!address.startsWith("\0")) fs.rmSync(address, { force: true });
      continue;
    }
    if (!opts.wait || Date.now() >= deadline) throw sessionBusy(sessionId, holder);
    await new Promise((r) => setTimeout(r, opts.pollMs ?? 150));
  }
}

/** The holder a SessionBusy error from this store names (undefined when it could not be asked). */
export function busyHolder(e: unknown): LockHolder | undefined {
  const h = SessionBusy.is(e) ? e.data?.holder : undefined;
  return typeof h === "object" ? h : undefined;
}

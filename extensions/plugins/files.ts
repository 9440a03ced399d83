/**
 * File helpers for the plugin store: atomic writes (temp file + rename), strict reads (a file that does
 * not parse is refused, never overwritten), a lock file so two processes do not lose each other's
 * change, containment checks, and the copy that never follows a symlink out of the tree it copies.
 */
import fs from "node:fs";
import path from "node:path";
import { PluginStoreBusy, PluginStoreInvalid } from "./errors.js";

/** Text from a file, a directory name or a manifest, made safe for one output line (controls escaped). */
export function show(s: string): string {
  // eslint-disable-next-line no-control-regex
  return s.replace(/[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/** Is `p` the directory `dir` or inside it (lexically)? */
export function within(dir: string, p: string): boolean {
  const rel = path.relative(path.resolve(dir), path.resolve(p));
  return rel === "" || (!rel.startsWith("..") && !path.isAbsolute(rel));
}

/** Like `within`, with symlinks resolved on both sides (false when `p` does not exist). */
export function reallyWithin(dir: string, p: string): boolean {
  try {
    return within(fs.realpathSync(dir), fs.realpathSync(p));
  } catch {
    return false;
  }
}

export function isDir(p: string): boolean {
  try {
    return fs.statSync(p).isDirectory();
  } catch {
    return false;
  }
}

/** A JSON object from a store file: missing or empty reads as `empty`; anything else that is not an object is refused. */
export function readStoreFile<T extends object>(file: string, empty: () => T): T {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return empty();
    throw PluginStoreInvalid.wrap(`${file} cannot be read (${(e as Error).message}); nothing was changed`);
  }
  if (text.trim() === "") return empty();
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    throw PluginStoreInvalid.wrap(`${file} is not valid JSON (${(e as Error).message}): fix it or move it away; nothing was changed`);
  }
  if (!v || typeof v !== "object" || Array.isArray(v)) throw PluginStoreInvalid.wrap(`${file}: the top level must be a JSON object; fix it or move it away; nothing was changed`);
  return v as T;
}

/** Plain JSON of a file another tool owns: undefined when missing or unparsable (never written). */
export function readForeignJson(file: string): unknown {
  try {
    return JSON.parse(fs.readFileSync(file, "utf8"));
  } catch {
    return undefined;
  }
}

function sleep(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Run `fn` holding `lockFile` (created exclusively; holds the owner's pid). A lock left by a process that
 * died, or older than `staleMs`, is taken over. Waits up to `waitMs`, then fails naming the file.
 */
export function withLock<T>(lockFile: string, fn: () => T, waitMs = 30_000, staleMs = 120_000): T {
  fs.mkdirSync(path.dirname(lockFile), { recursive: true });
  const start = Date.now();
  for (;;) {
    try {
      const fd = fs.openSync(lockFile, "wx", 0o600);
      fs.writeSync(fd, String(process.pid));
      fs.closeSync(fd);
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
      let stale = false;
      try {
        const pid = Number(fs.readFileSync(lockFile, "utf8"));
        const age = Date.now() - fs.statSync(lockFile).mtimeMs;
        stale = (Number.isInteger(pid) && pid > 0 && !alive(pid)) || age > staleMs;
      } catch {
        // it went away between open and read: try again
      }
      if (stale) fs.rmSync(lockFile, { force: true });
      else if (Date.now() - start > waitMs) throw PluginStoreBusy.wrap(`${lockFile} is held by another oceancode process; try again (delete the file if no other process runs)`);
      else sleep(20 + Math.floor(Math.random() * 30));
    }
  }
  try {
    return fn();
  } finally {
    fs.rmSync(lockFile, { force: true });
  }
}

/**
 * Copy the tree `src` to `dest` (which must not exist). Symlinks are never followed: one whose target
 * stays inside `src` is recreated (relative), one pointing outside is skipped with a warning; `.git`,
 * sockets, FIFOs and devices are not copied.
 */
export function copyTree(src: string, dest: string, warn: (msg: string) => void): void {
  const root = fs.realpathSync(src);
  const walk = (from: string, to: string, rel: string) => {
    fs.mkdirSync(to, { recursive: true });
    for (const d of fs.readdirSync(from, { withFileTypes: true })) {
      if (d.name === ".git") continue;
      const a = path.join(from, d.name);
      const b = path.join(to, d.name);
      const r = rel ? `${rel}/${d.name}` : d.name;
      if (d.isSymbolicLink()) {
        const target = fs.readlinkSync(a);
        const resolved = path.resolve(path.dirname(a), target);
        let real: string | undefined;
        try {
          real = fs.realpathSync(resolved);
        } catch {
          real = undefined;
        }
        if (real !== undefined && within(root, real) && within(root, resolved)) fs.symlinkSync(path.relative(path.dirname(a), resolved) || ".", b);
        else warn(`skipped the symlink ${show(r)} -> ${show(target)}: it points outside the plugin`);
      } else if (d.isDirectory()) walk(a, b, r);
      else if (d.isFile()) fs.copyFileSync(a, b);
    }
  };
  walk(root, dest, "");
}

/**
 * The `oceancode --help` cache, full-path side: while the kernel discovers extensions for a --help, every
 * path read through node:fs (files, directories, links, absent files probed) and every environment
 * variable read is recorded with its state before it was read; when the help text is ready the cache
 * file (help-cache.ts reads it) is written with those states. Recording by effect, not by a list, keeps
 * the cache right when discovery learns to read a new file or variable.
 *
 * Nothing is cached when the run was not a clean, read-only one: something written to stderr (a
 * warning), a file written, a process started (git telling whose a project file is reads files this
 * process never sees), an input that changed while it was read, an environment enumerated as a whole,
 * or an input modified within the last second (file times are coarse: a second change in the
 * same clock tick could keep the same signature).
 */
import childProcess from "node:child_process";
import fs from "node:fs";
import nodeModule from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { HelpCacheFile } from "./help-cache.js";

/** An input modified this recently (ms) is not trusted to show its next change in its times. */
const RACY_MS = 1000;

const READS = ["readFileSync", "readdirSync", "statSync", "lstatSync", "existsSync", "readlinkSync", "realpathSync", "accessSync", "opendirSync", "openSync", "readFile", "readdir", "stat", "lstat", "access", "realpath", "readlink", "open", "opendir", "exists"] as const;
const PROMISE_READS = ["readFile", "readdir", "stat", "lstat", "access", "realpath", "readlink", "open", "opendir"] as const;
const SPAWNS = ["spawn", "spawnSync", "exec", "execSync", "execFile", "execFileSync", "fork"] as const;
const WRITES = ["writeFileSync", "appendFileSync", "mkdirSync", "renameSync", "rmSync", "unlinkSync", "rmdirSync", "copyFileSync", "symlinkSync", "chmodSync", "utimesSync", "truncateSync", "writeFile", "appendFile", "mkdir", "rename", "rm", "unlink", "rmdir", "copyFile", "symlink", "chmod", "utimes", "truncate"] as const;

export interface HelpRecording {
  /** The help text is ready: write the cache when the run qualifies (never throws). */
  finish(stdout: string): void;
}

type Fn = (...args: unknown[]) => unknown;

export function recordHelp(opts: { file: string; key: string; format: number; signature: (file: string) => string; modifiedMs: (sig: string) => number | undefined }): HelpRecording {
  const deps = new Map<string, string>();
  const env = new Map<string, string | null>();
  let spoiled = false;
  const restores: Array<() => void> = [];

  const pathOf = (p: unknown): string | undefined => {
    if (typeof p === "string") return path.resolve(p);
    if (p instanceof URL && p.protocol === "file:") return fileURLToPath(p);
    if (Buffer.isBuffer(p)) return path.resolve(p.toString());
    return undefined; // a file descriptor: its open was recorded
  };
  /** set while signature() runs: its own lstat and stat calls are no reads of discovery's */
  let signing = false;
  const note = (p: unknown) => {
    if (signing) return;
    const f = pathOf(p);
    if (f === undefined || f === opts.file || deps.has(f)) return;
    signing = true;
    try {
      deps.set(f, opts.signature(f));
    } finally {
      signing = false;
    }
  };
  const wrap = (target: Record<string, unknown>, name: string, before: (first: unknown, args: unknown[]) => void) => {
    const orig = target[name];
    if (typeof orig !== "function") return;
    const wrapped = function (this: unknown, ...args: unknown[]) {
      before(args[0], args);
      return (orig as Fn).apply(this, args);
    };
    for (const k of Object.keys(orig)) (wrapped as unknown as Record<string, unknown>)[k] = (orig as unknown as Record<string, unknown>)[k]; // realpathSync.native
    target[name] = wrapped;
    restores.push(() => (target[name] = orig));
  };
  const fsObj = fs as unknown as Record<string, unknown>;
  const promises = fs.promises as unknown as Record<string, unknown>;
  for (const n of READS) wrap(fsObj, n, (p) => note(p));
  for (const n of PROMISE_READS) wrap(promises, n, (p) => note(p));
  // openSync(path, "w"): a write
  for (const n of WRITES) wrap(fsObj, n, () => (spoiled = true));
  for (const n of WRITES.filter((w) => !w.endsWith("Sync"))) wrap(promises, n, () => (spoiled = true));
  for (const n of SPAWNS) wrap(childProcess as unknown as Record<string, unknown>, n, () => (spoiled = true));
  for (const target of [fsObj, promises]) {
    wrap(target, target === fsObj ? "openSync" : "open", (_p, args) => {
      const flags = args[1];
      if (flags !== undefined && flags !== "r" && flags !== fs.constants.O_RDONLY) spoiled = true;
    });
  }
  const realEnv = process.env;
  process.env = new Proxy(realEnv, {
    get(t, k) {
      const v = Reflect.get(t, k) as string | undefined;
      if (typeof k === "string" && !env.has(k)) env.set(k, v ?? null);
      return v;
    },
    has(t, k) {
      if (typeof k === "string" && !env.has(k)) env.set(k, (Reflect.get(t, k) as string | undefined) ?? null);
      return Reflect.has(t, k);
    },
    ownKeys(t) {
      spoiled = true; // the whole environment read (copied, listed): no finite key to check
      return Reflect.ownKeys(t);
    },
  });
  restores.push(() => (process.env = realEnv));
  const writeErr = process.stderr.write;
  process.stderr.write = function (this: NodeJS.WriteStream, ...args: Parameters<typeof writeErr>) {
    spoiled = true;
    return writeErr.apply(this, args);
  } as typeof writeErr;
  restores.push(() => (process.stderr.write = writeErr));
  nodeModule.syncBuiltinESMExports(); // named imports of node:fs see the wrappers too

  const stop = () => {
    for (const r of restores.splice(0).reverse()) r();
    nodeModule.syncBuiltinESMExports();
  };
  return {
    finish(stdout) {
      stop();
      if (spoiled) return;
      const now = Date.now();
      for (const [f, sig] of deps) {
        if (opts.signature(f) !== sig) return; // changed while discovery read it
        const modified = opts.modifiedMs(sig);
        if (modified !== undefined && now - modified < RACY_MS) return;
      }
      const out: HelpCacheFile = { format: opts.format, key: opts.key, env: Object.fromEntries(env), deps: [...deps], stdout };
      try {
        fs.mkdirSync(path.dirname(opts.file), { recursive: true });
        const tmp = `${opts.file}.${process.pid}.tmp`;
        fs.writeFileSync(tmp, JSON.stringify(out));
        fs.renameSync(tmp, opts.file);
      } catch {
        // no cache (a read-only home): the full path keeps answering
      }
    },
  };
}

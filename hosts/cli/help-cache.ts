/**
 * The `oceancode --help` cache, entry side: what the tiny entry (main.ts) reads before it loads anything
 * else. --help lists the commands of every extension discovery finds (bundled, user, project, plugins,
 * minus the disabled), so its text depends on files and environment variables; the full path
 * (help-record.ts) records every file, directory and variable discovery touched, and this side serves the
 * stored text only while each of them is exactly as it was then. Anything different, missing or
 * unreadable: undefined, and the full path runs (and writes the cache again).
 *
 * Imports only node:fs and node:path: it runs on the quick path, where every module costs start-up time.
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** C0 controls but the newline, DEL and C1 controls: what could drive a terminal. */
const CONTROLS = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;

/** Bump when the file's shape changes: an older file is then a miss, never misread. */
const FORMAT = 2;

/** What a cache file holds (help-record.ts writes it). */
export interface HelpCacheFile {
  format: number;
  /** the package root, the working directory and the argv form the text is for */
  key: string;
  /** every environment variable discovery read: its value, or null for unset */
  env: Record<string, string | null>;
  /** every path discovery touched: its signature (signature() below) */
  deps: Array<[string, string]>;
  stdout: string;
}

/** dist/hosts/cli/main.js -> the package root */
export const PACKAGE_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..", "..");

export function packageVersion(): string {
  return (JSON.parse(fs.readFileSync(path.join(PACKAGE_ROOT, "package.json"), "utf8")) as { version: string }).version;
}

/**
 * A path's state as one string: inode, size, modification and change times (ms, with the nanoseconds as
 * the fraction) and mode (kind and permissions), or "none" when it does not exist (an absent config file
 * is a dependency too: creating it changes the help). A symlink adds its target's state. A directory's
 * times change when an entry is added or removed.
 */
export function signature(file: string): string {
  const one = (s: fs.Stats | undefined) => (s ? `${s.ino}:${s.size}:${s.mtimeMs}:${s.ctimeMs}:${s.mode}` : "none");
  try {
    const l = fs.lstatSync(file, { throwIfNoEntry: false });
    if (!l || (l.mode & fs.constants.S_IFMT) !== fs.constants.S_IFLNK) return one(l);
    return `${one(l)}>${one(fs.statSync(file, { throwIfNoEntry: false }))}`;
  } catch {
    return "unreadable"; // e.g. a parent without search permission: never equal to a recorded state
  }
}

/** The modification time (ms) in a signature (of the link's target for a link), if the path exists. */
export function modifiedMs(sig: string): number | undefined {
  const t = Number(sig.split(">").pop()!.split(":")[2]);
  return Number.isFinite(t) ? t : undefined;
}

/** FNV-1a, 32 bits: names the cache file (the full key is stored inside and compared). */
function fnv(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h.toString(16).padStart(8, "0");
}

/** Where the help for this package and working directory is cached: <XDG_CACHE_HOME|~/.cache>/oceancode/help-<hash>.json. */
export function helpCacheLocation(env: NodeJS.ProcessEnv = process.env): { file: string; key: string } | undefined {
  const base = env.XDG_CACHE_HOME ? path.resolve(env.XDG_CACHE_HOME) : env.HOME ? path.join(path.resolve(env.HOME), ".cache") : undefined;
  if (!base) return undefined;
  let cwd: string;
  try {
    cwd = process.cwd();
  } catch {
    return undefined; // the working directory was removed
  }
  const key = JSON.stringify([FORMAT, PACKAGE_ROOT, cwd, "--help"]);
  return { file: path.join(base, "oceancode", `help-${fnv(key)}.json`), key };
}

/** The cached --help text, if every input it was made from is unchanged; otherwise undefined. */
export function cachedHelp(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const where = helpCacheLocation(env);
  if (!where) return undefined;
  let f: HelpCacheFile;
  try {
    f = JSON.parse(fs.readFileSync(where.file, "utf8")) as HelpCacheFile;
  } catch {
    return undefined; // none yet, unreadable or corrupt
  }
  if (typeof f !== "object" || f === null || f.format !== FORMAT || f.key !== where.key || typeof f.stdout !== "string") return undefined;
  if (typeof f.env !== "object" || f.env === null || !Array.isArray(f.deps)) return undefined;
  // the full path wrote text already made safe (visible()); a file that holds a control character other
  // than a newline was written by something else, and is never printed to a terminal
  if (CONTROLS.test(f.stdout)) return undefined;
  for (const [name, value] of Object.entries(f.env)) if ((env[name] ?? null) !== value) return undefined;
  for (const dep of f.deps) {
    if (!Array.isArray(dep) || typeof dep[0] !== "string" || signature(dep[0]) !== dep[1]) return undefined;
  }
  return f.stdout;
}

export { FORMAT as HELP_CACHE_FORMAT };

/**
 * Secret files read through the shell: the file tools refuse .env, but `cat .env`, `grep -r X .env`,
 * `cp .env x` or `curl -d @.env` read it just the same. For each common reader, which of its words
 * are files it reads: a pattern (grep KEY), a program (sed, awk), a destination (cp a b) or an option
 * value that is not a file (scp -i key) is not a read.
 */
import type { Resolved } from "./words.js";
import type { Finding } from "./floor.js";
import { absPath, display, expandBraces, isAncestor, secretPath, secretNameGlob, type PathCtx } from "./paths.js";

interface Spec {
  /** options whose value (the next word) is not a file read */
  skip?: string[];
  /** options whose value is a file read */
  files?: string[];
  /** options whose value is a file-name glob that selects what a recursive search reads */
  globs?: string[];
  /** the first operand is a pattern or program, unless an option in `supplies` gave one */
  pattern?: boolean;
  supplies?: string[];
  /** the last operand is the destination (unless -t / --target-directory names it) */
  dest?: boolean;
}

const GREP: Spec = {
  skip: ["-e", "--regexp", "-m", "--max-count", "-A", "-B", "-C", "--context", "-t", "--type", "-T", "--type-not", "-j", "--threads", "-M", "--max-columns", "-d", "-D", "--color", "--colour", "--label", "--exclude", "--exclude-dir"],
  files: ["-f", "--file"],
  globs: ["--include", "-g", "--glob", "--iglob"],
  pattern: true,
  supplies: ["-e", "--regexp", "-f", "--file"],
};
const PLAIN: Spec = {};
const COPY_SKIP = ["-t", "--target-directory", "-S", "--suffix"];

const READERS: Record<string, Spec> = {
  grep: GREP, egrep: GREP, fgrep: GREP, rg: GREP, ag: GREP, ack: GREP, zgrep: GREP,
  sed: { skip: ["-e", "--expression", "-l", "--line-length"], files: ["-f", "--file"], pattern: true, supplies: ["-e", "--expression", "-f", "--file"] },
  awk: { skip: ["-F", "-v", "--assign", "--field-separator"], files: ["-f", "--file"], pattern: true, supplies: ["-f", "--file"] },
  jq: { skip: ["--arg", "--argjson", "--indent"], pattern: true, supplies: ["-f", "--from-file"] },
  yq: { pattern: true },
  cp: { skip: COPY_SKIP, dest: true },
  // ln -s .env x: the link reads the secret under another name
  ln: { skip: COPY_SKIP, dest: true },
  mv: { skip: COPY_SKIP, dest: true },
  install: { skip: [...COPY_SKIP, "-m", "--mode", "-o", "--owner", "-g", "--group"], dest: true },
  // scp -i names the key it logs in with: a use of the key, not a read of it into the session
  scp: { skip: ["-i", "-F", "-P", "-l", "-c", "-J", "-o", "-S", "-D", "-X"], dest: true },
  rsync: { skip: [...COPY_SKIP, "-e", "--rsh", "--exclude", "--include", "--filter", "-f", "--chown", "--chmod", "--exclude-from", "--files-from", "-T", "--temp-dir"], dest: true },
};
for (const n of ["gawk", "mawk", "nawk"]) READERS[n] = READERS.awk!;
for (const n of [
  "cat", "tac", "less", "more", "most", "head", "tail", "nl", "bat", "batcat", "view", "cut", "sort", "uniq", "diff", "cmp", "comm", "paste",
  "join", "strings", "xxd", "od", "hexdump", "hd", "base64", "base32", "basenc", "tar", "zip", "7z", "gzip", "bzip2", "xz", "zstd", "lz4",
  "zcat", "openssl", "gpg", "iconv", "fold", "fmt", "column", "split", "csplit", "pr", "expand", "look",
]) READERS[n] ??= PLAIN;

interface Reads {
  paths: string[];
  globs: string[];
}

/** Words after the command name that name files it reads. */
function readOperands(name: string, args: string[], spec: Spec): Reads {
  const out: Reads = { paths: [], globs: [] };
  const operands: string[] = [];
  let supplied = false;
  let target = false;
  let end = false;
  const has = (list: string[] | undefined, o: string | undefined): boolean => o !== undefined && !!list?.includes(o);
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (end || !a.startsWith("-") || a === "-") {
      operands.push(a);
      continue;
    }
    if (a === "--") {
      end = true;
      continue;
    }
    const long = a.startsWith("--");
    const eq = a.indexOf("=");
    const opt = long && eq > 0 ? a.slice(0, eq) : a;
    // a short cluster ending in a valued letter (grep -rne PATTERN, sed -nf FILE) takes the next word
    const last = !long && a.length > 2 && name !== "awk" ? `-${a.at(-1)}` : undefined;
    if (opt === "-t" || opt === "--target-directory" || last === "-t") target = true;
    if (has(spec.supplies, opt) || has(spec.supplies, last)) supplied = true;
    const value = long && eq > 0 ? a.slice(eq + 1) : has(spec.files, opt) || has(spec.skip, opt) || has(spec.globs, opt) || has(spec.files, last) || has(spec.skip, last) ? args[++i] : undefined;
    if (value === undefined) continue;
    if (has(spec.globs, opt)) out.globs.push(value);
    else if (!has(spec.skip, opt) && !has(spec.skip, last)) out.paths.push(value);
  }
  let ops = operands;
  if (spec.pattern && !supplied) ops = ops.slice(1);
  if (spec.dest && !target && ops.length > 1) ops = ops.slice(0, -1);
  // scp / rsync: host:path is a remote file, not read here
  if (name === "scp" || name === "rsync") ops = ops.filter((o) => !/^[^/]*[^/\\]:/.test(o));
  out.paths.push(...ops);
  return out;
}

/** %-decoding that never throws (a malformed escape stays as written). */
function decodeLoose(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** curl / wget: the files their options upload (@file, name=@file, -T file, file:// URLs). */
function uploads(name: string, args: string[]): string[] {
  const out: string[] = [];
  const DATA = ["-d", "--data", "--data-binary", "--data-ascii", "--data-urlencode", "--json"];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const next = args[i + 1] ?? "";
    if (name === "wget") {
      const m = /^--(post-file|body-file)=(.*)$/.exec(a);
      if (m) out.push(m[2]!);
      else if (a === "--post-file" || a === "--body-file") out.push(next);
      continue;
    }
    // -d @file, --data-urlencode name@file, -d@file
    const data = DATA.includes(a) ? next : /^-d@/.test(a) ? a.slice(2) : undefined;
    if (data !== undefined) {
      const m = /^[A-Za-z0-9_.-]*@(.+)$/.exec(data);
      if (m) out.push(m[1]!);
    } else if (a === "-F" || a === "--form") {
      const m = /=[@<]([^;]*)/.exec(next);
      if (m) out.push(m[1]!);
    } else if (a === "-T" || a === "--upload-file" || a === "-K" || a === "--config") out.push(next);
    else if (a.startsWith("file://")) out.push(decodeLoose(a.slice(7)));
  }
  return out.filter((f) => f !== "" && f !== "-");
}

/** find … -name .env -exec cat {} ;  /  find ~/.ssh -exec cat {} + */
function findReads(args: string[], ctx: PathCtx): string | undefined {
  const execAt = args.findIndex((a) => a === "-exec" || a === "-execdir" || a === "-ok" || a === "-okdir");
  if (execAt < 0) return undefined;
  const runs = args[execAt + 1] ?? "";
  if (!READERS[runs.slice(runs.lastIndexOf("/") + 1)]) return undefined;
  for (let i = 0; i < execAt; i++) {
    const a = args[i]!;
    if ((a === "-name" || a === "-iname") && args[i + 1]) {
      const hit = secretNameGlob(args[i + 1]!);
      if (hit) return hit;
    }
  }
  // the roots come before the first test
  for (const a of args) {
    if (a.startsWith("-") || a === "(" || a === "!") break;
    const hit = secretPath(a, ctx);
    if (hit) return hit;
  }
  return undefined;
}

/** git subcommands that print file contents: their path operands (and `rev:path`) are reads. */
const GIT_READERS = new Set(["show", "diff", "log", "blame", "annotate", "cat-file", "grep", "archive", "format-patch", "difftool", "whatchanged", "shortlog", "diff-tree", "diff-index", "diff-files", "range-diff", "bundle", "fast-export", "hash-object"]);

/** git show :.env, git show HEAD:.env, git diff --no-index /dev/null .env, git log -p -- .env */
function gitReads(args: string[]): string[] {
  let i = 0;
  for (; i < args.length; i++) {
    const v = args[i]!;
    if (["-C", "-c", "--git-dir", "--work-tree", "--namespace", "--exec-path", "--config-env"].includes(v)) i++;
    else if (!v.startsWith("-")) break;
  }
  if (!GIT_READERS.has(args[i] ?? "")) return [];
  const out: string[] = [];
  for (const a of args.slice(i + 1)) {
    if (a === "--" || a === "-") continue;
    // --no-index paths, rev:path (:.env is the staged .env), --output=... is a write
    if (a.startsWith("-")) {
      const eq = a.indexOf("=");
      if (eq > 0 && /^--(contents|blob|path|textconv|filters|follow)/.test(a)) out.push(a.slice(eq + 1));
      continue;
    }
    const colon = a.indexOf(":");
    out.push(colon >= 0 ? a.slice(colon + 1).replace(/^\d:/, "") : a);
  }
  return out;
}

const SPECIAL = new Set(["source", ".", "curl", "wget", "dd", "find", "git"]);
const found = (what: string): Finding => ({ kind: "guard", category: "secret-read", reason: `reads a secret file: ${what}` });

/** Does this peeled command read a secret file? */
export function secretRead(words: Resolved[], ctx: PathCtx): Finding | undefined {
  const name = words[0]?.value ?? "";
  if (!READERS[name] && !SPECIAL.has(name)) return undefined; // most commands: no work at all
  // cp .env{,.bak} is cp .env .env.bak
  const args = words.slice(1).flatMap((w) => expandBraces(w.value));
  let reads: Reads;
  if (name === "source" || name === ".") reads = { paths: args.slice(0, 1), globs: [] };
  else if (name === "curl" || name === "wget") reads = { paths: uploads(name, args), globs: [] };
  else if (name === "git") reads = { paths: gitReads(args), globs: [] };
  else if (name === "dd") reads = { paths: args.filter((a) => a.startsWith("if=")).map((a) => a.slice(3)), globs: [] };
  else if (name === "find") {
    const hit = findReads(args, ctx);
    return hit ? found(hit) : undefined;
  } else {
    const spec = READERS[name];
    if (!spec) return undefined;
    reads = readOperands(name, args, spec);
  }
  for (const p of reads.paths) {
    const hit = secretPath(p, ctx);
    if (hit) return found(hit);
  }
  // grep -r KEY ~, tar czf x.tgz ~, rg TOKEN /: a whole tree that holds the secrets
  if (recursive(name, args)) {
    for (const p of reads.paths) {
      const abs = absPath(p, ctx);
      if (isAncestor(abs, ctx.home, true) || isAncestor(abs, "/proc/self", true)) return found(`${display(abs, ctx)}, every file below it (the home directory's secrets or the processes' environments)`);
    }
  }
  for (const g of reads.globs) {
    const hit = secretNameGlob(g);
    if (hit) return found(hit);
  }
  return undefined;
}

/** Does this reader walk directories? */
function recursive(name: string, args: string[]): boolean {
  const flag = (short: string, long: string[]): boolean => args.some((a) => long.includes(a.split("=")[0]!) || (/^-[a-zA-Z]+$/.test(a) && [...short].some((c) => a.includes(c))));
  switch (name) {
    case "rg": case "ag": case "ack": case "tar": case "7z": case "zip":
      return name !== "zip" || flag("r", ["--recurse-paths"]);
    case "grep": case "egrep": case "fgrep": case "zgrep":
      return flag("rR", ["--recursive", "--dereference-recursive"]) || args.some((a) => a === "-d" || a.startsWith("--directories=recurse"));
    case "cp": case "scp":
      return flag(name === "cp" ? "rRa" : "r", ["--recursive", "--archive"]);
    case "rsync":
      return flag("ra", ["--recursive", "--archive"]);
    default:
      return false;
  }
}

/** An input redirection (`< .env`, `$(< .env)`) of a secret file. */
export function secretInput(target: Resolved, ctx: PathCtx): Finding | undefined {
  if (!target.known) return undefined;
  const hit = secretPath(target.value, ctx);
  return hit ? { kind: "guard", category: "secret-read", reason: `reads a secret file: ${hit} (input redirection)` } : undefined;
}

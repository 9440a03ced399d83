/**
 * The guard's test corpora and the wrappers every floor shape is checked under. Shared by
 * extensions/permissions/test/floor-corpus.test.ts, test/security/guard-corpus.test.ts and guard-bench.ts,
 * so the tests and the measured figures see exactly the same commands.
 */
import fs from "node:fs";
import type { GuardCategory } from "../../extensions/shell-guard/api.js";

/** One command per line; blank lines and `#` comments skipped. */
export function readLines(file: string): string[] {
  return fs
    .readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "" && !l.startsWith("#"));
}

export interface AskLine {
  command: string;
  /** one of its guard segments must carry one of these categories */
  categories: GuardCategory[];
}

export interface GuardCorpus {
  /** every one must classify as guard (ask), never safe or plain */
  ask: AskLine[];
  /** near-misses: must not ask */
  noAsk: string[];
}

const CATEGORIES: readonly GuardCategory[] = ["delete", "secret-read", "persistence", "history", "inline-code", "opaque"];

/** guard-corpus.txt: lines under `[ask: <categories>]` must ask, lines under `[no-ask]` must not. */
export function readGuardCorpus(file: string): GuardCorpus {
  const out: GuardCorpus = { ask: [], noAsk: [] };
  let section: GuardCategory[] | "no-ask" | undefined;
  for (const line of readLines(file)) {
    const header = /^\[(ask:([^\]]*)|no-ask)\]$/.exec(line.trim());
    if (header) {
      const cats = (header[2] ?? "").trim().split(/\s+/).filter(Boolean);
      const bad = cats.find((c) => !CATEGORIES.includes(c as GuardCategory));
      if (bad) throw new Error(`${file}: unknown guard category '${bad}' in ${line}`);
      section = header[1] === "no-ask" ? "no-ask" : (cats as GuardCategory[]);
    } else if (!section) throw new Error(`${file}: a command before the first [ask: …] / [no-ask] section: ${line}`);
    else if (section === "no-ask") out.noAsk.push(line);
    else out.ask.push({ command: line, categories: section });
  }
  return out;
}

const squote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;
const dquote = (s: string): string => `"${s.replace(/[\\"$`]/g, (c) => `\\${c}`)}"`;

/** Prefix wrappers: they take the command that follows as their argv. */
export const PREFIX_WRAPPERS = ["sudo", "env X=1", "nice", "nohup", "timeout 5", "time", "command", "exec", "xargs", "stdbuf -o0", "ionice -c3"];

/**
 * Does the line start with a simple command a prefix wrapper (or a pipe) can take? A function
 * definition (`:(){ …};:`) or a leading assignment (`X=/; rm -rf $X`) cannot be prefixed: `sudo X=/`
 * runs nothing, and in real bash the `rm -rf $X` after it would see an unset X.
 */
function prefixable(line: string): boolean {
  if (/^\s*[A-Za-z_][A-Za-z0-9_]*=\S*\s*;/.test(line)) return false;
  if (/^\s*[^\s(){};|&]+\s*\(\s*\)/.test(line)) return false;
  if (/^\s*[({]/.test(line)) return false;
  // `sudo cd /` or `echo x | cd /` does not move the shell's directory
  if (/^\s*cd\s/.test(line)) return false;
  return true;
}

export interface Variant {
  wrapper: string;
  command: string;
}

/** Every meaningful wrapping of one command line. */
export function wrapVariants(line: string): Variant[] {
  const out: Variant[] = [];
  if (prefixable(line)) {
    for (const w of PREFIX_WRAPPERS) out.push({ wrapper: w, command: `${w} ${line}` });
    out.push({ wrapper: "pipeline tail", command: `echo x | ${line}` });
  }
  out.push({ wrapper: "bash -c '…'", command: `bash -c ${squote(line)}` });
  out.push({ wrapper: 'sh -c "…"', command: `sh -c ${dquote(line)}` });
  out.push({ wrapper: "eval '…'", command: `eval ${squote(line)}` });
  out.push({ wrapper: "( … )", command: `( ${line} )` });
  out.push({ wrapper: "$( … )", command: `echo "$( ${line} )"` });
  out.push({ wrapper: "true && …", command: `true && ${line}` });
  return out;
}

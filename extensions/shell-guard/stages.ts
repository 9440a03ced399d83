/**
 * What a pipeline stage feeds the next one: downloaded bytes (curl, wget), decoded bytes (base64 -d,
 * xxd -r, gunzip), a literal the guard can read (echo '…', printf '…'), a passthrough of its own
 * stdin (cat, tee), or anything else. `… | sh` is the floor after a downloader or decoder; after a
 * literal the literal is checked as the script.
 */
import type { Resolved } from "./words.js";
import { interpreterLang } from "./inline.js";

export const SHELLS = new Set(["sh", "bash", "zsh", "dash", "ksh", "ash", "mksh", "fish", "csh", "tcsh", "yash"]);
const INTERPRETERS = new Set([...SHELLS, "python", "python2", "python3", "perl", "ruby", "node", "php", "lua", "Rscript"]);

/** A shell or language interpreter: it runs what it reads on stdin when given no script file. */
export const isInterpreter = (name: string): boolean => INTERPRETERS.has(name) || interpreterLang(name) !== undefined;

export const DOWNLOADER_RE = /(^|[^\w-])(curl|wget|fetch|aria2c|nc|ncat|socat|httpie|http|https|lwp-request|GET|ftp|tftp|scp|rsync)(?![\w-])/;

export interface StageInfo {
  name: string;
  /** a shell/interpreter that reads its script from stdin */
  readsStdin: boolean;
  producer: "downloader" | "decoder" | "literal" | "passthrough" | "other";
  literal?: string;
}

/** The producer kind of one peeled command (`text` is its source, for `echo "$(curl …)"`). */
export function producerOf(name: string, words: Resolved[], text: string, herestring: boolean): Pick<StageInfo, "producer" | "literal"> {
  const has = (f: (v: string) => boolean): boolean => words.some((w) => f(w.value));
  if (name === "curl" || name === "wget" || DOWNLOADER_RE.test(` ${name} `)) return { producer: "downloader" };
  if (
    (name === "base64" && has((v) => ["-d", "-D", "--decode"].includes(v))) ||
    (name === "openssl" && has((v) => v === "-d" || v === "-base64" || v === "base64")) ||
    (name === "xxd" && has((v) => v.startsWith("-r"))) ||
    ["uudecode", "gunzip", "zcat", "bzcat", "xzcat", "rev", "base32", "basenc"].includes(name) ||
    (name === "gzip" && has((v) => v === "-d")) ||
    (name === "tr" && words.length > 2)
  ) return { producer: "decoder" };
  const args = words.slice(1);
  if ((name === "echo" || name === "printf") && args.every((w) => w.known) && !herestring) {
    return { producer: "literal", literal: args.filter((w) => !(name === "echo" && /^-[neE]+$/.test(w.value))).map((w) => w.value).join(" ") };
  }
  if ((name === "echo" || name === "printf") && DOWNLOADER_RE.test(text)) return { producer: "downloader" };
  // cat / tee with no file to read pass their stdin on
  if ((name === "cat" && args.every((w) => w.known && (w.value === "-" || w.value.startsWith("-")))) || name === "tee") return { producer: "passthrough" };
  return { producer: "other" };
}

/** The literal that reaches the last stage: the nearest literal producer, through passthroughs only. */
export function pipedLiteral(producers: StageInfo[]): string | undefined {
  for (let i = producers.length - 1; i >= 0; i--) {
    const p = producers[i]!;
    if (p.producer === "literal") return p.literal;
    if (p.producer !== "passthrough") return undefined;
  }
  return undefined;
}

/**
 * What a destructive command's target can become once the shell expands it: a glob (`/*\/`, `/u*`,
 * `~/.*`), a brace list (`/{etc,usr}`), `~`, `$HOME` or a relative path after a `cd`. The answer is
 * the worst place it can name: `/`, a top-level system folder, the home directory (or an ancestor),
 * the project root (or an ancestor), something unknowable, or an ordinary path. Pure string work.
 */
import path from "node:path";
import type { Resolved } from "./words.js";
import { expandBraces, globToRegExp } from "./paths.js";

export interface TargetCtx {
  cwd: string;
  home: string;
  project: string;
  /** false after `cd $UNKNOWN`: a relative target cannot be resolved */
  cwdKnown?: boolean;
}

export type Place =
  | { kind: "root" }
  | { kind: "system"; what: string }
  | { kind: "home"; what: string }
  | { kind: "project"; what: string }
  | { kind: "unknown" }
  | { kind: "ok" };

/** Top-level folders of a Linux or macOS system: deleting, moving or extracting over them breaks it. */
export const SYSTEM_TOP = new Set([
  "bin", "boot", "dev", "etc", "home", "lib", "lib32", "lib64", "libx32", "media", "mnt", "opt", "proc", "root", "run", "sbin", "snap",
  "srv", "sys", "usr", "var", "nix", "System", "Library", "Applications", "Users", "Volumes", "private", "cores",
]);

const RANK: Record<Place["kind"], number> = { root: 5, system: 4, home: 3, project: 2, unknown: 1, ok: 0 };
export const worse = (a: Place, b: Place): Place => (RANK[b.kind] > RANK[a.kind] ? b : a);

const GLOB = /[*?[]/;

/** A component that matches (nearly) every name: `*`, `.*`, `.??*`, `[!.]*`, `**`. */
function catchAll(component: string): boolean {
  const c = component.replace(/\[[^\]]*\]/g, "?");
  return c.includes("*") && /^[*?.]+$/.test(c);
}

function ancestorOrSelf(p: string, of: string): boolean {
  const rel = path.relative(p, of);
  return rel === "" || (!rel.startsWith("..") && !path.isAbsolute(rel));
}

/** One glob-free absolute path. */
function placeOf(abs: string, ctx: TargetCtx): Place {
  if (abs === "/") return { kind: "root" };
  if (abs === ctx.home) return { kind: "home", what: `the home directory (${ctx.home})` };
  const parts = abs.split("/").filter(Boolean);
  if (parts.length === 1 && SYSTEM_TOP.has(parts[0]!)) return { kind: "system", what: `the system folder ${abs}` };
  if (ancestorOrSelf(abs, ctx.home)) return { kind: "home", what: `${abs}, which holds the home directory (${ctx.home})` };
  if (ancestorOrSelf(abs, ctx.project)) return { kind: "project", what: `the project root (${ctx.project})${abs === ctx.project ? "" : ` or its ancestor ${abs}`}` };
  return { kind: "ok" };
}

/** The places a glob path can match, among those that matter. */
function globPlaces(abs: string, ctx: TargetCtx): Place {
  const re = globToRegExp(abs);
  const ancestors = (p: string): string[] => {
    const out: string[] = [];
    for (let cur = p; cur !== "/"; cur = path.dirname(cur)) out.push(cur);
    return out;
  };
  const candidates = ["/", ...[...SYSTEM_TOP].map((s) => `/${s}`), ...ancestors(ctx.home), ...ancestors(ctx.project)];
  let worst: Place = { kind: "ok" };
  for (const c of candidates) if (re.test(c)) worst = worse(worst, placeOf(c, ctx));
  return worst;
}

export interface TargetOpts {
  /** a trailing catch-all (`dir/*`) counts as `dir` itself: true for deletes, moves and truncation */
  contents?: boolean;
}

/** The worst place a target word can name, with whether a catch-all glob took a directory's contents. */
export function targetPlace(t: Resolved, ctx: TargetCtx, opts: TargetOpts = { contents: true }): Place & { wholeDir?: boolean } {
  if (!t.known) return { kind: "unknown" };
  const v = t.value.trim();
  if (v === "") return { kind: "unknown" };
  let worst: Place & { wholeDir?: boolean } = { kind: "ok" };
  for (const w of expandBraces(v)) {
    if (!w.startsWith("/") && ctx.cwdKnown === false) return { kind: "unknown" };
    const parts = path.resolve(ctx.cwd, w).split("/").filter(Boolean);
    let wholeDir = false;
    while (opts.contents && parts.length && catchAll(parts.at(-1)!)) {
      parts.pop();
      wholeDir = true;
    }
    const abs = `/${parts.join("/")}`;
    const p = GLOB.test(abs) ? globPlaces(abs, ctx) : placeOf(abs, ctx);
    if (RANK[p.kind] > RANK[worst.kind] || (wholeDir && p.kind === worst.kind)) worst = { ...p, wholeDir };
  }
  return worst;
}

/** How a place reads in a reason. */
export function placeText(p: Place, word: string): string {
  switch (p.kind) {
    case "root":
      return word.replace(/\/+$/, "") === "" ? "/" : `/ ('${word}')`;
    case "system":
    case "home":
    case "project":
      return p.what.includes(word) || p.what.includes(word.replace(/\/+$/, "")) ? p.what : `${p.what} ('${word}')`;
    case "unknown":
      return `'${word}', which cannot be resolved before it runs`;
    default:
      return word;
  }
}

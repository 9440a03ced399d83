/**
 * Walk a directory tree for grep/glob: skips .git and node_modules and (optionally) honours .gitignore files
 * roughly — blank lines and comments, `!` negation, trailing `/` for directories, anchored patterns with a
 * slash, bare names matching at any depth. Symlinked directories are not followed; a symlinked file is
 * visited only when its real path is inside the walk root.
 */
import fs from "node:fs";
import path from "node:path";
import { globToRegExp } from "./glob-match.js";

interface IgnoreRule {
  /** directory of the .gitignore, relative to the walk root ("" = root) */
  base: string;
  re: RegExp;
  negate: boolean;
  dirOnly: boolean;
  anchored: boolean;
}

export function parseGitignore(text: string, base: string): IgnoreRule[] {
  const rules: IgnoreRule[] = [];
  for (let line of text.split(/\r?\n/)) {
    if (line.trim() === "" || line.startsWith("#")) continue;
    line = line.replace(/(?<!\\)\s+$/, "");
    const negate = line.startsWith("!");
    if (negate) line = line.slice(1);
    const dirOnly = line.endsWith("/");
    if (dirOnly) line = line.slice(0, -1);
    const anchored = line.includes("/");
    if (line.startsWith("/")) line = line.slice(1);
    if (line === "") continue;
    rules.push({ base, re: globToRegExp(line), negate, dirOnly, anchored });
  }
  return rules;
}

function ignored(rules: readonly IgnoreRule[], rel: string, isDir: boolean): boolean {
  let out = false;
  for (const r of rules) {
    if (r.dirOnly && !isDir) continue;
    const local = r.base === "" ? rel : rel.startsWith(`${r.base}/`) ? rel.slice(r.base.length + 1) : undefined;
    if (local === undefined) continue;
    const subject = r.anchored ? local : local.slice(local.lastIndexOf("/") + 1);
    if (r.re.test(subject)) out = !r.negate;
  }
  return out;
}

export interface WalkOptions {
  gitignore: boolean;
  /** directory names never entered */
  skipDirs: ReadonlySet<string>;
  /** stop after this many files (a guard against enormous trees) */
  maxFiles: number;
}

export const DEFAULT_SKIP = new Set([".git", "node_modules"]);

/** Visit every file under root (relative "/"-separated paths). Returns false from visit to stop early. */
export function walkFiles(root: string, opts: WalkOptions, visit: (abs: string, rel: string) => boolean | void): { files: number; capped: boolean } {
  let files = 0;
  let realRoot: string | undefined;
  const stack: Array<{ dir: string; rel: string; rules: IgnoreRule[] }> = [{ dir: root, rel: "", rules: [] }];
  while (stack.length > 0) {
    const { dir, rel, rules: inherited } = stack.pop()!;
    let rules = inherited;
    if (opts.gitignore) {
      try {
        rules = [...inherited, ...parseGitignore(fs.readFileSync(path.join(dir, ".gitignore"), "utf8"), rel)];
      } catch {
        // no .gitignore here
      }
    }
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      continue; // unreadable directory: skip it
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const dirs: typeof stack = [];
    for (const e of entries) {
      const childRel = rel === "" ? e.name : `${rel}/${e.name}`;
      const abs = path.join(dir, e.name);
      if (e.isDirectory()) {
        if (opts.skipDirs.has(e.name) || ignored(rules, childRel, true)) continue;
        dirs.push({ dir: abs, rel: childRel, rules });
      } else if (e.isFile() || e.isSymbolicLink()) {
        if (ignored(rules, childRel, false)) continue;
        if (e.isSymbolicLink()) {
          try {
            if (!fs.statSync(abs).isFile()) continue;
            // a link out of the tree (a checkout's `notes -> ~/.ssh/id_rsa`) is not part of what was asked for
            realRoot ??= fs.realpathSync.native(root);
            const rel = path.relative(realRoot, fs.realpathSync.native(abs));
            if (rel.startsWith("..") || path.isAbsolute(rel)) continue;
          } catch {
            continue;
          }
        }
        files++;
        if (visit(abs, childRel) === false) return { files, capped: false };
        if (files >= opts.maxFiles) return { files, capped: true };
      }
    }
    // files of this directory are visited first; subdirectories follow in name order (smallest popped first)
    for (let i = dirs.length - 1; i >= 0; i--) stack.push(dirs[i]!);
  }
  return { files, capped: false };
}

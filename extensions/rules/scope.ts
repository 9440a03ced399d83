/**
 * Does the working tree hold a file a scoped rule's glob matches? One bounded walk answers every glob
 * at once and stops as soon as each has a match. The walk prunes `.git` and `node_modules` and honours
 * the .gitignore files it passes (blank lines, comments, `!` negation, trailing `/`, anchored patterns),
 * so an ignored build output never brings a rule in. A glob without `/` matches a file name at any depth
 * (`*.py`); one with `/` is anchored at the worktree root (`src/**\/*.ts`). Symlinked directories are not
 * followed. A walk that reaches MAX_SCOPE_FILES without an answer counts as a match (a rule is loaded
 * rather than silently lost in a huge tree).
 */
import fs from "node:fs";
import path from "node:path";
import { MAX_SCOPE_FILES } from "./api.js";

/** A glob (`*`, `**`, `?`, `[...]`, `{a,b}`) as an anchored RegExp over "/"-separated paths. */
export function globToRegExp(glob: string): RegExp {
  let re = "";
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === "*") {
      if (glob[i + 1] === "*") {
        const slash = glob[i + 2] === "/";
        re += slash ? "(?:.*/)?" : ".*";
        i += slash ? 2 : 1;
      } else re += "[^/]*";
    } else if (c === "?") re += "[^/]";
    else if (c === "[") {
      const end = glob.indexOf("]", i + 1);
      if (end < 0) re += "\\[";
      else {
        re += `[${glob.slice(i + 1, end).replace(/^!/, "^").replace(/\\/g, "\\\\")}]`;
        i = end;
      }
    } else if (c === "{") {
      const end = glob.indexOf("}", i + 1);
      if (end < 0) re += "\\{";
      else {
        re += `(?:${glob.slice(i + 1, end).split(",").map((p) => globToRegExp(p).source.slice(1, -1)).join("|")})`;
        i = end;
      }
    } else re += /[.+^$()|\\/]/.test(c) ? `\\${c}` : c;
  }
  return new RegExp(`^${re}$`);
}

/** A matcher for one scope glob: basename at any depth when it has no `/`, else anchored at the root. */
export function scopeMatcher(glob: string): (rel: string) => boolean {
  const g = glob.replace(/^\.\//, "").replace(/^\//, "");
  const re = globToRegExp(g);
  if (g.includes("/")) return (rel) => re.test(rel);
  return (rel) => re.test(rel.slice(rel.lastIndexOf("/") + 1));
}

interface IgnoreRule {
  base: string;
  re: RegExp;
  negate: boolean;
  dirOnly: boolean;
  anchored: boolean;
}

function parseGitignore(text: string, base: string): IgnoreRule[] {
  const rules: IgnoreRule[] = [];
  for (let line of text.split(/\r?\n/)) {
    if (line.trim() === "" || line.startsWith("#")) continue;
    line = line.trimEnd();
    const negate = line.startsWith("!");
    if (negate) line = line.slice(1);
    const dirOnly = line.endsWith("/");
    if (dirOnly) line = line.slice(0, -1);
    const anchored = line.includes("/");
    line = line.replace(/^\//, "");
    if (line) rules.push({ base, re: globToRegExp(line), negate, dirOnly, anchored });
  }
  return rules;
}

function ignored(rules: readonly IgnoreRule[], rel: string, isDir: boolean): boolean {
  let out = false;
  for (const r of rules) {
    if (r.dirOnly && !isDir) continue;
    const local = r.base === "" ? rel : rel.startsWith(`${r.base}/`) ? rel.slice(r.base.length + 1) : undefined;
    if (local === undefined) continue;
    if (r.re.test(r.anchored ? local : local.slice(local.lastIndexOf("/") + 1))) out = !r.negate;
  }
  return out;
}

const PRUNE = new Set([".git", "node_modules"]);

/**
 * Which of `globs` match at least one file under `root`. `cache` (one per session) remembers answers,
 * so each glob is checked once per session.
 */
export function matchScopes(root: string, globs: readonly string[], cache = new Map<string, boolean>(), maxFiles = MAX_SCOPE_FILES): Set<string> {
  const key = (g: string) => `${root}\0${g}`;
  const todo = [...new Set(globs)].filter((g) => !cache.has(key(g)));
  if (todo.length) {
    const pending = new Map(todo.map((g) => [g, scopeMatcher(g)] as const));
    let files = 0;
    const stack: Array<{ dir: string; rel: string; rules: IgnoreRule[] }> = [{ dir: root, rel: "", rules: [] }];
    walk: while (stack.length && pending.size) {
      const { dir, rel, rules: inherited } = stack.pop()!;
      let rules = inherited;
      try {
        rules = [...inherited, ...parseGitignore(fs.readFileSync(path.join(dir, ".gitignore"), "utf8"), rel)];
      } catch {
        // no .gitignore here
      }
      let entries: fs.Dirent[];
      try {
        entries = fs.readdirSync(dir, { withFileTypes: true });
      } catch {
        continue;
      }
      for (const e of entries) {
        const childRel = rel ? `${rel}/${e.name}` : e.name;
        if (e.isDirectory()) {
          if (!PRUNE.has(e.name) && !ignored(rules, childRel, true)) stack.push({ dir: path.join(dir, e.name), rel: childRel, rules });
          continue;
        }
        if (ignored(rules, childRel, false)) continue;
        for (const [g, match] of pending) if (match(childRel)) (cache.set(key(g), true), pending.delete(g));
        if (++files >= maxFiles) break walk;
      }
    }
    // a capped walk loads what it could not rule out; a finished one rules it out
    const capped = files >= maxFiles;
    for (const g of pending.keys()) cache.set(key(g), capped);
  }
  return new Set(globs.filter((g) => cache.get(key(g))));
}

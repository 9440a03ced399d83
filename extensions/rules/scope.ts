/**
 * Does the working tree hold a file a scoped rule's glob matches? One bounded walk answers every glob
 * at once and stops as soon as each has a match. It is the walk grep and glob use (oceancode/api/tools):
 * `.git` and `node_modules` pruned, the .gitignore files it passes honoured, so an ignored build output
 * never brings a rule in; symlinked directories are not followed. A glob without `/` matches a file name
 * at any depth (`*.py`); one with `/` is anchored at the worktree root (`src/**\/*.ts`). A walk that
 * reaches MAX_SCOPE_FILES without an answer counts as a match (a rule is loaded rather than silently
 * lost in a huge tree).
 */
import { DEFAULT_SKIP } from "../tools/api.js";
import { globToRegExp, walkFiles } from "../tools/kit.js";
import { MAX_SCOPE_FILES } from "./api.js";

export { globToRegExp };

/** A matcher for one scope glob: basename at any depth when it has no `/`, else anchored at the root. */
export function scopeMatcher(glob: string): (rel: string) => boolean {
  const g = glob.replace(/^\.\//, "").replace(/^\//, "");
  const re = globToRegExp(g);
  if (g.includes("/")) return (rel) => re.test(rel);
  return (rel) => re.test(rel.slice(rel.lastIndexOf("/") + 1));
}

/**
 * Which of `globs` match at least one file under `root`. `cache` (one per session) remembers answers,
 * so each glob is checked once per session.
 */
export function matchScopes(root: string, globs: readonly string[], cache = new Map<string, boolean>(), maxFiles = MAX_SCOPE_FILES): Set<string> {
  const key = (g: string) => `${root}\0${g}`;
  const todo = [...new Set(globs)].filter((g) => !cache.has(key(g)));
  if (todo.length) {
    const pending = new Map(todo.map((g) => [g, scopeMatcher(g)] as const));
    const { capped } = walkFiles(root, { gitignore: true, skipDirs: DEFAULT_SKIP, maxFiles }, (_abs, rel) => {
      for (const [g, match] of pending) if (match(rel)) (cache.set(key(g), true), pending.delete(g));
      return pending.size > 0;
    });
    // a capped walk loads what it could not rule out; a finished one rules it out
    for (const g of pending.keys()) cache.set(key(g), capped);
  }
  return new Set(globs.filter((g) => cache.get(key(g))));
}

/**
 * `import ... from "oceancode/..."` in extension code that is not part of this package (a user's
 * ~/.oceancode/extensions/<id>/index.js, a plugin) resolves to the RUNNING host's own modules, the way
 * VS Code hands extensions the `vscode` module: one copy of every contract, whatever the extension's
 * folder has in its own node_modules (a devDependency installed only for its types).
 *
 * A Node resolve hook (module.register, Node >= 20.6) maps the `oceancode` and `oceancode/*`
 * specifiers through this package's own "exports" map: it resolves them as if imported from this
 * package's package.json (a package self-reference). It is registered lazily, the first time the kernel
 * imports a non-bundled extension's entry, so a run with bundled extensions only pays nothing.
 */
import fs from "node:fs";
import * as nodeModule from "node:module";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

let registered = false;

/** The package root: this file is <root>/dist/kernel/self-resolve.js (or <root>/kernel/ under ts runners). */
function packageJsonUrl(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const root = path.basename(path.dirname(here)) === "dist" ? path.resolve(here, "..", "..") : path.resolve(here, "..");
  return pathToFileURL(path.join(root, "package.json")).href;
}

/** Make `oceancode` and `oceancode/*` resolve to this package for every module loaded from now on. Idempotent. */
export function provideSelfModule(): void {
  if (registered) return;
  registered = true;
  const parentURL = packageJsonUrl();
  const ours = (specifier: string) => specifier === "oceancode" || specifier.startsWith("oceancode/");
  type SyncNext = (specifier: string, context: Record<string, unknown>) => unknown;
  const registerHooks = (nodeModule as unknown as { registerHooks?: (hooks: { resolve: (s: string, c: Record<string, unknown>, next: SyncNext) => unknown }) => unknown }).registerHooks;
  if (typeof registerHooks === "function") {
    registerHooks({ resolve: (specifier, context, next) => next(specifier, ours(specifier) ? { ...context, parentURL } : context) });
    return;
  }
  nodeModule.register(new URL("./self-resolve-hook.js", import.meta.url), { data: { parentURL } });
}

/** `from "oceancode..."`, `import "oceancode..."`, `import("oceancode...")`, once comments are dropped (JSDoc type imports are comments). */
const SPECIFIER = /(?:\bfrom|\bimport)\s*\(?\s*(["'])oceancode(?:\/[^"'\s]*)?\1/;
const COMMENTS = /\/\*[\s\S]*?\*\/|(^|[^:"'`\\])\/\/[^\n]*/g;
const CODE = /\.(?:m?js|cjs)$/;
const scanned = new Map<string, boolean>();

/**
 * Does the extension's code (its folder's .js/.mjs/.cjs files, node_modules excluded, at most 500)
 * import `oceancode` or `oceancode/...`? Such an extension needs the hook; one that does not (the hello
 * example, whose only mentions are JSDoc types) loads without it. Cached per folder.
 */
export function usesSelfModule(dir: string): boolean {
  const known = scanned.get(dir);
  if (known !== undefined) return known;
  let found = false;
  let budget = 500;
  const walk = (d: string): void => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(d, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      if (found || budget <= 0) return;
      if (e.isDirectory()) {
        if (e.name !== "node_modules" && !e.name.startsWith(".")) walk(path.join(d, e.name));
      } else if (CODE.test(e.name)) {
        budget--;
        try {
          if (SPECIFIER.test(fs.readFileSync(path.join(d, e.name), "utf8").replace(COMMENTS, "$1"))) found = true;
        } catch {
          /* unreadable: its import will say so */
        }
      }
    }
  };
  walk(dir);
  // past the budget without an answer: assume it does (correctness over a few ms)
  found ||= budget <= 0;
  scanned.set(dir, found);
  return found;
}

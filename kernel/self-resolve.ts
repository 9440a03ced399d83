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

/** Whether the hook is in place (introspection and tests). */
export function selfModuleProvided(): boolean {
  return registered;
}

/**
 * Loads web-tree-sitter and the tree-sitter-bash grammar once per process, on the first command to
 * classify: every session activates the shell guard, and a session that runs no shell command never
 * reads, compiles or evaluates web-tree-sitter.
 */
import path from "node:path";
import { createRequire } from "node:module";
import type { Parser } from "web-tree-sitter";

let ready: Promise<Parser> | undefined;

function grammarPath(): string {
  const req = createRequire(import.meta.url);
  return path.join(path.dirname(req.resolve("tree-sitter-bash/package.json")), "tree-sitter-bash.wasm");
}

export function bashParser(): Promise<Parser> {
  ready ??= (async () => {
    const { Parser, Language } = await import("web-tree-sitter");
    await Parser.init();
    const lang = await Language.load(grammarPath());
    const p = new Parser();
    p.setLanguage(lang);
    return p;
  })();
  return ready;
}

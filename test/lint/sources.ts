/**
 * The lints' one walk over the sources (test/lint/imports.ts, contracts.ts, reach.ts): which files are code
 * a lint reads, and which are tests and benches that drive internals on purpose and ship in no runtime.
 */
import fs from "node:fs";
import path from "node:path";

export const SOURCE = /\.(ts|tsx|mts)$/;

/** Tests and benchmarks drive internals on purpose and ship in no extension's runtime: not checked. */
export const isTestFile = (rel: string): boolean =>
  /\.test\.(ts|tsx)$/.test(rel) || /(^|\/)(test|tests|__tests__|fixtures|bench)\//.test(rel) || rel.endsWith(".d.ts");

/** Every source file below `dir` (absolute paths), skipping node_modules and dot folders. */
export function walk(dir: string, out: string[] = []): string[] {
  if (!fs.existsSync(dir)) return out;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    if (e.name === "node_modules" || e.name.startsWith(".")) continue;
    const p = path.join(dir, e.name);
    if (e.isDirectory()) walk(p, out);
    else if (SOURCE.test(e.name)) out.push(p);
  }
  return out;
}

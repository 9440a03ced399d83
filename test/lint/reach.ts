/**
 * The reach lint (issue 35 item 5, "first-party reach = third-party reach"), run in CI as a vitest test
 * (test/lint/reach.test.ts). Whatever first-party code in extensions/ and hosts/ takes from the kernel
 * must come through the published entry `oceancode/kernel` (kernel/api.ts), so a third-party extension
 * or host can be written exactly the same way. It reads the sources with the TypeScript parser, runs no
 * code, and refuses an import (static, `export ... from`, `import("...")` or `import type`) of any other
 * kernel/ module, by relative path or as `oceancode/kernel/<module>`.
 *
 * Two exceptions, for hosts only:
 *   - the bootstrap: hosts/boot.ts constructs the kernel (`Kernel.discover` over `resolvePaths`). Booting
 *     is what a host is, not something an extension may do, so the Kernel class and path resolution are
 *     no part of the extension API; every other host takes the `Kernel` type from hosts/boot.ts.
 *   - the start path: a host may import a kernel module directly for names kernel/api.ts re-exports from
 *     that very module (`visible` from kernel/safe-output.ts): what it takes is still in oceancode/kernel,
 *     but `oceancode --help` does not evaluate every module the API re-exports (~100 KB more of chunks).
 *     Extensions load after the kernel has booted and always go through kernel/api.
 * Tests and benchmarks drive internals on purpose and are not checked.
 */
import fs from "node:fs";
import path from "node:path";
import ts from "typescript";

export interface ReachProblem {
  /** relative to the checked root, with / separators */
  file: string;
  line: number;
  message: string;
}

/** host file -> kernel modules it may import besides kernel/api.ts (the bootstrap) */
export const BOOTSTRAP: Readonly<Record<string, readonly string[]>> = {
  "hosts/boot.ts": ["kernel/kernel.ts", "kernel/paths.ts"],
};

const SOURCE = /\.(ts|tsx|mts)$/;
const isTestFile = (rel: string) => /\.test\.(ts|tsx)$/.test(rel) || /(^|\/)(test|tests|__tests__|fixtures|bench)\//.test(rel) || rel.endsWith(".d.ts");

function walk(dir: string, out: string[] = []): string[] {
  if (!fs.existsSync(dir)) return out;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    if (e.name === "node_modules" || e.name.startsWith(".")) continue;
    const p = path.join(dir, e.name);
    if (e.isDirectory()) walk(p, out);
    else if (SOURCE.test(e.name)) out.push(p);
  }
  return out;
}

interface ImportSite {
  spec: string;
  line: number;
  /** the names taken (original names); undefined: the whole module (namespace, default, side effect, import()) */
  names?: string[];
}

/** The names an import or re-export declaration takes from its module, or undefined for the whole module. */
function namesOf(node: ts.ImportDeclaration | ts.ExportDeclaration): string[] | undefined {
  if (ts.isExportDeclaration(node)) {
    return node.exportClause && ts.isNamedExports(node.exportClause) ? node.exportClause.elements.map((e) => (e.propertyName ?? e.name).text) : undefined;
  }
  const c = node.importClause;
  if (!c || c.name || !c.namedBindings || !ts.isNamedImports(c.namedBindings)) return undefined;
  return c.namedBindings.elements.map((e) => (e.propertyName ?? e.name).text);
}

function importsOf(file: string, text: string): ImportSite[] {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const out: ImportSite[] = [];
  const lineOf = (n: ts.Node) => sf.getLineAndCharacterOfPosition(n.getStart(sf)).line + 1;
  const visit = (node: ts.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      const names = namesOf(node);
      out.push({ spec: node.moduleSpecifier.text, line: lineOf(node), ...(names ? { names } : {}) });
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      out.push({ spec: node.argument.literal.text, line: lineOf(node) });
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0] && ts.isStringLiteralLike(node.arguments[0])) {
      out.push({ spec: node.arguments[0].text, line: lineOf(node) });
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

/** The kernel module an import names ("kernel/walk.ts"), or undefined when it names none. */
function kernelTarget(root: string, fromFile: string, spec: string): string | undefined {
  const pkg = /^oceancode\/kernel\/(.+)$/.exec(spec);
  if (pkg) return `kernel/${pkg[1]!.replace(/\.(m?js)$/, "")}.ts`;
  if (spec === "oceancode" || spec === "oceancode/kernel") return "kernel/api.ts";
  if (!spec.startsWith(".")) return undefined;
  const t = path.relative(root, path.resolve(path.dirname(fromFile), spec)).split(path.sep).join("/").replace(/\.(m?js|jsx)$/, ".ts");
  return t.startsWith("kernel/") ? t : undefined;
}

/** kernel module ("kernel/safe-output.ts") -> the names kernel/api.ts re-exports from it */
function apiReexports(root: string): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  const file = path.join(root, "kernel", "api.ts");
  if (!fs.existsSync(file)) return out;
  const sf = ts.createSourceFile(file, fs.readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
  for (const st of sf.statements) {
    if (!ts.isExportDeclaration(st) || !st.moduleSpecifier || !ts.isStringLiteral(st.moduleSpecifier)) continue;
    const names = namesOf(st);
    const mod = kernelTarget(root, file, st.moduleSpecifier.text);
    if (!names || !mod) continue;
    const set = out.get(mod) ?? new Set<string>();
    for (const n of names) set.add(n);
    out.set(mod, set);
  }
  return out;
}

export function checkReach(root: string): ReachProblem[] {
  const problems: ReachProblem[] = [];
  const published = apiReexports(root);
  for (const dir of ["extensions", "hosts"]) {
    for (const file of walk(path.join(root, dir))) {
      const r = path.relative(root, file).split(path.sep).join("/");
      if (isTestFile(r)) continue;
      const allowed = BOOTSTRAP[r] ?? [];
      for (const imp of importsOf(file, fs.readFileSync(file, "utf8"))) {
        const t = kernelTarget(root, file, imp.spec);
        if (!t || t === "kernel/api.ts" || allowed.includes(t)) continue;
        const api = published.get(t);
        if (dir === "hosts" && imp.names && api && imp.names.every((n) => api.has(n))) continue;
        const entry = path.relative(path.dirname(file), path.join(root, "kernel", "api.js")).split(path.sep).join("/");
        const missing = dir === "hosts" && imp.names ? imp.names.filter((n) => !api?.has(n)) : [];
        problems.push({
          file: r,
          line: imp.line,
          message: `import "${imp.spec}" reaches into the kernel (${t}), past its published entry oceancode/kernel: import it from "${entry}" (export it from kernel/api.ts if it is not there yet)${missing.length ? `; kernel/api.ts does not re-export ${missing.join(", ")} from it` : ""}`,
        });
      }
    }
  }
  return problems.sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line);
}

export const formatReach = (p: ReachProblem) => `${p.file}:${p.line}: [reach] ${p.message}`;

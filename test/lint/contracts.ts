/**
 * The contracts lint (architecture rule 14, issue 35 item 1), run in CI as a vitest test
 * (test/lint/contracts.test.ts) and counted by bench/contracts.ts. It reads the sources with the
 * TypeScript parser and runs no code.
 *
 * A published contract (`extensions/<id>/api.ts`, `oceancode/api/<id>`) holds types, hook declarations,
 * service interfaces and constants; implementation lives in the extension's kit (`extensions/<id>/kit.ts`,
 * `oceancode/kit/<id>`). Every value an api.ts exports (declared there or re-exported from another file,
 * followed to its declaration) is one of:
 *
 *   hook-table    `declareHooks(...)` (and the other declaration factories in DECLARATION_FACTORIES);
 *   constant      a literal, or an expression of literals (arrays, objects, `as const`, arithmetic,
 *                 templates, other constants, `Object.freeze` of one), or a non-const enum;
 *   function, class, value   refused: move it to the kit.
 *
 * It also counts file import cycles: strongly connected groups of two or more source files in kernel/,
 * extensions/ and hosts/, over every import (type-only ones included: a cycle of types still ties two files
 * together) and over the imports that load code at run time.
 */
import fs from "node:fs";
import path from "node:path";
import ts from "typescript";

export type ExportKind = "hook-table" | "constant" | "function" | "class" | "value";

/** Calls whose result is a declaration a contract may publish (a table, not behaviour). */
export const DECLARATION_FACTORIES: ReadonlySet<string> = new Set(["declareHooks", "declareStages", "defineStages", "defineError", "defineErrors"]);

export interface ContractExport {
  /** the api.ts, relative to the root */
  file: string;
  /** the export's line in that api.ts */
  line: number;
  name: string;
  kind: ExportKind;
  /** where it is declared (`file:line`), when not in the api.ts itself */
  origin?: string;
}

export interface ContractProblem {
  file: string;
  line: number;
  message: string;
}

export function formatContractProblem(p: ContractProblem): string {
  return `${p.file}:${p.line}: [contract] ${p.message}`;
}

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

/** A module specifier to the source file it names (absolute), or undefined for a package. */
function resolveSpec(root: string, fromFile: string, spec: string): string | undefined {
  let rel: string | undefined;
  const api = /^oceancode\/(api|kit)\/([^/]+)$/.exec(spec);
  if (api) rel = `extensions/${api[2]}/${api[1]}.ts`;
  else if (spec === "oceancode" || spec === "oceancode/kernel" || spec === "oceancode/kernel/api") rel = "kernel/api.ts";
  let abs = rel ? path.join(root, rel) : spec.startsWith(".") ? path.resolve(path.dirname(fromFile), spec) : undefined;
  if (!abs) return undefined;
  abs = abs.replace(/\.(m?js|jsx)$/, "");
  for (const ext of [".ts", ".tsx", ".mts", "/index.ts"]) {
    const f = abs.endsWith(".ts") ? abs : abs + ext;
    if (fs.existsSync(f)) return f;
  }
  return undefined;
}

type Binding =
  | { t: "local"; node: ts.Node; init?: ts.Expression; line: number }
  | { t: "type"; line: number }
  | { t: "import"; spec: string; name: string; line: number; typeOnly: boolean };

interface ModuleInfo {
  file: string;
  /** top-level names (declared or imported) */
  locals: Map<string, Binding>;
  /** exported name -> binding (a re-export `export { a } from` is an import binding) */
  exports: Map<string, Binding>;
  stars: string[];
}

const hasModifier = (n: ts.Node, k: ts.SyntaxKind) => (ts.canHaveModifiers(n) ? (ts.getModifiers(n) ?? []).some((m) => m.kind === k) : false);

function parseModule(file: string): ModuleInfo {
  const text = fs.readFileSync(file, "utf8");
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const lineOf = (n: ts.Node) => sf.getLineAndCharacterOfPosition(n.getStart(sf)).line + 1;
  const locals = new Map<string, Binding>();
  const exports = new Map<string, Binding>();
  const stars: string[] = [];
  const localExports: Array<{ exported: string; local: string; line: number; typeOnly: boolean }> = [];
  for (const st of sf.statements) {
    const exported = hasModifier(st, ts.SyntaxKind.ExportKeyword);
    const ambient = hasModifier(st, ts.SyntaxKind.DeclareKeyword);
    const put = (name: string, b: Binding) => {
      locals.set(name, b);
      if (exported) exports.set(name, b);
    };
    if (ts.isInterfaceDeclaration(st) || ts.isTypeAliasDeclaration(st)) put(st.name.text, { t: "type", line: lineOf(st) });
    else if (ts.isFunctionDeclaration(st) && st.name) put(st.name.text, ambient ? { t: "type", line: lineOf(st) } : { t: "local", node: st, line: lineOf(st) });
    else if (ts.isClassDeclaration(st) && st.name) put(st.name.text, ambient ? { t: "type", line: lineOf(st) } : { t: "local", node: st, line: lineOf(st) });
    else if (ts.isEnumDeclaration(st)) put(st.name.text, hasModifier(st, ts.SyntaxKind.ConstKeyword) || ambient ? { t: "type", line: lineOf(st) } : { t: "local", node: st, line: lineOf(st) });
    else if (ts.isModuleDeclaration(st)) put(st.name.getText(sf), { t: "type", line: lineOf(st) });
    else if (ts.isVariableStatement(st)) {
      for (const d of st.declarationList.declarations) {
        if (!ts.isIdentifier(d.name)) continue;
        put(d.name.text, ambient ? { t: "type", line: lineOf(d) } : { t: "local", node: d, init: d.initializer, line: lineOf(d) });
      }
    } else if (ts.isImportDeclaration(st) && ts.isStringLiteral(st.moduleSpecifier) && st.importClause) {
      const spec = st.moduleSpecifier.text;
      const clause = st.importClause;
      if (clause.name) locals.set(clause.name.text, { t: "import", spec, name: "default", line: lineOf(st), typeOnly: clause.isTypeOnly });
      const nb = clause.namedBindings;
      if (nb && ts.isNamedImports(nb)) {
        for (const el of nb.elements) locals.set(el.name.text, { t: "import", spec, name: (el.propertyName ?? el.name).text, line: lineOf(st), typeOnly: clause.isTypeOnly || el.isTypeOnly });
      } else if (nb && ts.isNamespaceImport(nb)) locals.set(nb.name.text, { t: "import", spec, name: "*", line: lineOf(st), typeOnly: clause.isTypeOnly });
    } else if (ts.isExportDeclaration(st)) {
      const spec = st.moduleSpecifier && ts.isStringLiteral(st.moduleSpecifier) ? st.moduleSpecifier.text : undefined;
      if (!st.exportClause) {
        if (spec && !st.isTypeOnly) stars.push(spec);
      } else if (ts.isNamedExports(st.exportClause)) {
        for (const el of st.exportClause.elements) {
          const typeOnly = st.isTypeOnly || el.isTypeOnly;
          const from = (el.propertyName ?? el.name).text;
          if (spec) exports.set(el.name.text, typeOnly ? { t: "type", line: lineOf(el) } : { t: "import", spec, name: from, line: lineOf(el), typeOnly });
          else localExports.push({ exported: el.name.text, local: from, line: lineOf(el), typeOnly });
        }
      } else if (spec) exports.set(st.exportClause.name.text, { t: "import", spec, name: "*", line: lineOf(st), typeOnly: st.isTypeOnly });
    } else if (ts.isExportAssignment(st)) exports.set("default", { t: "local", node: st, init: st.expression, line: lineOf(st) });
  }
  for (const e of localExports) {
    const b = locals.get(e.local);
    if (e.typeOnly || !b) exports.set(e.exported, { t: "type", line: e.line });
    else exports.set(e.exported, b.t === "local" ? { ...b, line: e.line } : b.t === "import" ? { ...b, line: e.line } : b);
  }
  return { file, locals, exports, stars };
}

class Resolver {
  private cache = new Map<string, ModuleInfo>();
  private kinds = new Map<string, { kind: ExportKind | "type"; at: string }>();
  constructor(private root: string) {}

  module(file: string): ModuleInfo {
    let m = this.cache.get(file);
    if (!m) this.cache.set(file, (m = parseModule(file)));
    return m;
  }

  rel(file: string): string {
    return path.relative(this.root, file).split(path.sep).join("/");
  }

  /** What an exported name of a module is, and where it is declared. */
  exportKind(file: string, name: string, seen = new Set<string>()): { kind: ExportKind | "type"; at: string } {
    const key = `${file}#${name}`;
    const hit = this.kinds.get(key);
    if (hit) return hit;
    if (seen.has(key)) return { kind: "value", at: this.rel(file) };
    seen.add(key);
    const m = this.module(file);
    let out: { kind: ExportKind | "type"; at: string } | undefined;
    const b = m.exports.get(name);
    if (b) out = this.bindingKind(file, b, seen);
    else {
      for (const spec of m.stars) {
        const target = resolveSpec(this.root, file, spec);
        if (!target) continue;
        if (this.module(target).exports.has(name) || this.module(target).stars.length) {
          const k = this.exportKind(target, name, seen);
          if (k.kind !== "value" || this.module(target).exports.has(name)) {
            out = k;
            break;
          }
        }
      }
    }
    out ??= { kind: "value", at: this.rel(file) };
    this.kinds.set(key, out);
    return out;
  }

  bindingKind(file: string, b: Binding, seen: Set<string>): { kind: ExportKind | "type"; at: string } {
    if (b.t === "type") return { kind: "type", at: `${this.rel(file)}:${b.line}` };
    if (b.t === "import") {
      if (b.typeOnly) return { kind: "type", at: `${this.rel(file)}:${b.line}` };
      const target = resolveSpec(this.root, file, b.spec);
      if (!target) return { kind: "value", at: b.spec };
      if (b.name === "*") return { kind: "value", at: this.rel(target) };
      return this.exportKind(target, b.name, seen);
    }
    const at = `${this.rel(file)}:${b.line}`;
    const n = b.node;
    if (ts.isFunctionDeclaration(n)) return { kind: "function", at };
    if (ts.isClassDeclaration(n)) return { kind: "class", at };
    if (ts.isEnumDeclaration(n)) return { kind: "constant", at };
    return { kind: this.exprKind(file, b.init, seen), at };
  }

  exprKind(file: string, e: ts.Expression | undefined, seen: Set<string>): ExportKind {
    if (!e) return "value";
    while (ts.isParenthesizedExpression(e) || ts.isAsExpression(e) || ts.isSatisfiesExpression(e) || ts.isTypeAssertionExpression(e) || ts.isNonNullExpression(e)) e = e.expression;
    if (ts.isArrowFunction(e) || ts.isFunctionExpression(e)) return "function";
    if (ts.isClassExpression(e)) return "class";
    if (ts.isCallExpression(e)) {
      const callee = e.expression;
      if (ts.isIdentifier(callee) && DECLARATION_FACTORIES.has(callee.text)) return "hook-table";
      if (ts.isPropertyAccessExpression(callee) && callee.getText() === "Object.freeze" && e.arguments.length === 1) return this.exprKind(file, e.arguments[0], seen);
    }
    return this.isConstant(file, e, seen) ? "constant" : "value";
  }

  isConstant(file: string, e: ts.Expression, seen: Set<string>): boolean {
    while (ts.isParenthesizedExpression(e) || ts.isAsExpression(e) || ts.isSatisfiesExpression(e) || ts.isTypeAssertionExpression(e)) e = e.expression;
    if (ts.isStringLiteral(e) || ts.isNumericLiteral(e) || ts.isBigIntLiteral(e) || ts.isNoSubstitutionTemplateLiteral(e) || ts.isRegularExpressionLiteral(e)) return true;
    if (e.kind === ts.SyntaxKind.TrueKeyword || e.kind === ts.SyntaxKind.FalseKeyword || e.kind === ts.SyntaxKind.NullKeyword) return true;
    if (ts.isPrefixUnaryExpression(e)) return this.isConstant(file, e.operand, seen);
    if (ts.isBinaryExpression(e)) return this.isConstant(file, e.left, seen) && this.isConstant(file, e.right, seen);
    if (ts.isTemplateExpression(e)) return e.templateSpans.every((s) => this.isConstant(file, s.expression, seen));
    if (ts.isArrayLiteralExpression(e)) return e.elements.every((x) => (ts.isSpreadElement(x) ? this.isConstant(file, x.expression, seen) : this.isConstant(file, x, seen)));
    if (ts.isObjectLiteralExpression(e)) {
      return e.properties.every((p) => {
        if (ts.isPropertyAssignment(p)) return !ts.isComputedPropertyName(p.name) && this.isConstant(file, p.initializer, seen);
        if (ts.isShorthandPropertyAssignment(p)) return this.isConstant(file, p.name, seen);
        if (ts.isSpreadAssignment(p)) return this.isConstant(file, p.expression, seen);
        return false;
      });
    }
    if (ts.isIdentifier(e)) {
      if (e.text === "undefined") return true;
      const b = this.module(file).locals.get(e.text);
      if (!b) return false;
      const k = this.bindingKind(file, b, seen).kind;
      return k === "constant" || k === "hook-table";
    }
    if (ts.isPropertyAccessExpression(e)) return this.isConstant(file, e.expression, seen);
    if (ts.isCallExpression(e) && ts.isPropertyAccessExpression(e.expression)) {
      // Object.freeze(constant), and a constant array joined (`[...].join("; ")`)
      if (e.expression.getText() === "Object.freeze" && e.arguments[0]) return this.isConstant(file, e.arguments[0], seen);
      if (e.expression.name.text === "join") return this.isConstant(file, e.expression.expression, seen) && e.arguments.every((a) => this.isConstant(file, a, seen));
    }
    // a set or map of constants: data, even if the type is a class
    if (ts.isNewExpression(e) && ts.isIdentifier(e.expression) && (e.expression.text === "Set" || e.expression.text === "Map")) return (e.arguments ?? []).every((a) => this.isConstant(file, a, seen));
    return false;
  }
}

function contractFiles(root: string): string[] {
  const dir = path.join(root, "extensions");
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => path.join(dir, e.name, "api.ts"))
    .filter((f) => fs.existsSync(f))
    .sort();
}

/** Every value (not type) each api.ts exports, with its kind. */
export function contractExports(root: string): ContractExport[] {
  const r = new Resolver(root);
  const out: ContractExport[] = [];
  for (const file of contractFiles(root)) {
    const m = r.module(file);
    const names = new Set(m.exports.keys());
    // `export * from`: every value name of the target
    const starNames = (f: string, seen: Set<string>): string[] => {
      if (seen.has(f)) return [];
      seen.add(f);
      const mm = r.module(f);
      const res = [...mm.exports.keys()];
      for (const s of mm.stars) {
        const t = resolveSpec(root, f, s);
        if (t) res.push(...starNames(t, seen));
      }
      return res;
    };
    const starLine = new Map<string, number>();
    for (const s of m.stars) {
      const t = resolveSpec(root, file, s);
      if (!t) continue;
      for (const n of starNames(t, new Set())) if (!names.has(n)) (names.add(n), starLine.set(n, 0));
    }
    for (const name of [...names].sort()) {
      if (name === "default") continue;
      const k = r.exportKind(file, name);
      if (k.kind === "type") continue;
      const own = m.exports.get(name);
      const rel = r.rel(file);
      const line = own?.line ?? 1;
      out.push({ file: rel, line, name, kind: k.kind, ...(k.at.startsWith(`${rel}:`) ? {} : { origin: k.at }) });
    }
  }
  return out.sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line || a.name.localeCompare(b.name));
}

/** The refused value exports: one problem per export naming its kind and where the code is. */
export function checkContracts(root: string): ContractProblem[] {
  return contractExports(root)
    .filter((x) => x.kind === "function" || x.kind === "class" || x.kind === "value")
    .map((x) => {
      const id = x.file.split("/")[1];
      return {
        file: x.file,
        line: x.line,
        message: `exports ${x.kind} \`${x.name}\`${x.origin ? ` (declared at ${x.origin})` : ""}: a contract holds types, hook tables and constants; export it from the kit extensions/${id}/kit.ts (oceancode/kit/${id}) instead`,
      };
    });
}

/** Import edges between source files of kernel/, extensions/ and hosts/ (tests and benches left out). */
export function importGraph(root: string, opts: { runtimeOnly?: boolean } = {}): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  const rel = (f: string) => path.relative(root, f).split(path.sep).join("/");
  const files = ["kernel", "extensions", "hosts"].flatMap((d) => walk(path.join(root, d))).filter((f) => !isTestFile(rel(f)));
  for (const file of files) {
    const sf = ts.createSourceFile(file, fs.readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true, file.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
    const edges = new Set<string>();
    const add = (spec: string) => {
      const t = resolveSpec(root, file, spec);
      if (t && t !== file && !isTestFile(rel(t))) edges.add(rel(t));
    };
    /** an import or export that TypeScript erases (every name type-only) */
    const erased = (n: ts.ImportDeclaration | ts.ExportDeclaration): boolean => {
      if (ts.isExportDeclaration(n)) return n.isTypeOnly || (!!n.exportClause && ts.isNamedExports(n.exportClause) && n.exportClause.elements.length > 0 && n.exportClause.elements.every((e) => e.isTypeOnly));
      const c = n.importClause;
      if (!c) return false;
      if (c.isTypeOnly) return true;
      const nb = c.namedBindings;
      return !c.name && !!nb && ts.isNamedImports(nb) && nb.elements.length > 0 && nb.elements.every((e) => e.isTypeOnly);
    };
    const visit = (n: ts.Node): void => {
      if ((ts.isImportDeclaration(n) || ts.isExportDeclaration(n)) && n.moduleSpecifier && ts.isStringLiteral(n.moduleSpecifier)) {
        if (!(opts.runtimeOnly && erased(n))) add(n.moduleSpecifier.text);
      } else if (ts.isImportTypeNode(n) && ts.isLiteralTypeNode(n.argument) && ts.isStringLiteral(n.argument.literal)) {
        if (!opts.runtimeOnly) add(n.argument.literal.text);
      }
      else if (ts.isCallExpression(n) && n.expression.kind === ts.SyntaxKind.ImportKeyword && n.arguments[0] && ts.isStringLiteralLike(n.arguments[0])) add(n.arguments[0].text);
      ts.forEachChild(n, visit);
    };
    visit(sf);
    graph.set(rel(file), edges);
  }
  return graph;
}

/** The file cycles: each strongly connected group of two or more files (Tarjan), its files sorted. */
export function fileCycles(root: string, opts: { runtimeOnly?: boolean } = {}): string[][] {
  const graph = importGraph(root, opts);
  let index = 0;
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const on = new Set<string>();
  const out: string[][] = [];
  const strong = (v: string): void => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    on.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!idx.has(w)) {
        strong(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
    }
    if (low.get(v) === idx.get(v)) {
      const group: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        on.delete(w);
        group.push(w);
      } while (w !== v);
      if (group.length > 1) out.push(group.sort());
    }
  };
  for (const v of [...graph.keys()].sort()) if (!idx.has(v)) strong(v);
  return out.sort((a, b) => a[0]!.localeCompare(b[0]!));
}

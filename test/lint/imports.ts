/**
 * The import lint (architecture rule 14, "published contracts"), run in CI as a vitest test
 * (test/lint/imports.test.ts). It reads the sources with the TypeScript parser, runs no code, and refuses:
 *
 *   (a) cross-import   an extension importing another extension's files other than its `api.ts` and `kit.ts`
 *                      (`../tools/decide.js` is refused, `../tools/api.js` and `../tools/kit.js` are allowed);
 *                      api and kit modules are published package code (`oceancode/api/<id>`,
 *                      `oceancode/kit/<id>`), so a value import of one needs no declared dependency, as a
 *                      third party may import it;
 *   (b) service        `ctx.services.get/tryGet/has("x")` or `.service("x")` of a service this manifest
 *                      does not declare in `requires`/`optional` (or provide);
 *   (c) kernel         kernel/ importing from extensions/ or hosts/;
 *   (d) api-doc        an extension's api.ts that does not open with a doc comment naming it the
 *                      published contract `oceancode/api/<id>`;
 *   (e) instanceof     `instanceof OcError` / `instanceof ProviderError` anywhere in kernel/, extensions/
 *                      or hosts/: coded errors are recognised by code (isOcError, providerErrorCode).
 *
 * Not checked: tests (`*.test.ts`, `test/`) and benchmarks (`bench/`), which drive internals on purpose.
 * Each problem is one line: `file:line: what is wrong: the import: what to do`.
 */
import fs from "node:fs";
import path from "node:path";
import ts from "typescript";

export type Rule = "cross-import" | "service" | "kernel" | "api-doc" | "instanceof";

export interface Problem {
  /** relative to the checked root, with / separators */
  file: string;
  line: number;
  rule: Rule;
  message: string;
}

export function formatProblem(p: Problem): string {
  return `${p.file}:${p.line}: [${p.rule}] ${p.message}`;
}

interface ExtManifest {
  id: string;
  requires: string[];
  optional: string[];
  provides: string[];
}

const SOURCE = /\.(ts|tsx|mts)$/;
/** Tests and benchmarks drive internals on purpose and ship in no extension's runtime: not checked. */
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

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : []);

function readManifests(root: string): Map<string, ExtManifest> {
  const out = new Map<string, ExtManifest>();
  const dir = path.join(root, "extensions");
  if (!fs.existsSync(dir)) return out;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    if (!e.isDirectory()) continue;
    const file = path.join(dir, e.name, "manifest.json");
    let m: Record<string, unknown> = {};
    try {
      m = JSON.parse(fs.readFileSync(file, "utf8")) as Record<string, unknown>;
    } catch {
      // no manifest: nothing declared
    }
    out.set(e.name, {
      id: typeof m.id === "string" ? m.id : e.name,
      requires: strings(m.requires),
      optional: strings(m.optional),
      provides: strings(m.provides),
    });
  }
  return out;
}

interface ImportSite {
  spec: string;
  line: number;
}

/** Classes whose errors are recognised by code only (a copy from another install fails instanceof). */
const CODED_ERROR_CLASSES = new Set(["OcError", "ProviderError"]);

interface ServiceSite {
  name: string;
  line: number;
  call: string;
}

function scan(file: string, text: string): { imports: ImportSite[]; services: ServiceSite[]; instanceofs: Array<{ line: number; cls: string; text: string }> } {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const imports: ImportSite[] = [];
  const services: ServiceSite[] = [];
  const instanceofs: Array<{ line: number; cls: string; text: string }> = [];
  const lineOf = (n: ts.Node) => sf.getLineAndCharacterOfPosition(n.getStart(sf)).line + 1;
  const visit = (node: ts.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      imports.push({ spec: node.moduleSpecifier.text, line: lineOf(node) });
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      imports.push({ spec: node.argument.literal.text, line: lineOf(node) });
    } else if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.InstanceOfKeyword) {
      const right = ts.isPropertyAccessExpression(node.right) ? node.right.name : node.right;
      if (ts.isIdentifier(right) && CODED_ERROR_CLASSES.has(right.text)) instanceofs.push({ line: lineOf(node), cls: right.text, text: node.getText(sf).replace(/\s+/g, " ").slice(0, 80) });
    } else if (ts.isCallExpression(node)) {
      const arg = node.arguments[0];
      if (node.expression.kind === ts.SyntaxKind.ImportKeyword && arg && ts.isStringLiteralLike(arg)) {
        imports.push({ spec: arg.text, line: lineOf(node) });
      } else if (ts.isPropertyAccessExpression(node.expression) && arg && ts.isStringLiteralLike(arg)) {
        const method = node.expression.name.text;
        const target = node.expression.expression;
        const onServices = ts.isPropertyAccessExpression(target) ? target.name.text === "services" : ts.isIdentifier(target) && target.text === "services";
        if ((onServices && (method === "get" || method === "tryGet" || method === "has")) || method === "service" || method === "tryService") {
          services.push({ name: arg.text, line: lineOf(node), call: node.getText(sf).replace(/\s+/g, " ").slice(0, 80) });
        }
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return { imports, services, instanceofs };
}

/** Where an import points, relative to the root ("extensions/tools/api.ts"), or undefined for a package. */
function target(root: string, fromFile: string, spec: string): string | undefined {
  const self = /^oceancode\/(api|kit)\/([^/]+)$/.exec(spec);
  if (self) return `extensions/${self[2]}/${self[1]}.ts`;
  if (/^oceancode\/kernel\//.test(spec) || spec === "oceancode") return "kernel/api.ts";
  if (!spec.startsWith(".")) return undefined;
  const abs = path.resolve(path.dirname(fromFile), spec);
  return path.relative(root, abs).split(path.sep).join("/").replace(/\.(m?js|jsx)$/, ".ts");
}

export function checkImports(root: string): Problem[] {
  const problems: Problem[] = [];
  const manifests = readManifests(root);
  const rel = (f: string) => path.relative(root, f).split(path.sep).join("/");

  for (const file of walk(path.join(root, "extensions"))) {
    const r = rel(file);
    if (isTestFile(r)) continue;
    const own = r.split("/")[1]!;
    const m = manifests.get(own);
    if (!m) continue;
    const { imports, services } = scan(file, fs.readFileSync(file, "utf8"));
    for (const imp of imports) {
      const t = target(root, file, imp.spec);
      if (!t) continue;
      const parts = t.split("/");
      if (parts[0] !== "extensions" || parts[1] === own || parts.length < 3) continue;
      const other = parts[1]!;
      const isApi = parts.length === 3 && ["api.ts", "api.tsx", "kit.ts"].includes(parts[2]!);
      if (isApi) continue;
      problems.push({
        file: r,
        line: imp.line,
        rule: "cross-import",
        message: `import "${imp.spec}" reaches into extension '${other}' (${t}), not its published contract: import what you need from "../${other}/api.js" (types) or "../${other}/kit.js" (code) (ask for it to be exported there), or move the code into '${own}'`,
      });
    }
    const declared = new Set([...m.requires, ...m.optional, ...m.provides]);
    for (const s of services) {
      if (declared.has(s.name)) continue;
      const providers = [...manifests.values()].filter((x) => x.provides.includes(s.name)).map((x) => `'${x.id}'`);
      problems.push({
        file: r,
        line: s.line,
        rule: "service",
        message: `${s.call} looks up service '${s.name}', which extensions/${own}/manifest.json does not declare: add "${s.name}" to "requires" (or "optional")${providers.length ? ` (provided by ${providers.join(", ")})` : " (no extension provides it)"}`,
      });
    }
  }

  for (const [dir, m] of manifests) {
    const api = path.join(root, "extensions", dir, "api.ts");
    if (!fs.existsSync(api)) continue;
    const head = /^\s*\/\*\*([\s\S]*?)\*\//.exec(fs.readFileSync(api, "utf8"));
    if (head && head[1]!.includes(`oceancode/api/${m.id}`)) continue;
    problems.push({
      file: rel(api),
      line: 1,
      rule: "api-doc",
      message: `the published contract has no opening doc comment naming it: start the file with /** The published contract \`oceancode/api/${m.id}\` ... */ saying what it holds (types, hook tables, service interfaces, constants; code goes in kit.ts)`,
    });
  }

  for (const file of walk(path.join(root, "kernel"))) {
    const r = rel(file);
    if (isTestFile(r)) continue;
    for (const imp of scan(file, fs.readFileSync(file, "utf8")).imports) {
      const t = target(root, file, imp.spec);
      if (!t || !/^(extensions|hosts)\//.test(t)) continue;
      problems.push({
        file: r,
        line: imp.line,
        rule: "kernel",
        message: `import "${imp.spec}": the kernel must not depend on ${t.split("/")[0]}/ (${t}): move the shared code into kernel/, or have the extension register it with the kernel`,
      });
    }
  }
  for (const dir of ["kernel", "extensions", "hosts"]) {
    for (const file of walk(path.join(root, dir))) {
      const r = rel(file);
      if (isTestFile(r)) continue;
      for (const i of scan(file, fs.readFileSync(file, "utf8")).instanceofs) {
        const fix = i.cls === "OcError" ? "isOcError(e) / hasErrorCode(e, code) from the kernel API" : "providerErrorCode(e) / isRetryableProviderError(e) from oceancode/api/engine";
        problems.push({ file: r, line: i.line, rule: "instanceof", message: `\`${i.text}\` recognises a coded error by class, which misses a copy from another install: use ${fix}` });
      }
    }
  }
  return problems.sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line);
}

/** The import lint on the repo (zero problems), and on planted bad fixtures (the exact problem). */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../kit/cli.js";
import { checkImports, formatProblem } from "./imports.js";

const tmp: string[] = [];
afterEach(() => {
  for (const d of tmp.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

function tempRoot(): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), "oc-lint-"));
  tmp.push(d);
  return d;
}

function write(root: string, rel: string, text: string): void {
  const f = path.join(root, rel);
  fs.mkdirSync(path.dirname(f), { recursive: true });
  fs.writeFileSync(f, text);
}

const manifest = (id: string, extra: Record<string, unknown> = {}) => JSON.stringify({ id, version: "1.0.0", kernel: "^0.1.0", main: "index.js", ...extra });

/** Two extensions: `lib` publishes api.ts (and keeps internal.ts), `app` uses it. */
function fixture(app: { manifest?: Record<string, unknown>; code: string }, opts: { apiDoc?: boolean } = {}): string {
  const root = tempRoot();
  write(root, "extensions/lib/manifest.json", manifest("lib", { provides: ["lib"] }));
  write(root, "extensions/lib/api.ts", `${opts.apiDoc === false ? "" : "/** The published contract \`oceancode/api/lib\`. */\n"}export interface LibService { go(): void }\nexport function helper(): number { return 1; }\n`);
  write(root, "extensions/lib/internal.ts", `export const secret = 42;\n`);
  write(root, "extensions/app/manifest.json", manifest("app", app.manifest));
  write(root, "extensions/app/index.ts", app.code);
  write(root, "kernel/api.ts", `export const ok = 1;\n`);
  return root;
}

const lines = (root: string) => checkImports(root).map(formatProblem);

describe("import lint on the repo", () => {
  it("reports zero problems", () => {
    const problems = checkImports(REPO_ROOT).map(formatProblem);
    expect(problems, problems.join("\n")).toEqual([]);
  });

  it("a copy of the repo with one planted import of another extension's internals: exactly that problem", () => {
    const root = tempRoot();
    for (const d of ["extensions", "kernel"]) fs.cpSync(path.join(REPO_ROOT, d), path.join(root, d), { recursive: true });
    const file = path.join(root, "extensions", "permissions", "index.ts");
    const text = fs.readFileSync(file, "utf8").split("\n");
    const at = text.findIndex((l) => l.startsWith("import "));
    text.splice(at, 0, `import { tapTools } from "../tools/tools.js";`);
    fs.writeFileSync(file, text.join("\n"));
    expect(lines(root)).toEqual([
      `extensions/permissions/index.ts:${at + 1}: [cross-import] import "../tools/tools.js" reaches into extension 'tools' (extensions/tools/tools.ts), not its published contract: import what you need from "../tools/api.js" (types) or "../tools/kit.js" (code) (ask for it to be exported there), or move the code into 'permissions'`,
    ]);
  });
});

describe("import lint rules, one planted problem each", () => {
  it("(a) another extension's file that is not its api.ts is refused; its api.js is allowed", () => {
    const root = fixture({ manifest: { requires: ["lib"] }, code: `import { helper } from "../lib/api.js";\nimport { secret } from "../lib/internal.js";\nexport default { activate() { helper(); return secret; } };\n` });
    expect(lines(root)).toEqual([
      `extensions/app/index.ts:2: [cross-import] import "../lib/internal.js" reaches into extension 'lib' (extensions/lib/internal.ts), not its published contract: import what you need from "../lib/api.js" (types) or "../lib/kit.js" (code) (ask for it to be exported there), or move the code into 'app'`,
    ]);
  });

  it("a value import or re-export of another extension's api needs no declared dependency; a re-export of its internals is refused", () => {
    const ok = fixture({ code: `import type { LibService } from "../lib/api.js";\nimport { helper } from "../lib/api.js";\nexport { helper as h } from "../lib/api.js";\nexport const x: LibService | number = helper();\n` });
    expect(lines(ok)).toEqual([]);
    const reexport = fixture({ code: `export { secret } from "../lib/internal.js";\n` });
    expect(lines(reexport)).toEqual([expect.stringContaining(`extensions/app/index.ts:1: [cross-import] import "../lib/internal.js" reaches into extension 'lib'`)]);
  });

  it("(b) a service lookup the manifest does not declare is refused", () => {
    const root = fixture({
      manifest: { optional: ["lib"] },
      code: `export default { activate(ctx) {\n  ctx.services.tryGet("lib");\n  ctx.services.get("engine");\n  kernel.service("storage");\n} };\n`,
    });
    expect(lines(root)).toEqual([
      `extensions/app/index.ts:3: [service] ctx.services.get("engine") looks up service 'engine', which extensions/app/manifest.json does not declare: add "engine" to "requires" (or "optional") (no extension provides it)`,
      `extensions/app/index.ts:4: [service] kernel.service("storage") looks up service 'storage', which extensions/app/manifest.json does not declare: add "storage" to "requires" (or "optional") (no extension provides it)`,
    ]);
    const named = fixture({ code: `export default { activate(ctx) { ctx.services.get<X>("lib"); } };\n` });
    expect(lines(named)).toEqual([expect.stringContaining(`looks up service 'lib', which extensions/app/manifest.json does not declare: add "lib" to "requires" (or "optional") (provided by 'lib')`)]);
  });

  it("(c) the kernel importing from extensions/ or hosts/ is refused", () => {
    const root = fixture({ code: `export {};\n` });
    write(root, "kernel/boot.ts", `import type { LibService } from "../extensions/lib/api.js";\nimport { run } from "../hosts/cli/main.js";\nexport type X = LibService;\nexport const y = run;\n`);
    expect(lines(root)).toEqual([
      `kernel/boot.ts:1: [kernel] import "../extensions/lib/api.js": the kernel must not depend on extensions/ (extensions/lib/api.ts): move the shared code into kernel/, or have the extension register it with the kernel`,
      `kernel/boot.ts:2: [kernel] import "../hosts/cli/main.js": the kernel must not depend on hosts/ (hosts/cli/main.ts): move the shared code into kernel/, or have the extension register it with the kernel`,
    ]);
  });

  it("(d) an api.ts must open with a doc comment naming its contract", () => {
    const root = fixture({ code: `export {};\n` }, { apiDoc: false });
    expect(lines(root)).toEqual([
      "extensions/lib/api.ts:1: [api-doc] the published contract has no opening doc comment naming it: start the file with /** The published contract `oceancode/api/lib` ... */ saying what it holds (types, hook tables, service interfaces, constants; code goes in kit.ts)",
    ]);
    write(root, "extensions/lib/api.ts", `/**\n * The published contract \`oceancode/api/lib\`.\n */\nexport interface LibService { go(): void }\n`);
    expect(lines(root)).toEqual([]);
  });

  it("(e) instanceof OcError / ProviderError is refused in kernel/, extensions/ and hosts/", () => {
    const root = fixture({ code: `import { ProviderError } from "../lib/api.js";\nexport const retry = (e: unknown) =>\n  e instanceof ProviderError || e instanceof Error;\n` , manifest: { requires: ["lib"] } });
    write(root, "hosts/boot.ts", `import { OcError } from "../kernel/errors.js";\nexport const coded = (e: unknown) => e instanceof OcError;\n`);
    expect(lines(root)).toEqual([
      "extensions/app/index.ts:3: [instanceof] `e instanceof ProviderError` recognises a coded error by class, which misses a copy from another install: use providerErrorCode(e) / isRetryableProviderError(e) from oceancode/api/engine",
      "hosts/boot.ts:2: [instanceof] `e instanceof OcError` recognises a coded error by class, which misses a copy from another install: use isOcError(e) / hasErrorCode(e, code) from the kernel API",
    ]);
  });

  it("tests and benchmarks are not checked", () => {
    const root = fixture({ code: `export {};\n` });
    write(root, "extensions/app/test/x.test.ts", `import { secret } from "../../lib/internal.js";\n`);
    write(root, "extensions/app/bench/b.ts", `import { secret } from "../../lib/internal.js";\n`);
    write(root, "extensions/app/x.test.ts", `import { secret } from "../lib/internal.js";\n`);
    expect(lines(root)).toEqual([]);
  });
});

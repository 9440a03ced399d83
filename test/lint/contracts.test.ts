/** The contracts lint on the repo (zero problems), on planted fixtures (file:line and the export), and its cycle count. */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../kit/cli.js";
import { checkContracts, contractExports, fileCycles, formatContractProblem } from "./contracts.js";

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "oc-lint-contracts-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

function fixture(name: string, files: Record<string, string>): string {
  const root = path.join(tmp, name);
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), text);
  }
  return root;
}

describe("contracts lint on the repo", () => {
  it("no api.ts exports a function, a class or a computed value; the figures are printed", () => {
    const problems = checkContracts(REPO_ROOT).map(formatContractProblem);
    expect(problems, problems.join("\n")).toEqual([]);
    const exports = contractExports(REPO_ROOT);
    expect(exports.length).toBeGreaterThan(50);
    expect(exports.every((x) => x.kind === "constant" || x.kind === "hook-table")).toBe(true);
    const cycles = fileCycles(REPO_ROOT);
    const runtime = fileCycles(REPO_ROOT, { runtimeOnly: true });
    // no contract sits in a cycle with the files that implement it
    expect(cycles.filter((c) => c.some((f) => /^extensions\/[^/]+\/api\.ts$/.test(f)))).toEqual([]);
    process.stdout.write(`contracts: ${exports.length} value exports (constants and hook tables), 0 refused; file cycles: ${cycles.length} (${runtime.length} at run time)\n`);
  });
});

describe("contracts lint rules", () => {
  const api = [
    `/** The published contract \`oceancode/api/lib\`. */`,
    `import { declareHooks, hook } from "../../kernel/api.js";`,
    `export interface Lib { go(): void }`,
    `export type Mode = "a" | "b";`,
    `export const LIMIT = 64 * 1024;`,
    `export const NAMES = ["a", "b"] as const;`,
    `export const HEADERS: Readonly<Record<string, string>> = { a: "x", b: \`\${LIMIT}\` };`,
    `export const TOOLS: ReadonlySet<string> = new Set(["read", "grep"]);`,
    `export const CSP = ["a", "b"].join("; ");`,
    `export const LIB_HOOKS = declareHooks("lib", { go: hook.series<number>("go") });`,
    `export function helper(): number { return 1; }`,
    `export class Queue {}`,
    `export const make = (n: number) => n + 1;`,
    `export const started = Date.now();`,
    `export { walk, type Walked } from "./walk.js";`,
    `export * from "./more.js";`,
  ].join("\n");
  const root = fixture("rules", {
    "kernel/api.ts": `export const declareHooks = (p: string, h: object) => ({ p, h });\nexport const hook = { series: <T>(d: string) => ({ d }) };\n`,
    "extensions/lib/api.ts": api,
    "extensions/lib/walk.ts": `export interface Walked { n: number }\nexport function walk(): Walked { return { n: 1 }; }\n`,
    "extensions/lib/more.ts": `export type More = string;\nexport const MORE = "m";\nexport function moreCode(): void {}\n`,
  });

  it("names file:line and the export of each function, class and computed value, with where it is declared", () => {
    expect(checkContracts(root).map(formatContractProblem)).toEqual([
      "extensions/lib/api.ts:1: [contract] exports function `moreCode` (declared at extensions/lib/more.ts:3): a contract holds types, hook tables and constants; export it from the kit extensions/lib/kit.ts (oceancode/kit/lib) instead",
      "extensions/lib/api.ts:11: [contract] exports function `helper`: a contract holds types, hook tables and constants; export it from the kit extensions/lib/kit.ts (oceancode/kit/lib) instead",
      "extensions/lib/api.ts:12: [contract] exports class `Queue`: a contract holds types, hook tables and constants; export it from the kit extensions/lib/kit.ts (oceancode/kit/lib) instead",
      "extensions/lib/api.ts:13: [contract] exports function `make`: a contract holds types, hook tables and constants; export it from the kit extensions/lib/kit.ts (oceancode/kit/lib) instead",
      "extensions/lib/api.ts:14: [contract] exports value `started`: a contract holds types, hook tables and constants; export it from the kit extensions/lib/kit.ts (oceancode/kit/lib) instead",
      "extensions/lib/api.ts:15: [contract] exports function `walk` (declared at extensions/lib/walk.ts:2): a contract holds types, hook tables and constants; export it from the kit extensions/lib/kit.ts (oceancode/kit/lib) instead",
    ]);
  });

  it("types, hook tables and constants pass, each with its kind", () => {
    const kinds = Object.fromEntries(contractExports(root).map((x) => [x.name, x.kind]));
    expect(kinds).toMatchObject({ LIMIT: "constant", NAMES: "constant", HEADERS: "constant", TOOLS: "constant", CSP: "constant", MORE: "constant", LIB_HOOKS: "hook-table" });
    expect(kinds).not.toHaveProperty("Lib");
    expect(kinds).not.toHaveProperty("Walked");
  });

  it("counts file cycles, with and without type-only imports", () => {
    const r = fixture("cycles", {
      "extensions/a/x.ts": `import type { Y } from "./y.js";\nexport type X = Y;\nexport const x = 1;\n`,
      "extensions/a/y.ts": `import { x } from "./x.js";\nexport type Y = number;\nexport const y = x;\n`,
      "extensions/a/p.ts": `import { q } from "./q.js";\nexport const p = () => q;\n`,
      "extensions/a/q.ts": `export const q = async () => (await import("./p.js")).p;\n`,
      "extensions/a/test/t.test.ts": `import { x } from "../x.js";\n`,
    });
    expect(fileCycles(r)).toEqual([
      ["extensions/a/p.ts", "extensions/a/q.ts"],
      ["extensions/a/x.ts", "extensions/a/y.ts"],
    ]);
    expect(fileCycles(r, { runtimeOnly: true })).toEqual([["extensions/a/p.ts", "extensions/a/q.ts"]]);
  });
});

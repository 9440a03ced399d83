/** The errors lint on the repo (no plain throw, no Error class outside the allowed wire errors), and on a planted fixture. */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../kit/cli.js";
import { checkErrors, errorsCounts, ERRORS_ALLOWED, formatErrorsProblem } from "./errors.js";

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "oc-lint-errors-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

function write(rel: string, text: string): void {
  const f = path.join(tmp, rel);
  fs.mkdirSync(path.dirname(f), { recursive: true });
  fs.writeFileSync(f, text);
}

describe("errors lint", () => {
  it("extensions/ and hosts/ throw coded errors only", () => {
    expect(checkErrors(REPO_ROOT).map(formatErrorsProblem)).toEqual([]);
    expect(errorsCounts(REPO_ROOT)).toEqual({ plainThrows: 0, errorClasses: 0 });
    // every allowed line still exists as written (a stale entry would hide nothing, but says something false)
    for (const a of ERRORS_ALLOWED) expect(fs.readFileSync(path.join(REPO_ROOT, a.file), "utf8").split("\n").map((l) => l.trim()), `${a.file}: ${a.line}`).toContain(a.line);
  });

  it("a planted throw new Error and Error subclass are each named by file:line; tests, benches and comments are not", () => {
    write("extensions/app/index.ts", ["// throw new Error('in a comment') is fine", "export function go() {", "  throw new Error('boom');", "}", "export class Oops<T> extends Error {}", "class Fine extends OtherThing {}"].join("\n"));
    write("hosts/h/main.ts", "if (x) throw  new Error(`no`);\n");
    write("extensions/app/test/app.test.ts", "throw new Error('a test may');\n");
    write("extensions/app/bench/b.ts", "class B extends Error {}\n");
    expect(checkErrors(tmp).map((p) => `${p.file}:${p.line}:${p.kind}`)).toEqual(["extensions/app/index.ts:3:plain-throw", "extensions/app/index.ts:5:error-class", "hosts/h/main.ts:1:plain-throw"]);
    expect(formatErrorsProblem(checkErrors(tmp)[0]!)).toBe("extensions/app/index.ts:3: throw a coded error (defineError in the extension's errors.ts), not new Error: throw new Error('boom');");
    expect(errorsCounts(tmp)).toEqual({ plainThrows: 2, errorClasses: 1 });
  });
});

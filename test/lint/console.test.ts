/** The console lint on the repo (zero problems), and on a planted fixture (file:line of each problem). */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../kit/cli.js";
import { checkConsole, formatConsoleProblem, STDERR_ALLOWED } from "./console.js";

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "oc-lint-console-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

function write(rel: string, text: string): void {
  const f = path.join(tmp, rel);
  fs.mkdirSync(path.dirname(f), { recursive: true });
  fs.writeFileSync(f, text);
}

describe("console lint", () => {
  it("extensions/ has no console.* call and no stray process.stderr.write", () => {
    expect(checkConsole(REPO_ROOT).map(formatConsoleProblem)).toEqual([]);
    // every allowed file still exists (a stale entry would hide a new one of the same name)
    for (const f of Object.keys(STDERR_ALLOWED)) expect(fs.existsSync(path.join(REPO_ROOT, f)), f).toBe(true);
  });

  it("a planted console.error, console.log and process.stderr.write are each named by file:line; tests, benches and comments are not", () => {
    write("extensions/app/index.ts", ["// console.error in a comment is fine", "export function go() {", "  console.error('boom');", "  console . log ('x');", "  process.stderr.write('y\\n');", "}"].join("\n"));
    write("extensions/app/test/app.test.ts", "console.log('a test may print');\n");
    write("extensions/app/bench/b.ts", "console.log('a bench prints its figures');\n");
    write("extensions/app/io.ts", "export const out = (s: string) => process.stdout.write(s);\n");
    expect(checkConsole(tmp).map((p) => `${p.file}:${p.line}`)).toEqual(["extensions/app/index.ts:3", "extensions/app/index.ts:4", "extensions/app/index.ts:5"]);
    expect(formatConsoleProblem(checkConsole(tmp)[0]!)).toBe("extensions/app/index.ts:3: log through ctx.log / oceancode/api/obs, not console.* or process.stderr: console.error('boom');");
  });
});

/** Scoped rules: the glob matcher and the bounded, .gitignore-honouring walk. */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { globToRegExp, matchScopes, scopeMatcher } from "../scope.js";

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "oc-rules-scope-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));
function write(rel: string, text = "x"): void {
  const f = path.join(tmp, rel);
  fs.mkdirSync(path.dirname(f), { recursive: true });
  fs.writeFileSync(f, text);
}

describe("globs", () => {
  it("**, *, ?, braces and classes", () => {
    expect(globToRegExp("**/*.py").test("a/b/c.py")).toBe(true);
    expect(globToRegExp("**/*.py").test("c.py")).toBe(true);
    expect(globToRegExp("src/*.ts").test("src/a/b.ts")).toBe(false);
    expect(globToRegExp("src/**/*.{ts,tsx}").test("src/a/b.tsx")).toBe(true);
    expect(globToRegExp("a?.[ch]").test("ab.h")).toBe(true);
  });
  it("a glob without / matches a file name at any depth; with / it is anchored", () => {
    expect(scopeMatcher("*.rb")("lib/x/y.rb")).toBe(true);
    expect(scopeMatcher("lib/*.rb")("x/lib/y.rb")).toBe(false);
    expect(scopeMatcher("./lib/*.rb")("lib/y.rb")).toBe(true);
  });
});

describe("matchScopes", () => {
  write("app/main.ts");
  write("build/gen.py");
  write(".gitignore", "build/\n*.log\n");
  write("node_modules/pkg/index.rb");
  write(".git/hooks/x.go");
  write("logs/today.log");

  it("a match, and no match", () => {
    expect([...matchScopes(tmp, ["**/*.ts", "**/*.java"])]).toEqual(["**/*.ts"]);
  });

  it("a gitignored file, .git and node_modules do not count", () => {
    expect(matchScopes(tmp, ["**/*.py", "*.log", "**/*.rb", "**/*.go"]).size).toBe(0);
  });

  it("answers are cached per session: a file added later does not change them", () => {
    const cache = new Map<string, boolean>();
    expect(matchScopes(tmp, ["**/*.md"], cache).size).toBe(0);
    write("docs/readme.md");
    expect(matchScopes(tmp, ["**/*.md"], cache).size).toBe(0);
    expect(matchScopes(tmp, ["**/*.md"]).size).toBe(1);
  });

  it("a walk that hits its bound loads the rule rather than losing it", () => {
    expect(matchScopes(tmp, ["**/*.nothing"], new Map(), 1).size).toBe(1);
  });
});

import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { globToRegExp } from "../glob-match.js";
import { findRipgrep } from "../grep.js";
import { harness, harness as makeHarness, type Harness } from "./helpers.js";

let h: Harness;
afterEach(() => h?.cleanup());

function tree(): void {
  h.file("src/a.ts", "export const Alpha = 1;\n// TODO alpha\n");
  h.file("src/b.tsx", "export const beta = 2;\n");
  h.file("src/deep/c.ts", "const alpha = 3;\n");
  h.file("README.md", "Alpha docs\n");
  h.file("node_modules/pkg/index.js", "alpha in deps\n");
  h.file(".git/config", "alpha in git\n");
  h.file("dist/out.js", "alpha built\n");
  h.file(".gitignore", "dist/\n*.log\n!keep.log\n");
  h.file("trace.log", "alpha log\n");
  h.file("keep.log", "alpha kept\n");
  h.file(".env", "ALPHA_KEY=secret\n");
  h.file("bin.dat", Buffer.from("alpha\0binary"));
}

describe("glob matcher", () => {
  it("handles *, **, ?, classes and braces", () => {
    expect(globToRegExp("**/*.ts").test("src/deep/c.ts")).toBe(true);
    expect(globToRegExp("**/*.ts").test("c.ts")).toBe(true);
    expect(globToRegExp("*.ts").test("src/c.ts")).toBe(false);
    expect(globToRegExp("src/**/*.{ts,tsx}").test("src/b.tsx")).toBe(true);
    expect(globToRegExp("src/**").test("src/a/b")).toBe(true);
    expect(globToRegExp("file?.[ch]").test("file1.c")).toBe(true);
    expect(globToRegExp("[!a]*").test("abc")).toBe(false);
    expect(globToRegExp("a.b").test("axb")).toBe(false);
  });
});

const hasRg = findRipgrep() !== null;
// ripgrep runs where it is installed (.ci/run installs it); the built-in search runs everywhere
describe.each([
  { backend: "built-in", useRipgrep: false, run: true },
  { backend: "ripgrep", useRipgrep: true, run: hasRg },
])("grep ($backend)", ({ useRipgrep, run }) => {
  const harness = (): Harness => {
    const x = makeHarness({ useRipgrep });
    return x;
  };
  it.runIf(run)("spawns through prepareSpawn only for ripgrep", async () => {
    h = harness();
    tree();
    await h.call("grep", { pattern: "alpha" });
    expect(h.spawned.map((s) => [s.command, s.purpose])).toEqual(useRipgrep ? [["rg", "grep"]] : []);
  });

  it.runIf(run)("lists matching files, honouring .gitignore and skipping .git, node_modules, binaries and .env", async () => {
    h = harness();
    tree();
    const out = await h.call("grep", { pattern: "alpha", "-i": true });
    expect(out.content).toBe(["Found 4 files", "README.md", "keep.log", "src/a.ts", "src/deep/c.ts"].join("\n"));
  });

  it.runIf(run)("content and count modes, case sensitivity, glob filter, head_limit", async () => {
    h = harness();
    tree();
    expect((await h.call("grep", { pattern: "alpha", output_mode: "content", glob: "*.ts" })).content).toBe("src/a.ts:2:// TODO alpha\nsrc/deep/c.ts:1:const alpha = 3;");
    expect((await h.call("grep", { pattern: "alpha", output_mode: "count", "-i": true, glob: "src/**" })).content).toBe("src/a.ts:2\nsrc/deep/c.ts:1");
    const limited = await h.call("grep", { pattern: "a", head_limit: 1 });
    expect(limited.content).toMatch(/^Found \d+ files\n[^\n]+\n\(\d+ more not shown/);
    expect((await h.call("grep", { pattern: "nothing-here" })).content).toBe("No matches found");
  });

  it.runIf(run)("searches one file and refuses bad input clearly", async () => {
    h = harness();
    tree();
    expect((await h.call("grep", { pattern: "beta", path: "src/b.tsx", output_mode: "content" })).content).toBe("src/b.tsx:1:export const beta = 2;");
    const bad = await h.call("grep", { pattern: "(" });
    expect(bad.isError).toBe(true);
    expect(bad.content).toMatch(/^grep: invalid regular expression '\('/);
    expect((await h.call("grep", { pattern: "x", output_mode: "lines" })).content).toContain("output_mode must be one of");
    expect((await h.call("grep", { pattern: "x", path: ".env" })).content).toContain("secrets file");
  });
});

describe("glob", () => {
  it("finds files newest first and skips node_modules and .git", async () => {
    h = harness();
    tree();
    const past = Date.now() / 1000 - 100;
    fs.utimesSync(path.join(h.project, "src/a.ts"), past, past);
    const out = await h.call("glob", { pattern: "**/*.ts" });
    expect(out.content).toBe([path.join(h.project, "src/deep/c.ts"), path.join(h.project, "src/a.ts")].join("\n"));
    expect((await h.call("glob", { pattern: "*.ts", path: "src/deep" })).content).toBe(path.join(h.project, "src/deep/c.ts"));
    expect((await h.call("glob", { pattern: "**/index.js" })).content).toBe("No files found");
    expect((await h.call("glob", { pattern: "node_modules/**/*.js" })).content).toBe(path.join(h.project, "node_modules/pkg/index.js"));
    expect((await h.call("glob", { pattern: "src/*.{ts,tsx}" })).content.split("\n").sort()).toEqual([path.join(h.project, "src/a.ts"), path.join(h.project, "src/b.tsx")]);
  });
});

describe("ls", () => {
  it("lists entries with directories marked, honours ignore, refuses files", async () => {
    h = harness();
    tree();
    fs.symlinkSync("README.md", path.join(h.project, "link"));
    const out = await h.call("ls", { ignore: ["*.log"] });
    expect(out.content.split("\n")).toEqual([
      `${h.project}:`,
      ".env",
      ".git/",
      ".gitignore",
      "README.md",
      "bin.dat",
      "dist/",
      "link -> README.md",
      "node_modules/",
      "src/",
    ]);
    expect((await h.call("ls", { path: "README.md" })).content).toContain("is a file, not a directory; use read");
    expect((await h.call("ls", { path: "missing" })).content).toContain("does not exist");
  });
});

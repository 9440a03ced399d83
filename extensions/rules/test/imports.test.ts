/** @path imports: what counts as one, the four-hop limit, loops, missing files and the bounds (realpath). */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { checkTarget, expandImports, findImports, realBound, type ImportContext } from "../imports.js";

const tmp = realBound(fs.mkdtempSync(path.join(os.tmpdir(), "oc-rules-imp-")));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));
const project = path.join(tmp, "project");
const home = path.join(tmp, "home");
function write(rel: string, text: string): string {
  const f = path.join(tmp, rel);
  fs.mkdirSync(path.dirname(f), { recursive: true });
  fs.writeFileSync(f, text);
  return f;
}
write("outside/secret.md", "OUTSIDE TEXT");
const ctx: ImportContext = {
  home,
  bounds: [project, home],
  idOf: (f) => path.relative(tmp, f),
};
function expand(file: string) {
  const warnings: string[] = [];
  const files = expandImports(file, fs.readFileSync(file, "utf8"), ctx, new Set([realBound(file)]), warnings);
  return { files, warnings, ids: files.map((f) => f.id) };
}

describe("findImports", () => {
  it("finds @paths at a line start or after whitespace, in order", () => {
    expect(findImports("@./a.md and @~/b.md\nsee @docs/c.md, then @/abs/d.md.")).toEqual(["./a.md", "~/b.md", "docs/c.md", "/abs/d.md"]);
  });
  it("skips emails, mentions, code spans and fenced blocks", () => {
    const text = "mail me@example.com or @octocat\n`@./span.md` is code\n```\n@./fenced.md\n```\n~~~md\n@./tilde.md\n~~~\n@./real.md";
    expect(findImports(text)).toEqual(["./real.md"]);
  });
});

describe("expandImports", () => {
  it("inlines four hops and cuts the fifth with a warning naming importer and target", () => {
    for (let i = 0; i < 6; i++) write(`project/chain/f${i}.md`, `level ${i} @./f${i + 1}.md`);
    const { ids, warnings, files } = expand(path.join(project, "chain/f0.md"));
    expect(ids).toEqual(["project/chain/f1.md", "project/chain/f2.md", "project/chain/f3.md", "project/chain/f4.md"]);
    expect(files[3]!.importedBy).toBe("project/chain/f3.md");
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(`${path.join(project, "chain/f4.md")}: import @./f5.md`);
    expect(warnings[0]).toContain("more than 4 hops");
  });

  it("a loop is a warning, and the files before it still load", () => {
    write("project/loop/a.md", "A @./b.md");
    write("project/loop/b.md", "B @./a.md @./c.md");
    write("project/loop/c.md", "C");
    const { ids, warnings } = expand(path.join(project, "loop/a.md"));
    expect(ids).toEqual(["project/loop/b.md", "project/loop/c.md"]);
    expect(warnings).toEqual([expect.stringMatching(/loop\/b\.md: import @\.\/a\.md .*an import loop \(project\/loop\/a\.md -> project\/loop\/b\.md -> project\/loop\/a\.md\)/)]);
  });

  it("a missing file is a warning; the next import still loads", () => {
    write("project/miss/a.md", "@./nope.md @./ok.md");
    write("project/miss/ok.md", "OK");
    const { ids, warnings } = expand(path.join(project, "miss/a.md"));
    expect(ids).toEqual(["project/miss/ok.md"]);
    expect(warnings[0]).toMatch(/miss\/a\.md: import @\.\/nope\.md .* not loaded: no such file/);
  });

  it("refuses /etc/hostname, ../ out of the project and a symlink that points outside", () => {
    fs.symlinkSync(path.join(tmp, "outside/secret.md"), path.join(project, "link.md"));
    write("project/bad.md", "@/etc/hostname\n@../outside/secret.md\n@./link.md\n");
    const { files, warnings } = expand(path.join(project, "bad.md"));
    expect(files).toEqual([]);
    expect(warnings).toHaveLength(3);
    expect(warnings[0]).toMatch(/@\/etc\/hostname .*(outside the project and home|no such file)/);
    expect(warnings[1]).toContain("@../outside/secret.md");
    expect(warnings[1]).toContain("outside the project and home directories");
    expect(warnings[2]).toContain(`a symlink to ${path.join(tmp, "outside/secret.md")}, outside the project and home directories`);
  });

  it("home files are importable (the guide bounds imports to project and home); secrets are not", () => {
    write("home/notes.md", "MY NOTES");
    write("home/.ssh/id_rsa", "PRIVATE KEY");
    write("home/.aws/credentials", "AWS");
    write("project/.env", "TOKEN=1");
    write("project/home.md", "@~/notes.md @~/.ssh/id_rsa @~/.aws/credentials @./.env");
    const { files, warnings } = expand(path.join(project, "home.md"));
    expect(files.map((f) => f.text)).toEqual(["MY NOTES"]);
    expect(warnings).toHaveLength(3);
    for (const w of warnings) expect(w).toContain("a secret file");
  });

  it("checkTarget answers with the realpath", () => {
    const f = write("project/plain.md", "x");
    expect(checkTarget(f, ctx)).toEqual({ real: f });
    expect(checkTarget(project, ctx)).toEqual({ refused: "not a file" });
  });
});

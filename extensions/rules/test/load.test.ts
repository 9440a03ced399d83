/** One load over real files: which files, in what order, with what state; the block and its caps. */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { Root } from "../../../kernel/api.js";
import { MEMORY_CLOSE, MEMORY_HEADER, type InstructionFile } from "../api.js";
import { renderBlock } from "../block.js";
import { parseRule } from "../frontmatter.js";
import { realBound } from "../imports.js";
import { loadMemory } from "../load.js";
import { readRoot, type RuleItem } from "../sources.js";

const tmp = realBound(fs.mkdtempSync(path.join(os.tmpdir(), "oc-rules-load-")));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));
const repo = path.join(tmp, "repo");
const home = path.join(tmp, "home");
const cwd = path.join(repo, "pkg", "app");
function write(rel: string, text: string): void {
  const f = path.join(tmp, rel);
  fs.mkdirSync(path.dirname(f), { recursive: true });
  fs.writeFileSync(f, text);
}
const root = (tier: Root["tier"], ecosystem: string, dir: string, plugin?: Root["plugin"]): Root => ({ tier, ecosystem, dir, project: cwd, trustedByDefault: tier !== "repo", ...(plugin ? { plugin } : {}) });
const walk = (roots: Root[]) => roots.flatMap((r) => readRoot(r).map((item): { item: RuleItem; root: Root } => ({ item, root: r })));

fs.mkdirSync(path.join(repo, ".git"), { recursive: true });
write("repo/CLAUDE.md", "ROOT CLAUDE @./docs/style.md");
write("repo/AGENTS.md", "ROOT AGENTS MIRROR");
write("repo/CLAUDE.local.md", "ROOT LOCAL");
write("repo/docs/style.md", "STYLE");
write("repo/pkg/AGENTS.md", "PKG AGENTS");
write("repo/pkg/app/CONTEXT.md", "APP CONTEXT");
write("repo/pkg/app/main.ts", "code");
write("repo/.claude/rules/ts.md", "---\npaths:\n  - \"**/*.ts\"\n---\nTS RULE\n");
write("repo/.claude/rules/py.md", "---\npaths: \"**/*.py\"\n---\nPY RULE\n");
write("repo/.cursor/rules/manual.mdc", "---\ndescription: ask me\nalwaysApply: false\n---\nMANUAL\n");
write("repo/.cursor/rules/always.mdc", "---\nalwaysApply: true\n---\nALWAYS\n");
write("repo/.cursor/rules/scoped.mdc", "---\nglobs: *.ts, *.tsx\nalwaysApply: false\n---\nCURSOR TS\n");
write("repo/pkg/app/.claude/rules/app.md", "APP RULE");
write("home/.claude/CLAUDE.md", "USER CLAUDE");
write("home/.claude/rules/mine.md", "USER RULE");
write("home/.config/opencode/AGENTS.md", "OPENCODE USER");
write("plugins/on/rules/p.md", "PLUGIN ON");
write("plugins/off/rules/p.md", "PLUGIN OFF");

const roots = [
  root("repo", "claude", path.join(cwd, ".claude")),
  root("user", "claude", path.join(home, ".claude")),
  root("user", "opencode", path.join(home, ".config/opencode")),
  root("plugin", "claude", path.join(tmp, "plugins/on"), { name: "on", enabled: true, trusted: false, source: "claude" }),
  root("plugin", "claude", path.join(tmp, "plugins/off"), { name: "off", enabled: false, trusted: false, source: "claude" }),
];
const mem = loadMemory({ project: cwd, home, walked: walk(roots) });
const byId = (id: string): InstructionFile | undefined => mem.files.find((f) => f.id === id);

describe("loadMemory", () => {
  it("lists every file in block order: user, plugins, then each level from the worktree root down", () => {
    expect(mem.files.map((f) => `${f.id} | ${f.state}`)).toEqual([
      "user:~/.claude/CLAUDE.md | active",
      "user:~/.claude/rules/mine.md | active",
      "user:~/.config/opencode/AGENTS.md | active",
      `plugin:on:${path.join(tmp, "plugins/on/rules/p.md")} | active`,
      `plugin:off:${path.join(tmp, "plugins/off/rules/p.md")} | disabled (plugin off)`,
      "CLAUDE.md | active",
      "docs/style.md | imported by CLAUDE.md",
      "AGENTS.md | shadowed by CLAUDE.md",
      "CLAUDE.local.md | active",
      ".claude/rules/py.md | scoped out (no match for **/*.py)",
      ".claude/rules/ts.md | active",
      ".cursor/rules/always.mdc | active",
      ".cursor/rules/manual.mdc | left out (alwaysApply: false)",
      ".cursor/rules/scoped.mdc | active",
      "pkg/AGENTS.md | active",
      "pkg/app/CONTEXT.md | active",
      "pkg/app/.claude/rules/app.md | active",
    ]);
    expect(mem.warnings).toEqual([]);
  });

  it("CLAUDE.md beats AGENTS.md at one level; AGENTS.md at another level still loads", () => {
    expect(mem.block).toContain("ROOT CLAUDE");
    expect(mem.block).not.toContain("ROOT AGENTS MIRROR");
    expect(mem.block).toContain("PKG AGENTS");
  });

  it("the block carries each loaded file under its path, verbatim and frontmatter-free, in order", () => {
    expect(mem.block.startsWith(MEMORY_HEADER)).toBe(true);
    expect(mem.block.endsWith(MEMORY_CLOSE)).toBe(true);
    const order = ["USER CLAUDE", "USER RULE", "OPENCODE USER", "PLUGIN ON", "ROOT CLAUDE", "STYLE", "ROOT LOCAL", "TS RULE", "ALWAYS", "CURSOR TS", "PKG AGENTS", "APP CONTEXT", "APP RULE"];
    const at = order.map((t) => mem.block.indexOf(t));
    expect(at.every((i) => i > 0)).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
    for (const gone of ["PLUGIN OFF", "PY RULE", "MANUAL", "alwaysApply", "paths:"]) expect(mem.block).not.toContain(gone);
    expect(mem.block).toContain(`Contents of ${path.join(repo, "docs/style.md")} (imported by CLAUDE.md):\n\nSTYLE`);
    expect(byId(".claude/rules/ts.md")?.scope).toEqual(["**/*.ts"]);
  });

  it("a scoped rule loads once the tree has a match (a fresh session)", () => {
    write("repo/tools/gen.py", "print()");
    const again = loadMemory({ project: cwd, home, walked: walk(roots) });
    expect(again.files.find((f) => f.id === ".claude/rules/py.md")?.state).toBe("active");
    fs.rmSync(path.join(repo, "tools"), { recursive: true });
  });

  it("an instruction file that is a symlink out of bounds is refused with a warning", () => {
    write("elsewhere/CLAUDE.md", "ELSEWHERE");
    fs.mkdirSync(path.join(tmp, "p2/sub"), { recursive: true });
    fs.symlinkSync(path.join(tmp, "elsewhere/CLAUDE.md"), path.join(tmp, "p2/CLAUDE.md"));
    const m = loadMemory({ project: path.join(tmp, "p2"), home, walked: [] });
    expect(m.files[0]?.state).toContain("refused (a symlink to");
    expect(m.block).toBe("");
    expect(m.warnings[0]).toContain(path.join(tmp, "p2/CLAUDE.md"));
  });
});

describe("frontmatter", () => {
  it("paths as string or list, globs as comma string (unquoted Cursor style), alwaysApply", () => {
    expect(parseRule("---\npaths: src/**/*.ts\n---\nB").scope).toEqual(["src/**/*.ts"]);
    expect(parseRule("---\npaths:\n  - a/**\n  - b/**\n---\nB").scope).toEqual(["a/**", "b/**"]);
    expect(parseRule("---\nglobs: *.ts,*.tsx\nalwaysApply: false\n---\nB")).toEqual({ scope: ["*.ts", "*.tsx"], alwaysApply: false, body: "B" });
    expect(parseRule("no frontmatter")).toEqual({ body: "no frontmatter" });
  });
});

describe("caps", () => {
  const f = (id: string, n: number): InstructionFile => ({ kind: "instruction", file: `/p/${id}`, id, layer: "repo", state: "active", text: "x".repeat(n) });
  it("a long file is cut with a marker naming it", () => {
    const b = renderBlock([f("big.md", 500)], 10_000, 100);
    expect(b).toContain("[... truncated: /p/big.md is longer; the first 100 characters are shown");
  });
  it("a huge file is read only up to what the block can show", () => {
    write("huge/CLAUDE.md", `HEAD ${"y".repeat(3_000_000)}`);
    const m = loadMemory({ project: path.join(tmp, "huge"), home, walked: [] });
    expect(m.files[0]!.text!.length).toBeLessThanOrEqual(80_004);
    expect(m.block).toContain("is longer; the first 20000 characters are shown");
    expect(m.block.length).toBeLessThan(21_000);
  });
  it("past 200 files a load reads no more: the rest are listed, left out, with one warning", () => {
    fs.mkdirSync(path.join(tmp, "many/.git"), { recursive: true });
    fs.mkdirSync(path.join(tmp, "many/sub"), { recursive: true });
    for (let i = 0; i < 110; i++) write(`many/.claude/rules/r${String(i).padStart(3, "0")}.md`, `R${i}`);
    for (let i = 0; i < 100; i++) write(`many/.cursor/rules/r${String(i).padStart(3, "0")}.mdc`, `C${i}`);
    const m = loadMemory({ project: path.join(tmp, "many/sub"), home, walked: [] });
    expect(m.files.filter((f) => f.state === "active")).toHaveLength(200);
    expect(m.files.filter((f) => f.state === "left out (more than 200 files)")).toHaveLength(10);
    expect(m.warnings).toEqual(["rules: more than 200 memory files; the rest are left out"]);
  });
  it("the block is capped and names the files left out", () => {
    const b = renderBlock([f("a.md", 900), f("b.md", 900), f("c.md", 900)], 1500, 1000);
    expect(b.length).toBeLessThan(1500 + 400);
    expect(b).toContain("[... memory truncated at 1500 characters; not shown: /p/c.md");
  });
});

/** The pure parts of the pager's input: what a line is, the did-you-mean, @ mentions, paste chips, memory notes. */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { classify, didYouMean } from "../user-input.js";
import { completeMention, insideProject, mentionAt, mentionsIn } from "../mentions.js";
import { PasteChips, isLargePaste } from "../paste-chips.js";
import { appendMemory, memoryTargets } from "../memory-note.js";
import { withFolders } from "../file-index.js";

describe("classify", () => {
  it("tells !cmd, #note, /word and messages apart; a path is a message", () => {
    expect(classify("!ls -la")).toEqual({ kind: "bang", command: "ls -la" });
    expect(classify("# remember tabs")).toEqual({ kind: "memory", text: "remember tabs" });
    expect(classify("## Heading\nbody").kind).toBe("message");
    expect(classify("/cost")).toEqual({ kind: "slash", name: "cost" });
    expect(classify("/usr/bin/env x").kind).toBe("message");
    expect(classify("/tmp/a.log is big").kind).toBe("message");
    expect(classify("!").kind).toBe("message");
  });
  it("did-you-mean: aliases, prefixes, one slip", () => {
    const known = ["help", "clear", "exit", "models", "resume", "context", "tideline"];
    expect(didYouMean("cost", known)[0]).toBe("context");
    expect(didYouMean("compact", known)[0]).toBe("tideline");
    expect(didYouMean("hepl", known)).toEqual(["help"]);
    expect(didYouMean("mod", known)).toContain("models");
    expect(didYouMean("zzzzzz", known)).toEqual([]);
  });
});

describe("@ mentions", () => {
  it("finds mentions at word starts, not in e-mail addresses; completes the open one", () => {
    expect(mentionsIn("see @src/a.ts, and @b.md. mail me@x.org")).toEqual(["src/a.ts", "b.md"]);
    expect(mentionAt("explain @sr", 11)).toEqual({ start: 8, query: "sr" });
    expect(mentionAt("a@b", 3)).toBeUndefined();
    expect(completeMention("explain @sr now", 11, "src/a.ts")).toEqual({ value: "explain @src/a.ts  now", cursor: 18 });
    expect(completeMention("@sr", 3, "src/")).toEqual({ value: "@src/", cursor: 5 });
  });
  it("only paths inside the project (symlinks resolved) are attached", () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), "oc-mention-"));
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), "oc-mention-out-"));
    fs.writeFileSync(path.join(root, "a.txt"), "a");
    fs.writeFileSync(path.join(outside, "secret.txt"), "s");
    fs.symlinkSync(path.join(outside, "secret.txt"), path.join(root, "link.txt"));
    expect(insideProject(root, "a.txt")?.dir).toBe(false);
    expect(insideProject(root, ".")?.dir).toBe(true);
    expect(insideProject(root, "link.txt")).toBeUndefined();
    expect(insideProject(root, `../${path.basename(outside)}/secret.txt`)).toBeUndefined();
    fs.rmSync(root, { recursive: true, force: true });
    fs.rmSync(outside, { recursive: true, force: true });
  });
  it("lists each folder once, before the files", () => {
    expect(withFolders(["a/b/c.ts", "a/d.ts", "e.ts"])).toEqual(["a/", "a/b/", "a/b/c.ts", "a/d.ts", "e.ts"]);
  });
});

describe("paste chips and memory notes", () => {
  it("a large paste becomes a numbered chip that expands back whole", () => {
    const big = Array.from({ length: 12 }, (_, i) => `l${i}`).join("\n");
    expect(isLargePaste(big)).toBe(true);
    expect(isLargePaste("short\ntext")).toBe(false);
    expect(isLargePaste("x".repeat(1001))).toBe(true);
    const c = new PasteChips();
    const label = c.add(big);
    expect(label).toBe("[Pasted text #1 +12 lines]");
    expect(c.expand(`see ${label} ok`)).toBe(`see ${big} ok`);
    expect(c.add("y".repeat(1500))).toBe("[Pasted text #2 1500 chars]");
  });
  it("appends a note line, makes the file, refuses a symlink; AGENTS.md is used when it is the project's file", () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), "oc-memory-"));
    const home = path.join(root, "home");
    const [project, , user] = memoryTargets(root, home);
    expect(path.basename(project!.file)).toBe("CLAUDE.md");
    expect(appendMemory(user!.file, "use pnpm")).toBeUndefined();
    expect(appendMemory(user!.file, "two\nlines")).toBeUndefined();
    expect(fs.readFileSync(user!.file, "utf8")).toBe("- use pnpm\n- two lines\n");
    fs.writeFileSync(path.join(root, "AGENTS.md"), "# rules");
    expect(path.basename(memoryTargets(root, home)[0]!.file)).toBe("AGENTS.md");
    expect(appendMemory(path.join(root, "AGENTS.md"), "x")).toBeUndefined();
    expect(fs.readFileSync(path.join(root, "AGENTS.md"), "utf8")).toBe("# rules\n- x\n");
    fs.symlinkSync(path.join(root, "AGENTS.md"), path.join(root, "CLAUDE.local.md"));
    expect(appendMemory(path.join(root, "CLAUDE.local.md"), "y")).toMatch(/symbolic link/);
    fs.rmSync(root, { recursive: true, force: true });
  });
});

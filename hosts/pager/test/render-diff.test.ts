/**
 * Diffs (the tools' fileDiff data, the pager's drawing of it) and the tool one-liners. The edit and
 * write tools run for real on a temp folder: their results and previews carry the diff.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { MAX_DIFF_LINES } from "../../../extensions/tools/api.js";
import { fileDiff } from "../../../extensions/tools/kit.js";
import { harness } from "../../../extensions/tools/test/helpers.js";
import { collapsedDiff, DIFF_HUNKS, fullDiff, safeDiff } from "../render/diff.js";
import { unpaint, type Paint } from "../render/style.js";
import { toolLine, todoRows } from "../render/tool-line.js";
import { toolHead } from "../store.js";

const COLOR: Paint = { color: true, links: false };
const h = harness();
const project = h.project;
const dir = h.root;
afterAll(() => h.cleanup());

describe("fileDiff", () => {
  it("hunks with context, counts of added and removed lines", () => {
    const before = Array.from({ length: 30 }, (_, i) => `line ${i + 1}`).join("\n") + "\n";
    const after = before.replace("line 5\n", "line five\n").replace("line 25\n", "");
    const d = fileDiff("/p/a.txt", before, after)!;
    expect(d).toMatchObject({ path: "/p/a.txt", added: 1, removed: 2 });
    expect(d.hunks).toHaveLength(2);
    expect(d.hunks[0]!.lines).toEqual([" line 2", " line 3", " line 4", "-line 5", "+line five", " line 6", " line 7", " line 8"]);
    expect(d.created).toBeUndefined();
  });

  it("a new file is its first lines, all added; a huge change is cut with truncated set", () => {
    const d = fileDiff("/p/new.ts", undefined, "a\nb\n")!;
    expect(d).toEqual({ path: "/p/new.ts", created: true, added: 2, removed: 0, hunks: [{ oldStart: 0, oldLines: 0, newStart: 1, newLines: 2, lines: ["+a", "+b"] }] });
    const big = Array.from({ length: MAX_DIFF_LINES * 2 }, (_, i) => `x${i}`).join("\n");
    const cut = fileDiff("/p/big", undefined, big)!;
    expect(cut.truncated).toBe(true);
    expect(cut.added).toBe(MAX_DIFF_LINES * 2);
    expect(cut.hunks[0]!.lines).toHaveLength(MAX_DIFF_LINES);
  });
});

describe("edit and write hand the host a diff", () => {
  it("edit's result and its permission preview carry the change; write's too, a new file as created", async () => {
    const file = h.file("src.txt", "one\ntwo three four\nfive\n");
    const edit = h.tools.get("edit")!;
    const write = h.tools.get("write")!;
    const input = { file_path: "src.txt", old_string: "two three four", new_string: "two THREE four" };
    const preview = edit.preview!(input, project)!;
    expect(preview.diff!.hunks[0]!.lines).toEqual([" one", "-two three four", "+two THREE four", " five"]);
    expect(fs.readFileSync(file, "utf8")).toBe("one\ntwo three four\nfive\n"); // a preview changes nothing
    await h.call("read", { file_path: "src.txt" });
    const out = await h.call("edit", input);
    expect(out.diff).toMatchObject({ path: file, added: 1, removed: 1 });
    const w = await h.call("write", { file_path: "made.md", content: "# hi\n" });
    expect(w.diff).toMatchObject({ created: true, added: 1, hunks: [{ lines: ["+# hi"] }] });
    expect(write.preview!({ file_path: "src.txt", content: "one\n" }, project)!.diff).toMatchObject({ removed: 2, added: 0 });
  });

  it("a preview does not read a file outside the project or a secret env file: only the replaced text is shown", () => {
    const outside = path.join(dir, "outside.txt");
    fs.writeFileSync(outside, "CANARY-CONTEXT-LINE\nsecret=1\n");
    fs.writeFileSync(path.join(project, ".env"), "CANARY-ENV-LINE\nTOKEN=abc\n");
    const edit = h.tools.get("edit")!;
    for (const file of [outside, ".env"]) {
      const d = edit.preview!({ file_path: file, old_string: file === ".env" ? "TOKEN=abc" : "secret=1", new_string: "x=2" }, project)!.diff!;
      expect(JSON.stringify(d)).not.toContain("CANARY");
      expect(d.hunks[0]!.lines).toEqual([file === ".env" ? "-TOKEN=abc" : "-secret=1", "+x=2"]);
      // no line numbers are claimed
      expect(unpaint(fullDiff(d, 60, COLOR)[0]!)).toMatch(/^ +- /);
    }
    const write = h.tools.get("write")!;
    const wd = write.preview!({ file_path: outside, content: "new\n" }, project)!.diff!;
    expect(JSON.stringify(wd)).not.toContain("CANARY");
    expect(wd.created).toBeUndefined();
  });
});

describe("the pager's diff drawing", () => {
  const before = Array.from({ length: 60 }, (_, i) => `row ${i}`).join("\n");
  const after = before
    .split("\n")
    .map((l, i) => (i % 12 === 3 ? l.replace("row", "ROW") : l))
    .join("\n");
  const d = fileDiff("/p/f.txt", before, after)!;

  it("- rows red and + rows green with line numbers, the changed words highlighted", () => {
    const rows = fullDiff(fileDiff("/p/a", "keep\nthe old word here\n", "keep\nthe new word here\n")!, 80, COLOR);
    expect(rows.map(unpaint)).toEqual(["1   keep", "2 - the old word here", "2 + the new word here"]);
    expect(rows[1]).toContain("\x1b[31m\x1b[48;5;52m- ");
    expect(rows[1]).toContain("\x1b[1m\x1b[91m\x1b[48;5;88mold");
    expect(rows[2]).toContain("\x1b[1m\x1b[92m\x1b[48;5;28mnew");
    expect(rows[2]).toContain("\x1b[32m\x1b[48;5;22m word here");
  });

  it("collapsed past a few hunks, saying how many rows are left for ctrl+r", () => {
    expect(d.hunks.length).toBeGreaterThan(DIFF_HUNKS);
    const c = collapsedDiff(d, 80, COLOR);
    const all = fullDiff(d, 80, COLOR);
    expect(c.rows.length).toBeLessThan(all.length);
    expect(c.rows.length + c.hidden).toBe(all.length);
    for (const r of all) expect(unpaint(r).length).toBeLessThanOrEqual(80);
  });

  it("file text is made display-safe before drawing", () => {
    const evil = safeDiff(fileDiff("/p/\x1b[2Jx", "a\n", "b \x1b]0;title\x07\u202e\n")!);
    const rows = fullDiff(evil, 80, COLOR).join("\n");
    expect(evil.path).toBe("/p/␛[2Jx");
    expect(rows).toContain("␛]0;title␇<U+202E>");
    expect(rows.replace(/\x1b\[[0-9;]*m/g, "")).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f-\x9f]/);
  });
});

describe("tool one-liners", () => {
  const call = (name: string, input: Record<string, unknown>) => ({ id: "c", name, input });
  it("each tool reads as a sentence, never JSON", () => {
    expect(toolLine(call("bash", { command: "npm test\n--watch" }))).toBe("$ npm test …");
    expect(toolLine(call("read", { file_path: "/w/p/src/a.ts", offset: 10, limit: 50 }), { cwd: "/w/p" })).toBe("Read src/a.ts · lines 10-59");
    expect(toolLine(call("read", { file_path: "/elsewhere/a.ts" }), { cwd: "/w/p" })).toBe("Read /elsewhere/a.ts");
    expect(toolLine(call("grep", { pattern: "TODO", path: "src", glob: "*.ts" }))).toBe('Search "TODO" in src (*.ts)');
    expect(toolLine(call("glob", { pattern: "**/*.md" }))).toBe("Find **/*.md");
    const diff = fileDiff("/w/p/a.ts", "a\nb\n", "a\nc\nd\n")!;
    expect(toolLine(call("edit", { file_path: "/w/p/a.ts" }), { cwd: "/w/p", diff })).toBe("Edit a.ts +2 −1");
    expect(toolLine(call("write", { file_path: "n.ts" }), { diff: fileDiff("n.ts", undefined, "x\ny\n")! })).toBe("Create n.ts +2");
    expect(toolLine(call("todo_write", { todos: [{}, {}] }))).toBe("Update todos (2 items)");
    expect(toolLine(call("mcp__github__create_issue", { title: "Fix the parser", labels: ["bug"], body: { a: 1 } }))).toBe('github·create_issue(title: "Fix the parser", labels: [1], body: {…})');
    expect(toolLine(call("custom", { a: "x".repeat(100), b: 2, c: true, d: null }))).toBe(`custom(a: "${"x".repeat(39)}…", b: 2, c: true, …)`);
  });

  it("the head the store keeps is display-safe", () => {
    expect(toolHead(call("bash", { command: "echo \x1b[2J" }))).toBe("$ echo ␛[2J");
  });

  it("todo_write's list as checklist rows", () => {
    expect(todoRows({ todos: [{ content: "A", status: "completed" }, { content: "B", activeForm: "Doing B", status: "in_progress" }, { content: "C", status: "pending" }, { content: "D", status: "cancelled" }, "junk"] })).toEqual([
      { mark: "☑", text: "A", status: "completed" },
      { mark: "▶", text: "Doing B", status: "in_progress" },
      { mark: "☐", text: "C", status: "pending" },
      { mark: "✗", text: "D", status: "cancelled" },
    ]);
  });
});

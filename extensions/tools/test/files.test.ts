import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { harness, sleep, type Harness } from "./helpers.js";

let h: Harness;
afterEach(() => h?.cleanup());

/** A file that existed before the session's first tool call (birth time well before it). */
async function preexisting(rel: string, content: string): Promise<string> {
  const p = h.file(rel, content);
  await sleep(60);
  return p;
}

describe("read", () => {
  it("numbers lines cat -n style, with offset and limit", async () => {
    h = harness();
    h.file("a.txt", "alpha\nbeta\ngamma\ndelta\n");
    expect((await h.call("read", { file_path: "a.txt" })).content).toBe("     1\talpha\n     2\tbeta\n     3\tgamma\n     4\tdelta");
    const part = await h.call("read", { file_path: "a.txt", offset: 2, limit: 2 });
    expect(part.content).toBe("     2\tbeta\n     3\tgamma\n\n(showing lines 2-3 of 4; use offset 4 to read more)");
    expect((await h.call("read", { file_path: "a.txt", offset: 9 })).content).toContain("offset 9 is past the end");
  });

  it("defaults to 2000 lines and cuts long lines", async () => {
    h = harness({ maxOutputChars: 10_000_000 });
    h.file("big.txt", `${"x".repeat(5000)}\n${Array.from({ length: 2500 }, (_, i) => `l${i + 2}`).join("\n")}\n`);
    const out = await h.call("read", { file_path: path.join(h.project, "big.txt") });
    const lines = out.content.split("\n");
    expect(lines[0]).toBe(`     1\t${"x".repeat(2000)}… [line cut: 5000 chars]`);
    expect(lines[1999]).toBe("  2000\tl2000");
    expect(out.content.endsWith("(showing lines 1-2000 of 2501; use offset 2001 to read more)")).toBe(true);
  });

  it("refuses directories (pointing at ls), binary and missing files", async () => {
    h = harness();
    fs.mkdirSync(path.join(h.project, "dir"));
    h.file("bin.dat", Buffer.from([0x89, 0x50, 0x00, 0x01]));
    const d = await h.call("read", { file_path: "dir" });
    expect(d.isError).toBe(true);
    expect(d.content).toContain("is a directory; use ls");
    const b = await h.call("read", { file_path: "bin.dat" });
    expect(b.isError).toBe(true);
    expect(b.content).toContain("is a binary file");
    const m = await h.call("read", { file_path: "nope.txt" });
    expect(m.content).toContain("does not exist");
  });

  it("an image file is handed over as an image (base64), not refused as binary", async () => {
    h = harness();
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00]);
    h.file("shot.png", png);
    const r = await h.call("read", { file_path: "shot.png" });
    expect(r.isError).toBeFalsy();
    expect(r.content).toMatch(/\(image .*shot\.png, image\/png, 10 bytes\)/);
    expect(r.images).toEqual([{ mediaType: "image/png", data: png.toString("base64") }]);
  });

  it("never reads .env, *.env or *.env.* files; .env.example reads", async () => {
    h = harness();
    for (const name of [".env", "prod.env", ".env.local", "config/app.env.production"]) {
      h.file(name, "API_KEY=secret-value\n");
      const out = await h.call("read", { file_path: name });
      expect(out.isError, name).toBe(true);
      expect(out.content, name).toContain("looks like a secrets file");
      expect(out.content, name).not.toContain("secret-value");
    }
    fs.symlinkSync(".env", path.join(h.project, "innocent.txt"));
    expect((await h.call("read", { file_path: "innocent.txt" })).content).toContain("looks like a secrets file");
    h.file(".env.example", "API_KEY=\n");
    expect((await h.call("read", { file_path: ".env.example" })).content).toBe("     1\tAPI_KEY=");
    h.file("environment.ts", "x\n");
    expect((await h.call("read", { file_path: "environment.ts" })).isError).toBeFalsy();
  });
});

describe("write and edit: read-before-write and stale detection", () => {
  it("a brand-new file writes freely, and counts as read afterwards", async () => {
    h = harness();
    const out = await h.call("write", { file_path: "src/new.ts", content: "one\n" });
    expect(out.content).toMatch(/^Created .*src\/new\.ts \(4 bytes\)$/);
    expect(fs.readFileSync(path.join(h.project, "src/new.ts"), "utf8")).toBe("one\n");
    expect((await h.call("edit", { file_path: "src/new.ts", old_string: "one", new_string: "two" })).isError).toBeFalsy();
    expect((await h.call("write", { file_path: "src/new.ts", content: "three\n" })).isError).toBeFalsy();
    expect(fs.readFileSync(path.join(h.project, "src/new.ts"), "utf8")).toBe("three\n");
  });

  it("refuses to change an existing file not read this session, and allows it after a read", async () => {
    h = harness();
    await preexisting("old.txt", "keep me\n");
    await h.call("ls", {}); // the session's first tool call comes after the file's birth
    for (const [tool, input] of [
      ["write", { file_path: "old.txt", content: "x" }],
      ["edit", { file_path: "old.txt", old_string: "keep", new_string: "lose" }],
    ] as const) {
      const out = await h.call(tool, input);
      expect(out.isError).toBe(true);
      expect(out.content).toContain("file exists but has not been read this session");
    }
    expect(fs.readFileSync(path.join(h.project, "old.txt"), "utf8")).toBe("keep me\n");
    await h.call("read", { file_path: "old.txt" });
    expect((await h.call("write", { file_path: "old.txt", content: "new\n" })).isError).toBeFalsy();
    expect(fs.readFileSync(path.join(h.project, "old.txt"), "utf8")).toBe("new\n");
  });

  it("a small file this session created (e.g. by bash) can be overwritten without a read", async () => {
    h = harness();
    await h.call("ls", {}); // first tool call: starts the session clock
    await h.call("bash", { command: "echo generated > gen.txt" });
    expect(fs.statSync(path.join(h.project, "gen.txt")).birthtimeMs).toBeGreaterThan(0);
    const out = await h.call("write", { file_path: "gen.txt", content: "replaced\n" });
    expect(out.isError).toBeFalsy();
    expect(fs.readFileSync(path.join(h.project, "gen.txt"), "utf8")).toBe("replaced\n");
  });

  it("the exception needs the file under 64 KiB and born after the first tool call", async () => {
    h = harness();
    await preexisting("before.txt", "x\n");
    await h.call("ls", {});
    // edited since, but born before the session: still refused
    fs.appendFileSync(path.join(h.project, "before.txt"), "more\n");
    expect((await h.call("write", { file_path: "before.txt", content: "y" })).content).toContain("has not been read this session");
    await h.call("bash", { command: "head -c 70000 /dev/zero | tr '\\0' a > big.txt" });
    expect((await h.call("write", { file_path: "big.txt", content: "y" })).content).toContain("has not been read this session");
  });

  it("refuses a target changed on disk since it was read, even at the same size and mtime", async () => {
    h = harness();
    const p = await preexisting("s.txt", "aaaa\n");
    const when = 1_700_000_000; // whole seconds: utimes keeps them exactly
    fs.utimesSync(p, when, when);
    await h.call("read", { file_path: "s.txt" });
    const st = fs.statSync(p);
    fs.writeFileSync(p, "bbbb\n");
    fs.utimesSync(p, when, when);
    expect(fs.statSync(p).size).toBe(st.size);
    expect(fs.statSync(p).mtimeMs).toBe(st.mtimeMs);
    for (const [tool, input] of [
      ["write", { file_path: "s.txt", content: "x" }],
      ["edit", { file_path: "s.txt", old_string: "bbbb", new_string: "cccc" }],
    ] as const) {
      const out = await h.call(tool, input);
      expect(out.isError).toBe(true);
      expect(out.content).toContain("modified since it was last read; read it again");
    }
    expect(fs.readFileSync(p, "utf8")).toBe("bbbb\n");
    await h.call("read", { file_path: "s.txt" });
    expect((await h.call("edit", { file_path: "s.txt", old_string: "bbbb", new_string: "cccc" })).isError).toBeFalsy();
  });

  it("other files changing never invalidate a read", async () => {
    h = harness();
    await preexisting("a.txt", "a\n");
    await preexisting("b.txt", "b\n");
    await h.call("read", { file_path: "a.txt" });
    fs.writeFileSync(path.join(h.project, "b.txt"), "changed\n");
    await h.call("bash", { command: "echo noise > c.txt" });
    expect((await h.call("edit", { file_path: "a.txt", old_string: "a", new_string: "A" })).isError).toBeFalsy();
  });

  it("reads are per session: another session's state knows nothing", async () => {
    h = harness();
    await preexisting("a.txt", "a\n");
    await h.call("read", { file_path: "a.txt" });
    h.state.clear(); // a fresh session (or a new process) starts with no reads
    expect((await h.call("write", { file_path: "a.txt", content: "z" })).content).toContain("has not been read this session");
  });
});

describe("edit", () => {
  it("replaces a unique exact match and shows the changed lines", async () => {
    h = harness();
    h.file("f.ts", "const a = 1;\nconst b = 2;\n");
    await h.call("read", { file_path: "f.ts" });
    const out = await h.call("edit", { file_path: "f.ts", old_string: "const b = 2;", new_string: "const b = $&3;" });
    expect(out.content).toContain("1 replacement");
    expect(out.content).toContain("     2\tconst b = $&3;");
    expect(fs.readFileSync(path.join(h.project, "f.ts"), "utf8")).toBe("const a = 1;\nconst b = $&3;\n");
  });

  it("requires a unique match unless replace_all, and says how many matched", async () => {
    h = harness();
    h.file("f.txt", "x y x y x\n");
    await h.call("read", { file_path: "f.txt" });
    const many = await h.call("edit", { file_path: "f.txt", old_string: "x", new_string: "z" });
    expect(many.isError).toBe(true);
    expect(many.content).toContain("old_string matches 3 times");
    const all = await h.call("edit", { file_path: "f.txt", old_string: "x", new_string: "z", replace_all: true });
    expect(all.content).toContain("3 replacements");
    expect(fs.readFileSync(path.join(h.project, "f.txt"), "utf8")).toBe("z y z y z\n");
  });

  it("refuses old == new, a missing match and a missing file", async () => {
    h = harness();
    h.file("f.txt", "hello\n");
    await h.call("read", { file_path: "f.txt" });
    expect((await h.call("edit", { file_path: "f.txt", old_string: "hello", new_string: "hello" })).content).toContain("identical");
    expect((await h.call("edit", { file_path: "f.txt", old_string: "bye", new_string: "x" })).content).toContain("was not found");
    expect((await h.call("edit", { file_path: "g.txt", old_string: "a", new_string: "b" })).content).toContain("does not exist; use write");
    expect(fs.readFileSync(path.join(h.project, "f.txt"), "utf8")).toBe("hello\n");
  });

  it("maps to Claude Code's Edit/Write/Read with absolute paths and project-relative rule subjects", () => {
    h = harness();
    const edit = h.tools.get("edit")!;
    expect(edit.claudeName).toBe("Edit");
    expect(edit.kind).toBe("edit");
    const input = { file_path: "src/x.ts", old_string: "a", new_string: "b", replace_all: false };
    expect(edit.toClaudeInput!(input, h.project)).toEqual({ ...input, file_path: path.join(h.project, "src/x.ts") });
    expect(edit.ruleSubject!(input, h.project)).toBe("src/x.ts");
    expect(edit.ruleSubject!({ file_path: "/etc/passwd" }, h.project)).toBe("/etc/passwd");
    expect(h.tools.get("write")!.claudeName).toBe("Write");
    expect(h.tools.get("read")!.kind).toBe("read");
  });
});

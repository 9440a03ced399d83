import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { isInside, isSecretEnvFile, resolveToolPath, toolPaths } from "../kit.js";
import { harness, type Harness } from "./helpers.js";

let h: Harness;
afterEach(() => h?.cleanup());

describe("resolveToolPath and refs", () => {
  it("expands @name/rest to the ref root, leaves unknown aliases literal, flags escapes", () => {
    const refs = { docs: "/srv/docs", rel: "../shared", home: "~/notes" };
    const o = { cwd: "/p/sub", project: "/p", home: "/home/u", refs };
    expect(resolveToolPath("@docs/guide/a.md", o)).toEqual({ path: "/srv/docs/guide/a.md", ref: { name: "docs", root: "/srv/docs", inside: true } });
    expect(resolveToolPath("@docs", o).path).toBe("/srv/docs");
    expect(resolveToolPath("@rel/x", o).ref).toEqual({ name: "rel", root: "/shared", inside: true });
    expect(resolveToolPath("@home/x", o).path).toBe("/home/u/notes/x");
    expect(resolveToolPath("@docs/../escape", o)).toEqual({ path: "/srv/escape", ref: { name: "docs", root: "/srv/docs", inside: false } });
    expect(resolveToolPath("@nope/x", o)).toEqual({ path: "/p/sub/@nope/x" });
    expect(resolveToolPath("~/x", o).path).toBe("/home/u/x");
    expect(resolveToolPath("a/../b", o).path).toBe("/p/sub/b");
  });

  it("isInside catches symlink escapes", () => {
    h = harness();
    const outside = path.join(h.root, "outside");
    fs.mkdirSync(outside);
    fs.symlinkSync(outside, path.join(h.project, "link"));
    expect(isInside(path.join(h.project, "src/new.ts"), h.project)).toBe(true);
    expect(isInside(path.join(h.project, "link/secret"), h.project)).toBe(false);
    expect(isInside(path.join(h.project, "../project2"), h.project)).toBe(false);
  });

  it("toolPaths names what a call touches", () => {
    const o = { cwd: "/p", project: "/p", home: "/h", refs: { docs: "/d" } };
    expect(toolPaths("edit", { file_path: "@docs/a" }, o)).toEqual([{ path: "/d/a", ref: { name: "docs", root: "/d", inside: true }, access: "write" }]);
    expect(toolPaths("grep", { pattern: "x" }, o)).toEqual([{ path: "/p", access: "read" }]);
    expect(toolPaths("bash", { command: "ls", workdir: "/tmp" }, o)).toEqual([{ path: "/tmp", access: "cwd" }]);
    expect(toolPaths("read", {}, o)).toEqual([]);
    expect(toolPaths("mcp__x", { file_path: "/a" }, o)).toEqual([]);
  });

  it("classifies secret env files", () => {
    for (const f of [".env", "prod.env", ".env.local", "a/b/.env.production", "x.env.y"]) expect(isSecretEnvFile(f), f).toBe(true);
    for (const f of [".env.example", "app.env.example", "environment.ts", "env", ".envrc", "dotenv.js"]) expect(isSecretEnvFile(f), f).toBe(false);
  });

  it("file tools reach a ref root through @name paths", async () => {
    const docs = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "oc-refs-")));
    const docsDir = () => docs;
    h = harness({ refs: { docs } });
    fs.writeFileSync(path.join(docsDir(), "guide.md"), "# Guide\n");
    expect((await h.call("read", { file_path: "@docs/guide.md" })).content).toBe("     1\t# Guide");
    expect((await h.call("edit", { file_path: "@docs/guide.md", old_string: "Guide", new_string: "Manual" })).isError).toBeFalsy();
    expect(fs.readFileSync(path.join(docsDir(), "guide.md"), "utf8")).toBe("# Manual\n");
    expect((await h.call("ls", { path: "@docs" })).content).toContain("guide.md");
    expect(h.tools.get("read")!.toClaudeInput!({ file_path: "@docs/guide.md" }, h.project)).toEqual({ file_path: path.join(docsDir(), "guide.md") });
    fs.rmSync(docs, { recursive: true, force: true });
  });
});

describe("output limit for every tool", () => {
  it("a long read is truncated for the model with the full text kept", async () => {
    h = harness({ maxOutputChars: 1000 });
    h.file("long.txt", Array.from({ length: 500 }, (_, i) => `line ${i + 1}`).join("\n"));
    const out = await h.call("read", { file_path: "long.txt" }, { callId: "call_read" });
    const t = out.metadata?.truncated as { fullBytes: number; fullPath: string };
    expect(path.basename(t.fullPath)).toBe("call_read.txt");
    const full = fs.readFileSync(t.fullPath, "utf8");
    expect(full).toContain("   500\tline 500");
    expect(t.fullBytes).toBe(Buffer.byteLength(full));
    expect(out.content).toContain("     1\tline 1\n");
    expect(out.content).toMatch(/\[truncated \d+ bytes; full output kept at /);
    expect(out.content.endsWith("   500\tline 500")).toBe(true);
  });
});

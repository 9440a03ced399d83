import { describe, it, expect, beforeAll, afterAll } from "vitest";
import fs from "node:fs";
import path from "node:path";
import { makeSandbox, runCliAsync, REPO_ROOT, type Sandbox } from "../helpers/cli.js";

const corpus = fs
  .readFileSync(path.join(REPO_ROOT, "test", "fixtures", "floor-corpus.txt"), "utf8")
  .split("\n")
  .filter((l) => l.trim() && !l.startsWith("#"));

describe("the dangerous floor against an obfuscated corpus (checked, never executed)", () => {
  let sb: Sandbox;
  beforeAll(() => {
    sb = makeSandbox();
    // even with everything allowed and bypassPermissions, the floor holds
    sb.write(".oceancode/oceancode.json", JSON.stringify({ permission: ["bash * allow"], permission_mode: "bypassPermissions", shell: { allow: ["Bash(*)"] } }));
  });
  afterAll(() => sb.cleanup());

  it("has a real corpus", () => expect(corpus.length).toBeGreaterThan(50));

  it("denies every line", async () => {
    const results: Array<{ cmd: string; out: string }> = [];
    for (let i = 0; i < corpus.length; i += 16) {
      const batch = corpus.slice(i, i + 16);
      const rs = await Promise.all(batch.map((cmd) => runCliAsync(["--dir", sb.project, "permissions", "check", "bash", cmd], { env: sb.env })));
      rs.forEach((r, j) => {
        expect(r.code, r.stderr).toBe(0);
        results.push({ cmd: batch[j]!, out: r.stdout });
      });
    }
    const notDenied = results.filter((r) => r.out.split("\n")[0] !== "DENY").map((r) => `${r.cmd}\n${r.out}`);
    expect(notDenied).toEqual([]);
    for (const r of results) expect(r.out).toMatch(/layer: floor/);
  }, 240_000);
});

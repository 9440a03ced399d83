/**
 * The shell snapshot's cost follows what changed: the tree watcher names changed paths (new and renamed
 * directories whole), and the private index brought up to date from them gives the same tree id as a full
 * scan of the work tree, after edits, creations, deletions, renames of files and directories, and ignored files.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ShadowRepo } from "../shadow.js";
import { TreeWatcher } from "../watch.js";

let root = "";
const closers: Array<{ close(): void }> = [];
afterEach(() => {
  for (const c of closers.splice(0)) c.close();
  if (root) fs.rmSync(root, { recursive: true, force: true });
  root = "";
});

function tree(files: Record<string, string>): string {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "oc-watch-"));
  const w = path.join(root, "w");
  for (const [f, c] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(w, f)), { recursive: true });
    fs.writeFileSync(path.join(w, f), c);
  }
  return w;
}

/** A second private index over the same tree, scanned whole: the tree id the incremental one must match. */
async function fullTree(w: string, n: number): Promise<string> {
  const other = new ShadowRepo(path.join(root, `full${n}`), w);
  await other.init();
  return other.scan();
}

describe("checkpoints: the tree watcher", () => {
  it("names changed files, a new directory whole, and a removed one; unwatched directories stay silent", async () => {
    const w = tree({ "a.txt": "a", "src/b.txt": "b", "src/deep/c.txt": "c", "node_modules/m/i.js": "m" });
    const tw = new TreeWatcher(w, path.join(root, "fence"), (rel) => path.basename(rel) === "node_modules");
    closers.push(tw);
    expect(tw.start()).toBe(true);
    expect(tw.size).toBe(3); // ., src, src/deep: never node_modules
    fs.writeFileSync(path.join(w, "src/deep/c.txt"), "c2");
    fs.mkdirSync(path.join(w, "new/inner"), { recursive: true });
    fs.writeFileSync(path.join(w, "new/inner/n.txt"), "n");
    fs.writeFileSync(path.join(w, "node_modules/m/i.js"), "changed");
    fs.rmSync(path.join(w, "a.txt"));
    await tw.fence();
    const t = tw.take();
    expect(t.full).toBe(false);
    expect(t.paths.sort()).toEqual(["a.txt", "new", "src/deep/c.txt"]);
    // the new directory is watched from now on
    fs.writeFileSync(path.join(w, "new/inner/m.txt"), "m");
    await tw.fence();
    expect(tw.take().paths).toEqual(["new/inner/m.txt"]);
    await tw.fence();
    expect(tw.take()).toEqual({ paths: [], full: false });
  });

  it("the index brought up to date from the watcher's paths gives the tree id a full scan gives, step after step", async () => {
    const files: Record<string, string> = { ".gitignore": "*.log\nbuild/\n" };
    for (let d = 0; d < 5; d++) for (let f = 0; f < 5; f++) files[`d${d}/s/f${f}.txt`] = `${d}${f}`;
    const w = tree(files);
    fs.mkdirSync(path.join(w, "build"));
    const repo = new ShadowRepo(path.join(root, "shadow"), w);
    closers.push(repo);
    await repo.init();
    const steps: Array<() => void> = [
      () => fs.writeFileSync(path.join(w, "d0/s/f0.txt"), "edited"),
      () => fs.rmSync(path.join(w, "d1"), { recursive: true }),
      () => fs.renameSync(path.join(w, "d2"), path.join(w, "moved")),
      () => fs.writeFileSync(path.join(w, "moved/s/f1.txt"), "edited after the move"),
      () => {
        fs.mkdirSync(path.join(w, "fresh/a/b"), { recursive: true });
        fs.writeFileSync(path.join(w, "fresh/a/b/x.txt"), "x");
        fs.writeFileSync(path.join(w, "noise.log"), "ignored");
        fs.writeFileSync(path.join(w, "build/out.js"), "ignored dir");
      },
      () => fs.renameSync(path.join(w, "d3/s/f2.txt"), path.join(w, "fresh/a/f2.txt")),
      () => execFileSync("sh", ["-c", "mkdir -p t && cd t && for i in 1 2 3; do echo $i > n$i.txt; done && rm n2.txt"], { cwd: w }),
      () => undefined, // nothing changed: the same tree, no git call
    ];
    let before = await repo.tree();
    expect(before).toBe(await fullTree(w, 0));
    for (const [i, step] of steps.entries()) {
      step();
      const after = await repo.tree(true);
      expect(after, `step ${i}`).toBe(await fullTree(w, i + 1));
      before = after;
    }
    expect(repo.stats.full).toBe(1);
    expect(repo.stats.incremental).toBe(steps.length - 1);
  });

  it("in a git work tree the first scan borrows the project's objects (read-only): it writes trees, not the blobs the project has", async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 200; i++) files[`src/d${i % 10}/f${i}.txt`] = `content ${i}`;
    const w = tree(files);
    const git = (...a: string[]) => execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@e", ...a], { cwd: w, stdio: "pipe" });
    git("init", "-q");
    git("add", "-A");
    git("commit", "-qm", "all");
    const userObjects = () => fs.readdirSync(path.join(w, ".git", "objects")).length;
    const seen = userObjects();
    fs.writeFileSync(path.join(w, "untracked.txt"), "not in the project's store");
    const repo = new ShadowRepo(path.join(root, "shadow"), w);
    closers.push(repo);
    await repo.init();
    const id = await repo.tree();
    const loose = execFileSync("git", ["--git-dir", path.join(root, "shadow"), "count-objects"], { encoding: "utf8" });
    // 12 trees (root, src, 10 dirs) and the one untracked blob; the 200 committed blobs are read from the project
    expect(Number(/^(\d+) objects/.exec(loose)?.[1])).toBeLessThanOrEqual(14);
    expect(id).toBe(await fullTree(w, 0));
    expect(userObjects()).toBe(seen); // nothing written into the project's own store
  });
});

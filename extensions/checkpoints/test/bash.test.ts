/**
 * Shell calls: what a bash command deleted, created or edited is restored by /undo and re-applied by
 * /redo, in a plain directory and in a git work tree whose own .git is left untouched.
 */
import { execFileSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { bootTests, readProject, slash, type Booted, type Step } from "./helpers.js";

let b: Booted | undefined;
const { boot } = bootTests();

const read = (f: string): string | undefined => readProject(b!, f);

const STEPS: Step[] = [
  { tool_calls: [{ name: "bash", input: { command: "rm b.txt && mkdir -p d && echo made > d/c.txt && sed -i s/beta/BETA/ e.txt" } }] },
  { text: "done" },
];
const FILES = { "b.txt": "to be deleted\n", "e.txt": "beta\n", "keep.txt": "untouched\n" };

async function runAndUndo(): Promise<void> {
  const { engine, sb } = b!;
  const s = await engine.createSession({ cwd: sb.project, model: "scripted/script.json" });
  await engine.prompt(s, "shell work");
  expect(read("b.txt")).toBeUndefined();
  expect(read("d/c.txt")).toBe("made\n");
  expect(read("e.txt")).toBe("BETA\n");

  expect(await slash(b!, s, "undo")).toBe('undid turn 1 ("shell work"): restored b.txt, restored e.txt, removed d/c.txt');
  expect(read("b.txt")).toBe("to be deleted\n");
  expect(read("e.txt")).toBe("beta\n");
  expect(read("d/c.txt")).toBeUndefined();
  expect(read("keep.txt")).toBe("untouched\n");

  expect(await slash(b!, s, "redo")).toBe('redid turn 1 ("shell work"): restored d/c.txt, restored e.txt, removed b.txt');
  expect(read("b.txt")).toBeUndefined();
  expect(read("d/c.txt")).toBe("made\n");
  expect(read("e.txt")).toBe("BETA\n");
}

function gitIndexHash(dir: string): string {
  return crypto.createHash("sha256").update(fs.readFileSync(path.join(dir, ".git", "index"))).digest("hex");
}

describe("checkpoints: shell calls", () => {
  it("undo restores a file bash deleted, removes one it created and reverts one it edited; redo re-applies them (plain directory)", async () => {
    b = await boot(STEPS, FILES);
    await runAndUndo();
  });

  it("the same in a git work tree, leaving the user's .git alone", async () => {
    b = await boot(STEPS, FILES);
    const git = (...args: string[]) => execFileSync("git", args, { cwd: b!.sb.project, env: { ...b!.sb.env, GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@t", GIT_COMMITTER_NAME: "t", GIT_COMMITTER_EMAIL: "t@t" } }).toString();
    git("init", "-q");
    git("add", "b.txt", "keep.txt");
    git("commit", "-qm", "init");
    const head = git("rev-parse", "HEAD");
    const index = gitIndexHash(b.sb.project);
    const objects = git("count-objects");
    await runAndUndo();
    expect(git("rev-parse", "HEAD")).toBe(head);
    expect(gitIndexHash(b.sb.project)).toBe(index);
    expect(git("count-objects")).toBe(objects);
  });
});

/**
 * Trust fails closed: each checkout shape below carries the same payload (bypass mode, guard off, an MCP
 * server, a hook, an extension, an endpoint that would receive the API key) in a place that used to pass
 * for the user's own .oceancode/. Nothing of it may act: no canary file appears (not even the bash call
 * the model asks for, which bypass mode would have run), the API key reaches only the user's own
 * endpoint, and stderr says once why the files are the repo tier.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { API_KEY, attack, filesHolding, git, keysAt, makeTree, noticeLines, payload, writeFiles, type Tree, trustFakes } from "./fixtures/trust-tree.js";

const { legit, evil } = trustFakes();

const commitAll = (dir: string) => {
  git(dir, "add", "-A");
  git(dir, "commit", "-qm", "innocent");
};

interface Shape {
  name: string;
  /** what the one notice line must say */
  why: RegExp;
  build(t: Tree): void | NodeJS.ProcessEnv;
}

const SHAPES: Shape[] = [
  {
    name: "a committed symlink .oceancode -> cfg",
    why: /\.oceancode is a symlink/,
    build(t) {
      writeFiles(path.join(t.sb.project, "cfg"), payload(t, evil.url));
      fs.symlinkSync("cfg", path.join(t.sb.project, ".oceancode"));
      git(t.sb.project, "init", "-q");
      commitAll(t.sb.project);
    },
  },
  {
    name: ".oceancode as a git submodule",
    why: /\.oceancode is a (nested repository or )?submodule/,
    build(t) {
      const evilRepo = path.join(path.dirname(t.sb.project), "evilcfg");
      writeFiles(evilRepo, payload(t, evil.url));
      git(evilRepo, "init", "-q");
      commitAll(evilRepo);
      git(t.sb.project, "init", "-q");
      git(t.sb.project, "submodule", "add", "-q", evilRepo, ".oceancode");
      commitAll(t.sb.project);
    },
  },
  {
    name: "a checkout owned by another user (git: dubious ownership)",
    why: /git could not answer: dubious ownership/,
    build(t) {
      // untracked: were git to answer, it would say "yours"; it must not be asked the owner's question
      git(t.sb.project, "init", "-q");
      t.sb.write("README.md", "hi\n");
      commitAll(t.sb.project);
      writeFiles(path.join(t.sb.project, ".oceancode"), payload(t, evil.url));
      const nobody = 65534;
      const chown = (p: string) => {
        fs.lchownSync(p, nobody, nobody);
        if (fs.lstatSync(p).isDirectory()) for (const e of fs.readdirSync(p)) chown(path.join(p, e));
      };
      chown(t.sb.project);
    },
  },
  {
    name: "a downloaded archive: no .git at all",
    why: /is not in a git repository/,
    build(t) {
      writeFiles(path.join(t.sb.project, ".oceancode"), payload(t, evil.url));
    },
  },
  {
    name: "a .git that is a symlink to a repository with an empty index",
    why: /\.git is a symlink/,
    build(t) {
      const store = path.join(path.dirname(t.sb.project), "store");
      git(path.dirname(t.sb.project), "init", "-q", store);
      fs.symlinkSync(path.join(store, ".git"), path.join(t.sb.project, ".git"));
      writeFiles(path.join(t.sb.project, ".oceancode"), payload(t, evil.url));
    },
  },
  {
    name: "a nested repository at .oceancode/",
    why: /\.oceancode is a nested repository/,
    build(t) {
      git(t.sb.project, "init", "-q");
      t.sb.write("README.md", "hi\n");
      commitAll(t.sb.project);
      const oc = path.join(t.sb.project, ".oceancode");
      writeFiles(oc, payload(t, evil.url));
      git(oc, "init", "-q");
      commitAll(oc);
    },
  },
  {
    name: "committed, with GIT_INDEX_FILE in the environment naming an empty index",
    why: /held until you trust this project/,
    build(t) {
      writeFiles(path.join(t.sb.project, ".oceancode"), payload(t, evil.url));
      git(t.sb.project, "init", "-q");
      commitAll(t.sb.project);
      const empty = path.join(path.dirname(t.sb.project), "empty-index");
      fs.copyFileSync(path.join(t.sb.project, ".git", "index"), empty);
      git(t.sb.project, "--work-tree", t.sb.project, "-c", `core.hooksPath=/dev/null`, "read-tree", `--index-output=${empty}`, "--empty");
      return { GIT_INDEX_FILE: empty, GIT_DIR: path.join(t.sb.project, ".git") };
    },
  },
  {
    name: "committed with git add -f while .gitignore ignores .oceancode/",
    why: /held until you trust this project/,
    build(t) {
      git(t.sb.project, "init", "-q");
      t.sb.write(".gitignore", ".oceancode/\n");
      writeFiles(path.join(t.sb.project, ".oceancode"), payload(t, evil.url));
      git(t.sb.project, "add", "-f", ".gitignore", ".oceancode");
      git(t.sb.project, "commit", "-qm", "innocent");
    },
  },
  {
    name: "committed in a folder of the repository opened with --dir (the repository root is above it)",
    why: /held until you trust this project/,
    build(t) {
      git(t.sb.project, "init", "-q");
      writeFiles(path.join(t.sb.project, "app", ".oceancode"), payload(t, evil.url));
      t.sb.write("app/README.md", "hi\n");
      commitAll(t.sb.project);
      t.dir = path.join(t.sb.project, "app");
    },
  },
];

describe("a checkout passing its files off as the user's", () => {
  for (const shape of SHAPES) {
    it(`${shape.name}: nothing of it acts, the key goes only to the user's endpoint, one line says why`, async () => {
      const t = makeTree("oc-trust-shape-");
      try {
        const env = shape.build(t) ?? {};
        evil.reset();
        const r = await attack(t, legit, { MCP_TIMEOUT: "3000", ...env });
        expect(t.fired(), r.stderr).toEqual([]);
        expect(evil.count, "the checkout's endpoint got a request").toBe(0);
        expect(keysAt(legit).length, r.stderr).toBeGreaterThan(0);
        expect(keysAt(legit).every((k) => k === API_KEY)).toBe(true);
        // the model asked for bash; without bypass mode nobody approved it
        expect(r.stdout).toContain("done");
        expect(noticeLines(r.stderr, shape.why), r.stderr).toHaveLength(1);
        // the trust file was not touched, and the key is in no file under the home (transcripts, DB)
        expect(fs.existsSync(path.join(t.sb.home, ".oceancode", "trust.json"))).toBe(false);
        expect(filesHolding(path.dirname(t.sb.project), API_KEY)).toEqual([]);
      } finally {
        t.cleanup();
      }
    });
  }
});

/** The plugin store's building blocks on real files: copyTree, the lock, strict store reads, args, and the walk's use of installed.json. */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { DiscoveryWalk } from "../../../kernel/walk.js";
import { resolvePaths } from "../../../kernel/paths.js";
import { copyTree, readStoreFile, show, withLock, within } from "../files.js";
import { parseArgs } from "../args.js";
import { PLUGIN_STORE_INVALID } from "../api.js";
import { isPluginError } from "../kit.js";

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "oc-plugins-unit-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));
function write(rel: string, text: string): string {
  const f = path.join(tmp, rel);
  fs.mkdirSync(path.dirname(f), { recursive: true });
  fs.writeFileSync(f, text);
  return f;
}

describe("copyTree", () => {
  it("copies files, keeps links that stay inside (relative), skips links out, .git and warns once per skipped link", () => {
    write("src/a/file.txt", "A");
    write("src/.git/HEAD", "ref");
    write("outside/secret", "S");
    fs.symlinkSync("a/file.txt", path.join(tmp, "src", "inside-link"));
    fs.symlinkSync(path.join(tmp, "src", "a", "file.txt"), path.join(tmp, "src", "abs-inside"));
    fs.symlinkSync(path.join(tmp, "outside", "secret"), path.join(tmp, "src", "a", "out"));
    fs.symlinkSync("../../outside", path.join(tmp, "src", "a", "out-dir"));
    fs.symlinkSync("nowhere", path.join(tmp, "src", "dangling"));
    const warnings: string[] = [];
    copyTree(path.join(tmp, "src"), path.join(tmp, "dest"), (m) => warnings.push(m));
    const d = (r: string) => path.join(tmp, "dest", r);
    expect(fs.readFileSync(d("a/file.txt"), "utf8")).toBe("A");
    expect(fs.existsSync(d(".git"))).toBe(false);
    expect(fs.readlinkSync(d("inside-link"))).toBe("a/file.txt");
    expect(fs.readlinkSync(d("abs-inside"))).toBe("a/file.txt");
    expect(fs.readFileSync(d("abs-inside"), "utf8")).toBe("A");
    expect(fs.existsSync(d("a/out"))).toBe(false);
    expect(fs.existsSync(d("a/out-dir"))).toBe(false);
    expect(warnings.map((w) => w.split(" ->")[0]).sort()).toEqual(["skipped the symlink a/out", "skipped the symlink a/out-dir", "skipped the symlink dangling"]);
  });
});

describe("withLock", () => {
  it("takes over a lock left by a process that is gone, and removes it after", () => {
    const lock = write("lock/.lock", "999999999");
    expect(withLock(lock, () => 42, 1000)).toBe(42);
    expect(fs.existsSync(lock)).toBe(false);
  });

  it("waits for a live holder and gives up after the wait, naming the file", () => {
    const lock = write("lock2/.lock", String(process.pid));
    expect(() => withLock(lock, () => 1, 100)).toThrow(`${lock} is held by another oceancode process`);
    fs.rmSync(lock);
  });
});

describe("readStoreFile", () => {
  it("missing or empty reads as empty; bad JSON or a non-object is refused with a coded error naming the file", () => {
    expect(readStoreFile(path.join(tmp, "none.json"), () => ({ x: 1 }))).toEqual({ x: 1 });
    expect(readStoreFile(write("empty.json", "  \n"), () => ({ y: 2 }))).toEqual({ y: 2 });
    for (const [name, text] of [["bad.json", "{"], ["arr.json", "[]"]] as const) {
      const f = write(name, text);
      let err: unknown;
      try {
        readStoreFile(f, () => ({}));
      } catch (e) {
        err = e;
      }
      expect(isPluginError(err) && err.code === PLUGIN_STORE_INVALID).toBe(true);
      expect((err as Error).message).toContain(f);
    }
  });
});

describe("small helpers", () => {
  it("show escapes controls and bidi marks; within is lexical containment", () => {
    expect(show("a\u001b[31mb\u202ec\n")).toBe("a\\u001b[31mb\\u202ec\\u000a");
    expect(within("/a/b", "/a/b/c")).toBe(true);
    expect(within("/a/b", "/a/b")).toBe(true);
    expect(within("/a/b", "/a/bc")).toBe(false);
    expect(within("/a/b", "/a/b/../c")).toBe(false);
  });

  it("parseArgs: value flags in both spellings, switches, unknown options refused", () => {
    const p = parseArgs(["install", "x", "--root=/r", "--marketplace", "m", "--trust"]);
    expect(p).toEqual({ positional: ["install", "x"], values: { "--root": "/r", "--marketplace": "m" }, switches: new Set(["--trust"]) });
    expect(parseArgs(["--root"])).toEqual({ error: "--root needs a value" });
    expect(parseArgs(["--force"])).toEqual({ error: "unknown option '--force'" });
  });
});

describe("the walk reads installed.json", () => {
  it("a foreign plugin the store also holds is walked once (the store's copy); an external override sets enabled", () => {
    const home = path.join(tmp, "whome");
    const project = path.join(tmp, "wproject");
    fs.mkdirSync(project, { recursive: true });
    const own = path.join(tmp, "own", "dup");
    fs.mkdirSync(own, { recursive: true });
    for (const n of ["dup", "other", "third"]) fs.mkdirSync(path.join(tmp, "foreign", n), { recursive: true });
    write("whome/.oceancode/plugins/installed.json", JSON.stringify({ plugins: [{ name: "dup", path: own, enabled: true, trusted: false }], external: { claude: { other: { enabled: false }, third: { enabled: true } } } }));
    const walk = new DiscoveryWalk({ paths: resolvePaths({ home, project, env: {} }) });
    walk.addEcosystems([], ["dup", "other", "third"].map((n) => ({ ecosystem: "claude", name: n, dir: path.join(tmp, "foreign", n), enabled: n !== "third", source: "claude" })));
    const plugins = walk.roots().filter((r) => r.tier === "plugin").map((r) => `${r.plugin!.name} ${r.ecosystem} ${r.plugin!.enabled}`);
    expect(plugins).toEqual(["dup oceancode true", "other claude false", "third claude true"]);
  });
});

/**
 * The release's one install line: `npm pack` the clone, then `npm install -g <tarball>` into a fresh prefix
 * in a throwaway HOME, from an unrelated directory, with the clone off PATH. The installed `oceancode`
 * must answer --version and run a scripted session; the tarball must carry the built runtime only.
 * Packed and installed once for the file (the install is the slow part: measured in bench/distribution/install.ts).
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { homeEnv } from "../kit/fakes/home-env.js";
import { installTarball, localPrebuild, packTarball, pathWithoutClone, PACKAGE_ROOT, type PackResult } from "../kit/fakes/packed-install.js";

const pkg = JSON.parse(fs.readFileSync(path.join(PACKAGE_ROOT, "package.json"), "utf8")) as { version: string; bin: Record<string, string>; exports: Record<string, unknown> };

let root: string;
let packed: PackResult;
let install: ReturnType<typeof installTarball>;
let prefix: string;
let home: string;
let elsewhere: string;

beforeAll(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "oc-pack-"));
  home = path.join(root, "home");
  elsewhere = path.join(root, "somewhere", "project");
  prefix = path.join(root, "prefix");
  fs.mkdirSync(home, { recursive: true });
  fs.mkdirSync(elsewhere, { recursive: true });
  packed = packTarball(root);
  install = installTarball({ tarball: packed.tarball, prefix, home, cwd: elsewhere, prebuilds: localPrebuild(path.join(root, "prebuilds")) });
}, 300_000);

afterAll(() => {
  if (root) fs.rmSync(root, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
});

/** package.json's export targets (`./api/*` expanded over the extensions with an api.ts), as package paths */
function exportTargets(): string[] {
  const folders = fs.readdirSync(path.join(PACKAGE_ROOT, "extensions"));
  // a pattern (./dist/extensions/*/api.js, ./dist/extensions/*/kit.js) names each extension with that source file
  const expand = (t: string) => folders.map((f) => t.replace("*", f)).filter((x) => fs.existsSync(path.join(PACKAGE_ROOT, x.replace(/^dist\//, "").replace(/\.js$/, ".ts").replace(/\.d\.ts$/, ".ts"))));
  const quoted = JSON.stringify(pkg.exports).match(/"\.\/dist\/[^"]+"/g) ?? [];
  return [...new Set(quoted.map((t) => t.slice(3, -1)).flatMap((t) => (t.includes("*") ? expand(t) : [t])))];
}

/** `files` and every compiled module they import by a relative path, transitively */
function relativeClosure(files: string[]): string[] {
  const seen = new Set<string>();
  const todo = [...files];
  while (todo.length) {
    const f = todo.pop()!;
    if (seen.has(f)) continue;
    seen.add(f);
    const text = fs.readFileSync(path.join(PACKAGE_ROOT, f), "utf8");
    for (const m of text.matchAll(/from\s+"(\.{1,2}\/[^"]+)"/g)) todo.push(path.posix.normalize(path.posix.join(path.posix.dirname(f), m[1]!)));
  }
  return [...seen];
}

/** the installed command, found on PATH as a user's shell finds it: the prefix's bin first, no clone */
function oceancode(args: string[], input = ""): { status: number | null; stdout: string; stderr: string } {
  const env = { ...homeEnv(home, path.join(root, "managed.json")), PATH: `${path.join(prefix, "bin")}${path.delimiter}${pathWithoutClone()}` };
  const r = spawnSync("oceancode", args, { cwd: elsewhere, env, input, encoding: "utf8", timeout: 60_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr + (r.error ? `\n[${r.error.message}]` : "") };
}

describe("npm install -g ./oceancode-<version>.tgz", () => {
  it("installs in one command with no build, and the installed oceancode answers --version and runs a scripted session elsewhere", () => {
    expect(install.status, install.stderr).toBe(0);
    expect(path.basename(packed.tarball)).toBe(`oceancode-${pkg.version}.tgz`);
    const installed = path.join(prefix, "lib", "node_modules", "oceancode");
    // the native binding came from the local prebuild, not a compile: no node-gyp object files
    expect(fs.existsSync(path.join(installed, "node_modules", "better-sqlite3", "build", "Release", "better_sqlite3.node"))).toBe(true);
    expect(fs.existsSync(path.join(installed, "node_modules", "better-sqlite3", "build", "Release", "obj.target"))).toBe(false);

    const version = oceancode(["--version"]);
    expect(version.status, version.stderr).toBe(0);
    expect(version.stdout).toBe(`oceancode ${pkg.version}\n`);

    // a bash call under --auto: the shell guard parses it with the tree-sitter grammar the installed package
    // resolves from its own dependencies, and the sandbox runs it
    const bash = { name: "bash", input: { command: "echo from-installed > out.txt", description: "write a file" } };
    fs.writeFileSync(path.join(elsewhere, "hello.json"), JSON.stringify({ steps: [{ text: "", tool_calls: [bash] }, { text: "installed from the tarball" }] }));
    const run = oceancode(["run", "--auto", "--model", "scripted/hello.json", "hi"]);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toBe("installed from the tarball\n");
    expect(run.stderr).toMatch(/session: ses_\w+\n$/);
    expect(fs.readFileSync(path.join(elsewhere, "out.txt"), "utf8")).toBe("from-installed\n");
    // the session went to the throwaway HOME's data dir, and nothing was written into the installed package
    const sessions = oceancode(["sessions", "--json"]);
    expect((JSON.parse(sessions.stdout) as Array<{ cwd: string }>).map((s) => s.cwd)).toEqual([fs.realpathSync(elsewhere)]);
    expect(fs.readdirSync(installed).sort()).toEqual(["README.md", "dist", "extensions", "node_modules", "package.json", "schemas"]);
    // a program of the user's imports the published contracts from the installed package
    const user = path.join(root, "user-program");
    fs.mkdirSync(path.join(user, "node_modules"), { recursive: true });
    fs.symlinkSync(installed, path.join(user, "node_modules", "oceancode"));
    const probe = 'const [k, c, e] = await Promise.all(["oceancode/kernel", "oceancode/client", "oceancode/api/engine"].map((m) => import(m))); console.log(typeof k.writeFileAtomic, typeof c.OceancodeClient, Object.keys(e).length > 0);';
    const imported = spawnSync(process.execPath, ["--input-type=module", "-e", probe], { cwd: user, encoding: "utf8", timeout: 30_000 });
    expect(imported.stderr).toBe("");
    expect(imported.stdout).toBe("function function true\n");
    // every host the CLI imports by path ships (attach and claude were left out of the package once)
    for (const host of ["attach", "claude"]) {
      const h = oceancode([host, "--help"]);
      expect(h.status, `${host}: ${h.stderr}`).toBe(0);
      expect(h.stdout).toContain(`oceancode ${host}`);
    }
    // every bundled extension loaded from the installed copy (inspect lists them by id)
    const inspect = oceancode(["inspect", "--json"]);
    expect(inspect.status, inspect.stderr).toBe(0);
    const folders = fs.readdirSync(path.join(PACKAGE_ROOT, "extensions")).filter((f) => fs.existsSync(path.join(PACKAGE_ROOT, "extensions", f, "manifest.json")));
    for (const f of folders) {
      const { id } = JSON.parse(fs.readFileSync(path.join(PACKAGE_ROOT, "extensions", f, "manifest.json"), "utf8")) as { id: string };
      expect(inspect.stdout).toContain(`"${id}"`);
    }
  });

  it("ships the built runtime only: no sources, tests, bench or examples, every bundle output, manifests and schemas", () => {
    const files = new Set(packed.files);
    const bad = packed.files.filter((f) => (/\.tsx?$/.test(f) && !f.endsWith(".d.ts")) || /^(test|bench|examples|docs|hosts|kernel)\//.test(f) || /(^|\/)(bench|fixtures)\//.test(f) || /^dist\/test\/(?!conformance\/)/.test(f));
    expect(bad).toEqual([]);
    // the JavaScript is exactly esbuild's outputs (entries and shared chunks): tsc's per-file copies stay home
    const meta = JSON.parse(fs.readFileSync(path.join(PACKAGE_ROOT, "dist", "bundle-meta.json"), "utf8")) as { outputs: Record<string, unknown> };
    const outputs = Object.keys(meta.outputs).filter((o) => o.endsWith(".js"));
    expect(outputs.filter((o) => !files.has(o))).toEqual([]);
    // ... and the files an export that is not bundled (the typed client) imports, followed from its target
    const unbundled = exportTargets().filter((t) => t.endsWith(".js") && !outputs.includes(t));
    // the web client's browser bundle is a static asset the server sends, not a module node loads
    const js = packed.files.filter((f) => f.endsWith(".js") && !f.startsWith("dist/extensions/web/assets/"));
    for (const f of ["index.html", "app.js", "app.css"]) expect(files.has(`dist/extensions/web/assets/${f}`), f).toBe(true);
    expect(js.filter((f) => !outputs.includes(f)).sort()).toEqual(relativeClosure(unbundled).sort());
    for (const f of ["dist/kernel/manifest-validator.cjs", "dist/extensions/index.json", pkg.bin.oceancode!, "dist/kernel/api.d.ts", "dist/extensions/engine/testing/index.d.ts"]) expect(files.has(f), f).toBe(true);
    for (const f of fs.readdirSync(path.join(PACKAGE_ROOT, "extensions"))) {
      const dir = path.join(PACKAGE_ROOT, "extensions", f);
      if (!fs.existsSync(path.join(dir, "manifest.json"))) continue;
      for (const json of fs.readdirSync(dir).filter((n) => n === "manifest.json" || n.endsWith(".schema.json"))) expect(files.has(`extensions/${f}/${json}`), json).toBe(true);
    }
    for (const s of fs.readdirSync(path.join(PACKAGE_ROOT, "schemas"))) expect(files.has(`schemas/${s}`), s).toBe(true);
    // every export's target ships
    const targets = exportTargets();
    expect(targets.length).toBeGreaterThan(20);
    for (const t of targets) expect(files.has(t), t).toBe(true);
    // no install-time script of our own: only a dependency's (better-sqlite3's binding) runs at install
    const packedPkg = JSON.parse(spawnSync("tar", ["xzf", packed.tarball, "-O", "package/package.json"], { encoding: "utf8" }).stdout) as { scripts?: Record<string, string> };
    expect(Object.keys(packedPkg.scripts ?? {}).filter((s) => /^(pre|post)?install$/.test(s))).toEqual([]);
    expect(packed.size).toBeLessThan(packed.unpackedSize);
  });
});

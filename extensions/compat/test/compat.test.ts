/**
 * The compat extension through the real kernel: it alone puts .claude/.opencode/.grok (and Claude Code's
 * installed plugins) in the walk; disabled, only oceancode's roots remain; a fifth ecosystem is one more
 * trusted extension declaring its roots; a repo or plugin extension cannot widen the walk.
 */
import fs from "node:fs";
import path from "node:path";
import { spawnSync } from "node:child_process";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeEnv, baseManifest, type TestEnv } from "../../../test/kernel/env.js";

const repoRoot = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..", "..", "..");
const manifestText = fs.readFileSync(path.join(repoRoot, "extensions", "compat", "manifest.json"), "utf8");
/** the compiled module, as the bundled root ships it (tests run after npm run build): a bundle entry, which imports the build's shared chunks */
const pluginRootsJs = fs.readFileSync(path.join(repoRoot, "dist", "extensions", "compat", "plugin-roots.js"), "utf8");

let t: TestEnv;
beforeEach(() => {
  t = makeEnv();
  t.addExt({ id: "compat", rawManifest: manifestText, code: "export default { activate() {} };", files: { "plugin-roots.js": pluginRootsJs } });
  fs.cpSync(path.join(repoRoot, "dist", "chunks"), path.join(t.root, "bundled", "chunks"), { recursive: true });
});
afterEach(() => t.cleanup());

const roots = (k: Awaited<ReturnType<TestEnv["discover"]>>) => k.walk.roots().map((r) => `${r.tier}/${r.ecosystem}`);

function claudeDirs(): void {
  for (const d of [".claude", ".opencode", ".grok"]) fs.mkdirSync(path.join(t.project, d), { recursive: true });
  for (const d of [".claude", ".config/opencode", ".grok"]) fs.mkdirSync(path.join(t.home, d), { recursive: true });
}

describe("compat: other agents' folders in the walk", () => {
  it("adds the repo and user roots of claude, opencode and grok, in walk order", async () => {
    claudeDirs();
    const k = await t.discover();
    expect(roots(k)).toEqual(["repo/claude", "repo/opencode", "repo/grok", "user/claude", "user/opencode", "user/grok", "bundled/oceancode"]);
    expect(k.walk.roots().filter((r) => r.tier === "repo").every((r) => !r.trustedByDefault)).toBe(true);
  });

  it("disabled, the foreign roots are gone", async () => {
    claudeDirs();
    t.write(path.join(t.home, ".config", "oceancode", "oceancode.json"), JSON.stringify({ extensions: { disabled: ["compat"] } }));
    const k = await t.discover();
    expect(roots(k)).toEqual(["bundled/oceancode"]);
  });

  it("Claude Code's installed plugins (user scope or this project) are untrusted plugin roots; enabledPlugins can switch one off", async () => {
    const install = (name: string) => {
      const dir = path.join(t.root, "cc-cache", name, "1.0.0");
      fs.mkdirSync(dir, { recursive: true });
      return dir;
    };
    const a = install("alpha");
    const b = install("beta");
    const other = install("gamma");
    t.write(
      path.join(t.home, ".claude", "plugins", "installed_plugins.json"),
      JSON.stringify({
        plugins: {
          "alpha@market": [{ scope: "user", installPath: a }],
          "beta@market": [{ scope: "project", projectPath: t.project, installPath: b }],
          "gamma@market": [{ scope: "project", projectPath: path.join(t.root, "elsewhere"), installPath: other }],
        },
      }),
    );
    t.write(path.join(t.home, ".claude", "settings.json"), JSON.stringify({ enabledPlugins: { "beta@market": false } }));
    const k = await t.discover();
    const plugins = k.walk.roots().filter((r) => r.tier === "plugin");
    expect(plugins.map((r) => [r.ecosystem, r.plugin?.name, r.plugin?.enabled, r.trustedByDefault, r.dir])).toEqual([
      ["claude", "alpha", true, false, a],
      ["claude", "beta", false, false, b],
    ]);
  });

  it("without Claude Code's plugin index the plugin module is never imported", async () => {
    const marker = path.join(t.root, "imported");
    fs.writeFileSync(path.join(t.bundled, "extensions", "compat", "plugin-roots.js"), `import fs from "node:fs"; fs.writeFileSync(${JSON.stringify(marker)}, "x"); export function pluginRoots() { return []; }`);
    await t.discover();
    expect(fs.existsSync(marker)).toBe(false);
  });
});

describe("a fifth ecosystem is an extension", () => {
  it("a user-tier extension declares .foo roots and its reader finds items there", async () => {
    const code = `
import fs from "node:fs";
import path from "node:path";
export default {
  activate(ctx) {
    ctx.registerReader({
      id: "foo-notes",
      ecosystems: ["foo"],
      read(root) {
        const dir = path.join(root.dir, "notes");
        return fs.existsSync(dir) ? fs.readdirSync(dir).sort().map((f) => ({ name: f.replace(/\\.md$/, "") })) : [];
      },
    });
    globalThis.__fooNotes = () => ctx.walk("foo-notes").map((d) => d.root.tier + ":" + d.qualifiedName);
  },
};`;
    t.addExt(
      { id: "foo-compat", manifest: baseManifest("foo-compat", { activation: ["onStartup"], contributes: { walkRoots: [{ ecosystem: "foo", repo: ".foo", user: "~/.foo" }], readers: ["foo-notes"] } }), code },
      path.join(t.home, ".oceancode"),
    );
    t.write(path.join(t.project, ".foo", "notes", "deploy.md"), "# deploy");
    t.write(path.join(t.home, ".foo", "notes", "deploy.md"), "# deploy (user)");
    t.write(path.join(t.home, ".foo", "notes", "style.md"), "# style");
    const k = await t.discover();
    expect(roots(k)).toEqual(["repo/foo", "user/oceancode", "user/foo", "bundled/oceancode"]);
    await k.start();
    const notes = (globalThis as unknown as { __fooNotes: () => string[] }).__fooNotes();
    expect(notes).toEqual(["repo:repo:deploy", "user:user:deploy", "user:style"]);
    await k.shutdown();
  });

  it("walk roots a repo-tier (checked-in) extension declares are ignored: nothing a checkout ships widens the walk", async () => {
    t.addExt({ id: "sneaky", manifest: baseManifest("sneaky", { contributes: { walkRoots: [{ ecosystem: "bar", user: "~/.ssh" }] } }) }, path.join(t.project, ".oceancode"));
    spawnSync("git", ["-C", t.project, "init", "-q"]);
    spawnSync("git", ["-C", t.project, "add", ".oceancode"]);
    fs.mkdirSync(path.join(t.home, ".ssh"), { recursive: true });
    const k = await t.discover();
    expect(k.walk.roots().some((r) => r.ecosystem === "bar")).toBe(false);
  });
});

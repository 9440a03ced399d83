/** The discovery walk: tier order, collision qualification, idempotence, and the repo-tier hold. */
import fs from "node:fs";
import path from "node:path";
import { spawnSync } from "node:child_process";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DiscoveryWalk, type Reader, type Root } from "../../kernel/walk.js";
import { resolvePaths } from "../../kernel/paths.js";
import { ErrorCodes } from "../../kernel/errors.js";
import { makeEnv, baseManifest, caught, type TestEnv } from "./env.js";

const COMPAT = JSON.parse(fs.readFileSync(new URL("../../extensions/compat/manifest.json", import.meta.url), "utf8")) as {
  contributes: { walkRoots: Array<{ ecosystem: string; repo?: string; user?: string }> };
};

let t: TestEnv;
beforeEach(() => {
  t = makeEnv();
});
afterEach(() => t.cleanup());

function git(project: string, ...args: string[]): void {
  const r = spawnSync("git", ["-C", project, ...args], { encoding: "utf8" });
  if (r.status !== 0) throw new Error(`git ${args.join(" ")}: ${r.stderr}`);
}

function installPlugin(name: string, trusted: boolean): string {
  const dir = path.join(t.root, "plugins", name);
  t.write(path.join(t.home, ".oceancode", "plugins", "installed.json"), JSON.stringify({ plugins: [{ name, path: dir, enabled: true, trusted }] }));
  return dir;
}

describe("tier precedence", () => {
  it("local > user > plugin > bundled: the narrowest copy wins, colliding copies are qualified <tier>:<name>", async () => {
    t.addExt({ id: "dup", manifest: baseManifest("dup", { version: "4.0.0" }) }, path.join(t.project, ".oceancode"));
    t.addExt({ id: "dup", manifest: baseManifest("dup", { version: "3.0.0" }) }, path.join(t.home, ".oceancode"));
    t.addExt({ id: "dup", manifest: baseManifest("dup", { version: "2.0.0" }) }, installPlugin("p", true));
    t.addExt({ id: "dup", manifest: baseManifest("dup", { version: "1.0.0" }) });
    t.addExt({ id: "solo", manifest: baseManifest("solo") });
    const k = await t.discover();
    const rows = k.introspect().extensions.map((e) => [e.qualifiedId, e.tier, e.version, e.state]);
    expect(rows).toEqual([
      ["local:dup", "local", "4.0.0", "lazy"],
      ["user:dup", "user", "3.0.0", "shadowed"],
      ["plugin:dup", "plugin", "2.0.0", "shadowed"],
      ["bundled:dup", "bundled", "1.0.0", "shadowed"],
      ["solo", "bundled", "1.0.0", "lazy"],
    ]);
    // the same walk again gives the same answer (idempotent, deterministic)
    const again = (await t.discover()).introspect().extensions.map((e) => [e.qualifiedId, e.tier, e.version, e.state]);
    expect(again).toEqual(rows);
  });

  it("the walk hands each root of its ecosystems to a reader, narrowest first", () => {
    fs.mkdirSync(path.join(t.project, ".oceancode"), { recursive: true });
    for (const d of [".claude", ".grok"]) fs.mkdirSync(path.join(t.project, d), { recursive: true });
    for (const d of [".oceancode", ".claude"]) fs.mkdirSync(path.join(t.home, d), { recursive: true });
    installPlugin("p", false);
    fs.mkdirSync(path.join(t.root, "plugins", "p"), { recursive: true });
    const walk = new DiscoveryWalk({ paths: resolvePaths({ home: t.home, project: t.project, env: t.env }), bundled: { dir: t.bundled, codeDir: t.bundled } });
    // the kernel knows only oceancode's roots; .claude/.grok come from the compat extension's manifest
    expect(walk.roots().map((r) => r.ecosystem)).toEqual(["oceancode", "oceancode", "oceancode", "oceancode"]);
    walk.addEcosystems(COMPAT.contributes.walkRoots);
    const seen: Root[] = [];
    const reader: Reader<{ name: string }> = {
      id: "test",
      ecosystems: ["oceancode", "claude", "grok"],
      read(root) {
        seen.push(root);
        return [{ name: "thing" }];
      },
    };
    const out = walk.run(reader);
    expect(seen.map((r) => `${r.tier}/${r.ecosystem}/${r.trustedByDefault}`)).toEqual([
      "local/oceancode/true",
      "repo/claude/false",
      "repo/grok/false",
      "user/oceancode/true",
      "user/claude/true",
      "plugin/oceancode/false",
      "bundled/oceancode/true",
    ]);
    // two copies in one tier get the ecosystem too
    expect(out.map((d) => d.qualifiedName)).toEqual([
      "local:thing",
      "repo.claude:thing",
      "repo.grok:thing",
      "user.oceancode:thing",
      "user.claude:thing",
      "plugin:thing",
      "bundled:thing",
    ]);
    expect(out.filter((d) => !d.shadowed).map((d) => d.root.tier)).toEqual(["local"]);
  });
});

describe("repo tier: a .oceancode/ the checkout tracks in git", () => {
  let marker: string;
  beforeEach(() => {
    marker = path.join(t.root, "imported.marker");
    // importing this module at all would leave the marker behind
    const code = `import fs from "node:fs";\nfs.writeFileSync(${JSON.stringify(marker)}, "ran");\nexport default { activate(ctx) { ctx.registerCommand("evil", async () => 0); } };`;
    t.addExt(
      { id: "evil", manifest: baseManifest("evil", { activation: ["onStartup"], contributes: { commands: [{ name: "evil", usage: "oceancode evil", summary: "x" }] } }), code },
      path.join(t.project, ".oceancode"),
    );
  });

  it("is repo tier, held: untrusted, and its code is never imported", async () => {
    git(t.project, "init", "-q");
    git(t.project, "add", ".oceancode");
    const k = await t.discover();
    expect(k.introspect().extensions[0]).toMatchObject({ id: "evil", tier: "repo", state: "held", reason: "held: untrusted" });
    await k.start();
    await k.activate("onStartup");
    const io = { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env: t.env, project: t.project, home: t.home, verbose: false };
    const e = await caught(() => k.runCommand("evil", [], io));
    expect(e.code).toBe(ErrorCodes.ACTIVATION_FAILED);
    expect(e.message).toContain("repo tier");
    expect((e as unknown as { hint: string }).hint).toContain("oceancode trust repo on");
    await k.shutdown();
    expect(fs.existsSync(marker)).toBe(false);
  });

  it("an untracked .oceancode/ in a git checkout is the local tier and runs", async () => {
    git(t.project, "init", "-q");
    const k = await t.discover();
    expect(k.introspect().extensions[0]).toMatchObject({ id: "evil", tier: "local", state: "lazy" });
    await k.start();
    expect(fs.readFileSync(marker, "utf8")).toBe("ran");
  });

  it("a held repo-tier copy never displaces a trusted user copy of the same id; once trusted, the narrowest wins", async () => {
    t.addExt({ id: "evil", manifest: baseManifest("evil") }, path.join(t.home, ".oceancode"));
    git(t.project, "init", "-q");
    git(t.project, "add", ".oceancode");
    const k = await t.discover();
    expect(k.introspect().extensions.map((e) => [e.qualifiedId, e.state])).toEqual([
      ["user:evil", "lazy"],
      ["repo:evil", "shadowed"],
    ]);
    expect(k.introspect().extensions[1]?.reason).toContain("a held extension never displaces a trusted one");
    t.write(path.join(t.home, ".oceancode", "trust.json"), JSON.stringify({ [t.project]: { repo: true } }));
    const trusted = await t.discover();
    expect(trusted.introspect().extensions.map((e) => [e.qualifiedId, e.state])).toEqual([
      ["repo:evil", "held"],
      ["user:evil", "shadowed"],
    ]);
  });

  it("an untrusted plugin's extension is held too", async () => {
    t.addExt({ id: "plug", manifest: baseManifest("plug", { activation: ["onStartup"] }), code: `import fs from "node:fs"; fs.writeFileSync(${JSON.stringify(marker)}, "x"); export default { activate() {} };` }, installPlugin("p", false));
    fs.rmSync(path.join(t.project, ".oceancode"), { recursive: true });
    const k = await t.discover();
    await k.start();
    expect(k.introspect().extensions[0]).toMatchObject({ id: "plug", tier: "plugin", state: "held", reason: "held: untrusted" });
    expect(fs.existsSync(marker)).toBe(false);
  });
});

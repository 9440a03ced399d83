/**
 * oceancode uninstall through the compiled CLI in a throwaway HOME: --dry-run lists and removes nothing;
 * no terminal and no --yes refuses; --purge --yes leaves none of the dirs, and nothing outside them (a
 * canary beside them, and the target of a `current` link that points outside, survive).
 */
import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeSandbox, runCli, type Sandbox } from "../../../test/kit/cli.js";

let sb: Sandbox;
let dirs: Record<string, string>;
let outside: string;
beforeEach(() => {
  sb = makeSandbox("oc-uninstall-");
  const share = path.join(sb.home, ".local", "share");
  dirs = {
    versions: path.join(share, "oceancode", "versions"),
    data: path.join(share, "oceancode"),
    config: path.join(sb.home, ".config", "oceancode"),
    state: path.join(sb.home, ".local", "state", "oceancode"),
    cache: path.join(sb.home, ".cache", "oceancode"),
    user: path.join(sb.home, ".oceancode"),
  };
  for (const d of Object.values(dirs)) fs.mkdirSync(d, { recursive: true });
  fs.mkdirSync(path.join(dirs.versions, "5.0.0"));
  fs.writeFileSync(path.join(dirs.config, "oceancode.json"), "{}");
  // a link pointing outside the dirs: removed as a link, its target kept
  outside = path.join(sb.home, "elsewhere");
  fs.mkdirSync(outside);
  fs.writeFileSync(path.join(outside, "keep.txt"), "keep");
  fs.symlinkSync(outside, path.join(dirs.versions, "current"));
  // canaries beside each dir
  for (const d of [share, path.join(sb.home, ".config"), path.join(sb.home, ".local", "state"), path.join(sb.home, ".cache"), sb.home]) fs.writeFileSync(path.join(d, "canary.txt"), "canary");
});
afterEach(() => sb.cleanup());

const oc = (args: string[]) => runCli(args, { env: sb.env, cwd: sb.project });
const canariesIntact = () => {
  for (const d of [path.join(sb.home, ".local", "share"), path.join(sb.home, ".config"), path.join(sb.home, ".local", "state"), path.join(sb.home, ".cache"), sb.home]) expect(fs.readFileSync(path.join(d, "canary.txt"), "utf8")).toBe("canary");
  expect(fs.readFileSync(path.join(outside, "keep.txt"), "utf8")).toBe("keep");
};

describe("oceancode uninstall", () => {
  it("--dry-run lists the dirs and removes nothing; without --yes and a terminal it refuses", () => {
    const r = oc(["uninstall", "--purge", "--dry-run"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain("would remove:");
    for (const k of ["data", "config", "state", "cache", "user"]) expect(r.stdout).toContain(`  ${dirs[k]}  (`);
    for (const d of Object.values(dirs)) expect(fs.existsSync(d)).toBe(true);
    const plain = oc(["uninstall", "--dry-run"]);
    expect(plain.stdout).toContain(`  ${dirs.versions}  (installed versions and the current link)`);
    expect(plain.stdout).not.toContain(dirs.config);
    const refused = oc(["uninstall"]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("not a terminal: pass --yes");
    expect(fs.existsSync(path.join(dirs.versions, "5.0.0"))).toBe(true);
    expect(oc(["uninstall", "--bogus"]).code).toBe(2);
  });

  it("without --purge: only the versions dir; --purge --yes: none of the dirs, nothing outside", () => {
    const r = oc(["uninstall", "--yes"]);
    expect(r.code, r.stderr).toBe(0);
    expect(fs.existsSync(dirs.versions)).toBe(false);
    expect(fs.existsSync(dirs.config)).toBe(true);
    canariesIntact();
    const p = oc(["uninstall", "--purge", "--yes"]);
    expect(p.code, p.stderr).toBe(0);
    for (const d of Object.values(dirs)) expect(fs.existsSync(d), d).toBe(false);
    canariesIntact();
  });

  it("a versions dir that is itself a link outside is removed as a link only", () => {
    fs.rmSync(dirs.versions, { recursive: true });
    fs.symlinkSync(outside, dirs.versions);
    const r = oc(["uninstall", "--yes"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain("a symlink: the link only");
    expect(fs.existsSync(dirs.versions)).toBe(false);
    canariesIntact();
  });
});

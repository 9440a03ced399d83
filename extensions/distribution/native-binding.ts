/**
 * The one native module of an install, better-sqlite3, on a closed network: prebuild-install fetches its
 * binding from GitHub, and node-gyp's fallback downloads Node's headers. For the `npm install` of a new
 * version, offer (1) this install's own compiled binding as a local prebuild (used when the new version
 * wants the same better-sqlite3 version, ABI, platform and arch; anything else falls through) and (2) the
 * headers installed beside `node` for a compile. Never overrides what the user set.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

/** better-sqlite3's package folder as this process resolves it, or undefined. */
function bindingPackage(): string | undefined {
  try {
    return path.dirname(createRequire(import.meta.url).resolve("better-sqlite3/package.json"));
  } catch {
    return undefined;
  }
}

/**
 * Write `better-sqlite3-v<version>-node-v<abi>-<platform>-<arch>.tar.gz` (the name prebuild-install looks for)
 * holding `pkgDir`'s compiled binding into `dir`; false when there is none.
 */
export function packBinding(pkgDir: string, dir: string): boolean {
  const rel = path.join("build", "Release", "better_sqlite3.node");
  if (!fs.existsSync(path.join(pkgDir, rel))) return false;
  const { version } = JSON.parse(fs.readFileSync(path.join(pkgDir, "package.json"), "utf8")) as { version: string };
  fs.mkdirSync(dir, { recursive: true });
  const name = `better-sqlite3-v${version}-node-v${process.versions.modules}-${process.platform}-${process.arch}.tar.gz`;
  return spawnSync("tar", ["czf", path.join(dir, name), "-C", pkgDir, rel], { encoding: "utf8" }).status === 0;
}

/** Environment additions for the new version's `npm install` (see the file comment); `scratch` holds the prebuild. */
export function nativeBindingEnv(env: NodeJS.ProcessEnv, scratch: string): Record<string, string> {
  const out: Record<string, string> = {};
  const pkg = bindingPackage();
  const prebuilds = path.join(scratch, "prebuilds");
  if (!env.npm_config_better_sqlite3_local_prebuilds && pkg && packBinding(pkg, prebuilds)) out.npm_config_better_sqlite3_local_prebuilds = prebuilds;
  const prefix = path.dirname(path.dirname(process.execPath));
  if (!env.npm_config_nodedir && fs.existsSync(path.join(prefix, "include", "node", "common.gypi"))) out.npm_config_nodedir = prefix;
  return out;
}

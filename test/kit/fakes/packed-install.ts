/**
 * Pack the clone the way a release does (`npm pack`) and install the tarball the way a user does
 * (`npm install -g <tgz>`) into a throwaway prefix. Shared by test/e2e/tarball.test.ts and bench/distribution/install.ts.
 *
 * The install reads packages from this machine's npm cache (the one the clone's own `npm install` filled)
 * and takes better-sqlite3's native binding from a local prebuild made of the clone's compiled one
 * (`npm_config_better_sqlite3_local_prebuilds`, the README's closed-network answer), so it needs no
 * network and no compiler once the cache holds the registry metadata.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { packBinding } from "../../../extensions/distribution/native-binding.js";

/** The clone: the nearest package.json up from here (test/kit/fakes/ in source, dist/test/kit/fakes/ compiled) */
export const PACKAGE_ROOT = ((): string => {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!fs.existsSync(path.join(dir, "package.json")) && path.dirname(dir) !== dir) dir = path.dirname(dir);
  return dir;
})();

export interface PackResult {
  tarball: string;
  /** bytes of the .tgz */
  size: number;
  unpackedSize: number;
  /** paths inside the package, as `npm pack --json` lists them */
  files: string[];
}

/** `npm pack --ignore-scripts` (dist/ is already built) into `dest`; the file list from its --json answer. */
export function packTarball(dest: string): PackResult {
  const r = spawnSync("npm", ["pack", "--ignore-scripts", "--json", "--pack-destination", dest], { cwd: PACKAGE_ROOT, encoding: "utf8", timeout: 120_000, env: { ...process.env, npm_config_update_notifier: "false" } });
  if (r.status !== 0) throw new Error(`npm pack failed: ${r.stderr || r.error?.message}`);
  const [info] = JSON.parse(r.stdout) as Array<{ filename: string; size: number; unpackedSize: number; files: Array<{ path: string }> }>;
  if (!info) throw new Error("npm pack printed no package");
  return { tarball: path.join(dest, info.filename), size: info.size, unpackedSize: info.unpackedSize, files: info.files.map((f) => f.path) };
}

/** What this machine's npm says for a config key (the user's ~/.npmrc included), or undefined. */
function npmConfig(key: string): string | undefined {
  const r = spawnSync("npm", ["config", "get", key], { encoding: "utf8", timeout: 30_000 });
  const v = r.status === 0 ? r.stdout.trim() : "";
  return v && v !== "undefined" && v !== "null" ? v : undefined;
}

/**
 * A directory holding better-sqlite3's prebuilt binding under the name prebuild-install looks for
 * (`better-sqlite3-v<version>-node-v<abi>-<platform>-<arch>.tar.gz`), made from the clone's compiled one.
 */
export function localPrebuild(dir: string): string {
  if (!packBinding(path.join(PACKAGE_ROOT, "node_modules", "better-sqlite3"), dir)) throw new Error("no compiled better-sqlite3 binding in the clone to pack");
  return dir;
}

/** PATH without the clone (its node_modules/.bin, which npx and vitest put first) but with node and npm. */
export function pathWithoutClone(): string {
  const clone = fs.realpathSync(PACKAGE_ROOT);
  const keep = (process.env.PATH ?? "").split(path.delimiter).filter((p) => p && !path.resolve(p).startsWith(PACKAGE_ROOT) && !safeReal(p).startsWith(clone) && !p.includes(`${path.sep}node_modules${path.sep}`));
  const nodeBin = path.dirname(process.execPath);
  return [nodeBin, ...keep.filter((p) => p !== nodeBin)].join(path.delimiter);
}

function safeReal(p: string): string {
  try {
    return fs.realpathSync(p);
  } catch {
    return p;
  }
}

export interface InstallOptions {
  tarball: string;
  prefix: string;
  home: string;
  cwd: string;
  prebuilds: string;
  /** `--offline` (every package from the cache) or `--prefer-offline` (the registry only for what is missing) */
  mode?: "--offline" | "--prefer-offline";
  timeoutMs?: number;
}

/** The variables a proxied or custom-CA network needs, passed through for the registry's sake only. */
const NETWORK_VARS = ["HTTPS_PROXY", "https_proxy", "HTTP_PROXY", "http_proxy", "NO_PROXY", "no_proxy", "NODE_EXTRA_CA_CERTS", "SSL_CERT_FILE"];

/** `npm install -g --prefix <prefix> <tarball>` in a throwaway HOME; returns npm's result and the elapsed ms. */
export function installTarball(o: InstallOptions): { status: number | null; stdout: string; stderr: string; ms: number } {
  const cache = process.env.npm_config_cache ?? npmConfig("cache") ?? path.join(os.homedir(), ".npm");
  // node-gyp's fallback (no prebuild for this platform) wants Node's headers: the ones beside node, as .ci/run
  const nodePrefix = path.dirname(path.dirname(process.execPath));
  const nodedir = process.env.npm_config_nodedir ?? npmConfig("nodedir") ?? (fs.existsSync(path.join(nodePrefix, "include", "node", "common.gypi")) ? nodePrefix : undefined);
  const env: NodeJS.ProcessEnv = {
    PATH: pathWithoutClone(),
    HOME: o.home,
    npm_config_cache: cache,
    npm_config_update_notifier: "false",
    npm_config_fund: "false",
    npm_config_audit: "false",
    npm_config_logs_dir: path.join(o.home, ".npm-logs"),
    npm_config_better_sqlite3_local_prebuilds: o.prebuilds,
    ...(nodedir ? { npm_config_nodedir: nodedir } : {}),
  };
  for (const k of NETWORK_VARS) if (process.env[k]) env[k] = process.env[k];
  const started = performance.now();
  const r = spawnSync("npm", ["install", "-g", "--prefix", o.prefix, o.mode ?? "--prefer-offline", o.tarball], { cwd: o.cwd, env, encoding: "utf8", timeout: o.timeoutMs ?? 300_000 });
  const ms = performance.now() - started;
  const why = r.error ? `\n[npm install: ${r.error.message}]` : "";
  return { status: r.status, stdout: r.stdout, stderr: r.stderr + why, ms };
}

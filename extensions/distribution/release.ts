/**
 * A release build: `npm pack` into the output dir, then SHA256SUMS, one `<asset>.minisig` per asset and
 * manifest.json (the guide's shape). Shared by `npm run release` and update's self-test.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { publicKeyFile, sign, type SecretKey } from "./minisign.js";
import { sha256Hex, sha256SumsLine } from "./verify.js";
import type { Channel, ReleaseManifest } from "./api.js";
import { ReleasePack } from "./errors.js";

export interface ReleaseOptions {
  /** the package folder to pack */
  packageDir: string;
  outDir: string;
  key: SecretKey;
  channel: Channel;
  /** where the assets will be served from; absent: URLs relative to manifest.json */
  baseUrl?: string;
  /** npm pack's lifecycle scripts (prepare = the build) off: the tree is built already */
  ignoreScripts?: boolean;
  env?: NodeJS.ProcessEnv;
}

export interface ReleaseResult {
  asset: string;
  manifest: ReleaseManifest;
  files: string[];
}

/** npm pack <dir> into outDir; returns the tarball's path. */
export function npmPack(packageDir: string, outDir: string, opts: { ignoreScripts?: boolean; env?: NodeJS.ProcessEnv } = {}): string {
  fs.mkdirSync(outDir, { recursive: true });
  const args = ["pack", "--json", "--pack-destination", outDir, ...(opts.ignoreScripts ? ["--ignore-scripts"] : [])];
  const r = spawnSync("npm", args, { cwd: packageDir, encoding: "utf8", env: { ...(opts.env ?? process.env), npm_config_update_notifier: "false" }, timeout: 600_000 });
  if (r.status !== 0) throw ReleasePack.wrap(`npm pack failed (${r.error?.message ?? `exit ${r.status}`}): ${r.stderr.trim().split("\n").slice(-5).join("\n")}`);
  const json = r.stdout.slice(r.stdout.indexOf("["));
  const [first] = JSON.parse(json) as Array<{ filename: string }>;
  if (!first) throw ReleasePack.wrap("npm pack printed no tarball");
  // npm names a scoped package's tarball with the scope's '@' and '/' replaced
  return path.join(outDir, first.filename.replace(/^@/, "").replace(/\//g, "-"));
}

export function trustedComment(file: string, now = new Date()): string {
  return `timestamp:${Math.floor(now.getTime() / 1000)}\tfile:${file}\thashed`;
}

export function buildRelease(o: ReleaseOptions): ReleaseResult {
  const pkg = JSON.parse(fs.readFileSync(path.join(o.packageDir, "package.json"), "utf8")) as { version: string };
  const asset = npmPack(o.packageDir, o.outDir, { ...(o.ignoreScripts ? { ignoreScripts: true } : {}), ...(o.env ? { env: o.env } : {}) });
  const name = path.basename(asset);
  const data = fs.readFileSync(asset);
  const sum = sha256Hex(data);
  fs.writeFileSync(`${asset}.minisig`, sign(data, o.key, trustedComment(name)));
  fs.writeFileSync(path.join(o.outDir, "SHA256SUMS"), sha256SumsLine(sum, name));
  const url = (f: string) => (o.baseUrl ? `${o.baseUrl.replace(/\/+$/, "")}/${f}` : f);
  const manifest: ReleaseManifest = { version: pkg.version, channel: o.channel, artifacts: [{ target: "node", url: url(name), sha256: sum, minisig: url(`${name}.minisig`) }] };
  fs.writeFileSync(path.join(o.outDir, "manifest.json"), `${JSON.stringify(manifest, null, 2)}\n`);
  fs.writeFileSync(path.join(o.outDir, "minisign.pub"), publicKeyFile(o.key));
  return { asset, manifest, files: [name, `${name}.minisig`, "SHA256SUMS", "manifest.json", "minisign.pub"].map((f) => path.join(o.outDir, f)) };
}

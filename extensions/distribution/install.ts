/**
 * One update, from a manifest to a switched `current` link: download to a temp folder, verify sha256 then
 * the signature (nothing is unpacked before both pass), `npm install` the verified tarball side by side
 * into <versions>/<v>/, run that version's own self-check, and only then switch `current`. A failure at
 * any step removes what it made and leaves the running version and the link as they were.
 */
import { spawn, spawnSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import semver from "semver";
import { CHANNELS, CURRENT_LINK, type Channel, type ReleaseArtifact, type ReleaseManifest } from "./api.js";
import { fetchBytes, resolveUrl } from "./fetch.js";
import { verifyAsset, verifyFailure } from "./verify.js";
import { currentVersion, installedBin, switchCurrent } from "./versions.js";
import { nativeBindingEnv } from "./native-binding.js";
import { ReleaseInstall, ReleaseManifestInvalid } from "./errors.js";

export const INSTALL_RECORD = ".oc-install.json";

export interface UpdateRequest {
  versions: string;
  manifestUrl: string;
  channel: Channel;
  /** the version this process is */
  runningVersion: string;
  pubkey?: string;
  timeoutMs: number;
  /** a line of progress for the user */
  say(line: string): void;
  env?: NodeJS.ProcessEnv;
}

export interface UpdateOutcome {
  code: 0 | 1;
  /** what happened, one line */
  result: "updated" | "up-to-date" | "refused" | "failed" | "rolled-back";
  message: string;
  version?: string;
}

export function parseManifest(text: string): ReleaseManifest {
  let m: unknown;
  try {
    m = JSON.parse(text);
  } catch (e) {
    throw ReleaseManifestInvalid.wrap(`the manifest is not JSON (${(e as Error).message})`);
  }
  const o = m as Partial<ReleaseManifest>;
  if (!o || typeof o !== "object" || typeof o.version !== "string" || !semver.valid(o.version)) throw ReleaseManifestInvalid.wrap("the manifest has no valid version");
  if (!CHANNELS.includes(o.channel as Channel)) throw ReleaseManifestInvalid.wrap(`the manifest's channel must be one of ${CHANNELS.join(", ")}`);
  if (!Array.isArray(o.artifacts) || !o.artifacts.every((a: Partial<ReleaseArtifact>) => a && ["target", "url", "sha256", "minisig"].every((k) => typeof (a as Record<string, unknown>)[k] === "string"))) throw ReleaseManifestInvalid.wrap("the manifest's artifacts need target, url, sha256 and minisig strings");
  if (!o.artifacts.every((a) => /^[0-9a-fA-F]{64}$/.test(a.sha256))) throw ReleaseManifestInvalid.wrap("an artifact's sha256 is not 64 hex digits");
  return o as ReleaseManifest;
}

function record(versionDir: string): { version: string; bin: string } | undefined {
  try {
    return JSON.parse(fs.readFileSync(path.join(versionDir, INSTALL_RECORD), "utf8")) as { version: string; bin: string };
  } catch {
    return undefined;
  }
}

/** The self-check of the version installed in `versionDir`: its bin's `self-check` prints SELF_CHECK_OK. */
export function selfCheck(bin: string, env: NodeJS.ProcessEnv, timeoutMs = 120_000): Promise<{ ok: boolean; detail: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [bin, "self-check"], { env: { ...env, OC_NO_VERSION_SWITCH: "1" }, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    child.stderr.on("data", (d: Buffer) => (err += d.toString()));
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.on("error", (e) => {
      clearTimeout(timer);
      resolve({ ok: false, detail: e.message });
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      const ok = code === 0 && /^SELF_CHECK_OK$/m.test(out);
      const last = (err.trim() || out.trim()).split("\n").slice(-1)[0] ?? "";
      resolve({ ok, detail: ok ? "SELF_CHECK_OK" : `${signal ? `killed by ${signal}` : `exit ${code}`}${last ? `: ${last}` : ""}` });
    });
  });
}

export async function runUpdate(r: UpdateRequest): Promise<UpdateOutcome> {
  const env = r.env ?? process.env;
  let manifest: ReleaseManifest;
  let base: URL;
  try {
    base = resolveUrl(r.manifestUrl);
    manifest = parseManifest((await fetchBytes(base, r.timeoutMs)).toString("utf8"));
  } catch (e) {
    return { code: 1, result: "failed", message: `cannot read the release manifest ${r.manifestUrl}: ${(e as Error).message}` };
  }
  r.say(`manifest: ${base.href} (version ${manifest.version}, channel ${manifest.channel})`);
  if (manifest.channel !== r.channel) return { code: 1, result: "refused", message: `the manifest is for channel ${manifest.channel}; this install follows ${r.channel}` };
  fs.mkdirSync(r.versions, { recursive: true });
  const installed = currentVersion(r.versions);
  const have = [r.runningVersion, installed].filter((v): v is string => !!v && !!semver.valid(v)).sort(semver.rcompare)[0] ?? r.runningVersion;
  if (semver.valid(have) && semver.lte(manifest.version, have)) return { code: 0, result: "up-to-date", message: `already up to date (${have}; the ${r.channel} release is ${manifest.version})`, version: have };
  const artifact = manifest.artifacts.find((a) => a.target === "node" || a.target === "npm");
  if (!artifact) return { code: 1, result: "refused", message: `the manifest has no node/npm artifact (targets: ${manifest.artifacts.map((a) => a.target).join(", ") || "none"})` };

  const tag = crypto.randomBytes(4).toString("hex");
  const download = path.join(r.versions, `.download-${tag}`);
  const target = path.join(r.versions, manifest.version);
  let placed = false;
  try {
    fs.mkdirSync(download);
    let asset: Buffer, sig: string;
    try {
      const assetUrl = resolveUrl(artifact.url, base.href);
      asset = await fetchBytes(assetUrl, r.timeoutMs);
      sig = (await fetchBytes(resolveUrl(artifact.minisig, base.href), r.timeoutMs)).toString("utf8");
    } catch (e) {
      return { code: 1, result: "failed", message: `download failed: ${(e as Error).message}` };
    }
    try {
      const rep = verifyAsset(asset, sig, { expectedSha256: artifact.sha256, ...(r.pubkey !== undefined ? { pubkey: r.pubkey } : {}) });
      r.say(`sha256 ok (${rep.sha256})`);
      r.say(`signature ok (key ${rep.keyId}, trusted comment: ${rep.trustedComment})`);
    } catch (e) {
      const failed = verifyFailure(e);
      if (failed && failed !== "sha256") r.say("sha256 ok");
      if (failed) return { code: 1, result: "refused", message: `refused ${manifest.version}: ${(e as Error).message}; nothing was unpacked` };
      throw e;
    }
    const tgz = path.join(download, `oceancode-${manifest.version}.tgz`);
    fs.writeFileSync(tgz, asset);
    if (fs.existsSync(target) && installed !== manifest.version) fs.rmSync(target, { recursive: true, force: true }); // a leftover
    fs.mkdirSync(target, { recursive: true });
    placed = true;
    // npm installs the tarball's dependencies (and runs better-sqlite3's build) the way a global install does
    // on a closed network the native binding comes from this install's own (same versions) or a compile (nodedir)
    const native = nativeBindingEnv(env, download);
    const npm = spawnSync("npm", ["install", "--prefix", target, "--no-audit", "--no-fund", "--omit=dev", "--prefer-offline", tgz], { env: { ...env, ...native, npm_config_update_notifier: "false" }, encoding: "utf8", timeout: 600_000 });
    if (npm.status !== 0) throw ReleaseInstall.wrap(`npm install failed (${npm.error?.message ?? `exit ${npm.status}`}): ${(npm.stderr ?? "").trim().split("\n").slice(-3).join(" / ")}`);
    const bin = installedBin(target);
    if (!bin || bin.version !== manifest.version) throw ReleaseInstall.wrap(`the installed package is not oceancode ${manifest.version}`);
    fs.writeFileSync(path.join(target, INSTALL_RECORD), `${JSON.stringify({ version: manifest.version, bin: path.relative(target, bin.bin) })}\n`);
    r.say(`installed ${manifest.version} side by side in ${target}`);
    const check = await selfCheck(bin.bin, env);
    if (!check.ok) {
      fs.rmSync(target, { recursive: true, force: true });
      placed = false;
      return { code: 1, result: "rolled-back", message: `${manifest.version}'s self-check failed (${check.detail}): removed it; ${installed ? `current still points at ${installed}` : "nothing was switched"}` };
    }
    r.say(`self-check ok (${manifest.version})`);
    switchCurrent(r.versions, manifest.version);
    placed = false;
    r.say(`switched: ${path.join(r.versions, CURRENT_LINK)} -> ${manifest.version}`);
    return { code: 0, result: "updated", message: `updated to ${manifest.version}${installed ? ` (was ${installed})` : ""}`, version: manifest.version };
  } catch (e) {
    return { code: 1, result: "failed", message: `update to ${manifest.version} failed: ${(e as Error).message}; ${installed ? `current still points at ${installed}` : "nothing was switched"}` };
  } finally {
    fs.rmSync(download, { recursive: true, force: true });
    if (placed) fs.rmSync(target, { recursive: true, force: true });
  }
}

export { record as installRecord };

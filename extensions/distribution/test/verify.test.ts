/**
 * verify-release through the compiled CLI, and minisign interop both ways with the real /usr/bin/minisign:
 * a good, a tampered, an unsigned, a wrong-key and a malformed asset; `npm run release`'s script on a tiny
 * package (manifest shape, SHA256SUMS, refusal without a key).
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeSandbox, REPO_ROOT, runCli, type Sandbox } from "../../../test/kit/cli.js";
import { encodePublicKey, generateKeyPair, keyIdHex, parsePublicKey, publicKeyFile, secretKeyFile, type SecretKey } from "../minisign.js";
import { tinyPackage } from "../throwaway.js";
import { PINNED_RELEASE_KEY, PINNED_RELEASE_KEY_ID } from "../api.js";

let sb: Sandbox;
let key: SecretKey;
let rel: string;
let asset: string;
const RELEASE_MAIN = path.join(REPO_ROOT, "dist", "extensions", "distribution", "release-main.js");
const oc = (args: string[]) => runCli(args, { env: sb.env, cwd: sb.project });
const release = (args: string[], env: NodeJS.ProcessEnv = {}) => spawnSync(process.execPath, [RELEASE_MAIN, ...args], { env: { ...sb.env, npm_config_cache: path.join(sb.home, ".npm"), ...env }, encoding: "utf8", timeout: 60_000 });

beforeAll(() => {
  sb = makeSandbox("oc-verify-");
  key = generateKeyPair();
  const keyFile = sb.write("release.key", secretKeyFile(key), "home");
  const pkg = tinyPackage(path.join(sb.home, "pkg"), "2.6.0", true);
  rel = path.join(sb.home, "rel");
  const r = release(["--package", pkg, "--out", rel, "--channel", "next", "--base-url", "https://example.test/dl/"], { OC_RELEASE_SECRET_KEY: keyFile });
  expect(r.status, r.stderr).toBe(0);
  asset = path.join(rel, "oceancode-2.6.0.tgz");
});
afterAll(() => sb.cleanup());

describe("npm run release's script", () => {
  it("writes the tarball, SHA256SUMS, the .minisig and the guide's manifest", () => {
    expect(fs.readdirSync(rel).sort()).toEqual(["SHA256SUMS", "manifest.json", "minisign.pub", "oceancode-2.6.0.tgz", "oceancode-2.6.0.tgz.minisig"]);
    const sum = spawnSync("sha256sum", ["-c", "SHA256SUMS"], { cwd: rel, encoding: "utf8" });
    expect(sum.status, sum.stderr).toBe(0);
    expect(sum.stdout).toBe("oceancode-2.6.0.tgz: OK\n");
    const m = JSON.parse(fs.readFileSync(path.join(rel, "manifest.json"), "utf8")) as Record<string, unknown>;
    expect(Object.keys(m)).toEqual(["version", "channel", "artifacts"]);
    const hex = fs.readFileSync(path.join(rel, "SHA256SUMS"), "utf8").slice(0, 64);
    expect(m).toEqual({ version: "2.6.0", channel: "next", artifacts: [{ target: "node", url: "https://example.test/dl/oceancode-2.6.0.tgz", sha256: hex, minisig: "https://example.test/dl/oceancode-2.6.0.tgz.minisig" }] });
  });

  it("refuses without a signing key and writes nothing", () => {
    const out = path.join(sb.home, "unsigned");
    const r = release(["--package", path.join(sb.home, "pkg"), "--out", out], { OC_RELEASE_SECRET_KEY: "" });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("no signing key: set OC_RELEASE_SECRET_KEY");
    expect(fs.existsSync(out)).toBe(false);
  });

  it("the pinned key in api.ts is release-key.pub's", () => {
    const file = fs.readFileSync(path.join(REPO_ROOT, "extensions", "distribution", "release-key.pub"), "utf8");
    expect(encodePublicKey(parsePublicKey(file))).toBe(PINNED_RELEASE_KEY);
    expect(keyIdHex(parsePublicKey(file).keyId)).toBe(PINNED_RELEASE_KEY_ID);
    expect(file).toContain(`minisign public key ${PINNED_RELEASE_KEY_ID}`);
  });
});

describe("oceancode verify-release", () => {
  it("a good asset: sha256 (SHA256SUMS beside it) and the signature, exit 0", () => {
    const r = oc(["verify-release", asset, "--pubkey", encodePublicKey(key)]);
    expect(r.code, r.stderr).toBe(0);
    const hex = fs.readFileSync(path.join(rel, "SHA256SUMS"), "utf8").slice(0, 64);
    expect(r.stdout).toContain(`sha256 ok (${hex}, SHA256SUMS)`);
    expect(r.stdout).toMatch(new RegExp(`signature ok \\(key ${keyIdHex(key.keyId)}, trusted comment: timestamp:\\d+\\s+file:oceancode-2.6.0.tgz\\s+hashed\\)`));
    expect(r.stdout).toContain("VERIFIED oceancode-2.6.0.tgz");
  });

  it("tampered, unsigned, wrong-key, malformed: exit 1 naming what failed; usage errors exit 2", () => {
    const dir = path.join(sb.home, "bad");
    fs.cpSync(rel, dir, { recursive: true });
    const bad = path.join(dir, "oceancode-2.6.0.tgz");
    const pub = encodePublicKey(key);
    // pinned key (no --pubkey): the throwaway key is another key
    const wrong = oc(["verify-release", asset]);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain(`signed by another key (key ${keyIdHex(key.keyId)}, expected ${PINNED_RELEASE_KEY_ID})`);
    // tampered, with SHA256SUMS: the sum fails first; with --sha256sums pointing at a fresh sums file the signature fails
    const data = fs.readFileSync(bad);
    data[100] = (data[100] ?? 0) ^ 1;
    fs.writeFileSync(bad, data);
    const t = oc(["verify-release", bad, "--pubkey", pub]);
    expect(t.code).toBe(1);
    expect(t.stderr).toContain("sha256 mismatch");
    const sums = path.join(sb.home, "sums");
    fs.writeFileSync(sums, `${spawnSync("sha256sum", [bad], { encoding: "utf8" }).stdout.slice(0, 64)}  oceancode-2.6.0.tgz\n`);
    const t2 = oc(["verify-release", bad, "--pubkey", pub, "--sha256sums", sums]);
    expect(t2.code).toBe(1);
    expect(t2.stdout).toContain("sha256 ok");
    expect(t2.stderr).toContain("signature: signature does not match the file (tampered or corrupt)");
    // an altered trusted comment
    const good = path.join(dir, "good.tgz");
    fs.copyFileSync(asset, good);
    fs.writeFileSync(`${good}.minisig`, fs.readFileSync(`${asset}.minisig`, "utf8").replace("trusted comment: timestamp", "trusted comment: timestampX"));
    const tc = oc(["verify-release", good, "--pubkey", pub, "--sha256sums", sums.replace("sums", "none")]);
    expect(tc.code).toBe(1);
    const tc2 = oc(["verify-release", good, "--pubkey", pub, "--sig", `${good}.minisig`, "--sha256sums", path.join(rel, "SHA256SUMS")]);
    expect(tc2.code).toBe(1);
    expect(tc2.stderr).toContain("SHA256SUMS has no line for good.tgz");
    fs.rmSync(path.join(dir, "SHA256SUMS"));
    const tc3 = oc(["verify-release", good, "--pubkey", pub]);
    expect(tc3.code).toBe(1);
    expect(tc3.stderr).toContain("the trusted comment was altered");
    // unsigned
    fs.rmSync(`${good}.minisig`);
    const u = oc(["verify-release", good, "--pubkey", pub]);
    expect(u.code).toBe(1);
    expect(u.stderr).toContain(`unsigned: no signature file ${good}.minisig`);
    // malformed
    fs.writeFileSync(`${good}.minisig`, "untrusted comment: x\nnot base64 at all\n");
    const mf = oc(["verify-release", good, "--pubkey", pub]);
    expect(mf.code).toBe(1);
    expect(mf.stderr).toContain("malformed signature file");
    // usage
    expect(oc(["verify-release"]).code).toBe(2);
    const badKey = oc(["verify-release", asset, "--pubkey", "RWnope"]);
    expect(badKey.code).toBe(2);
    expect(badKey.stderr).toContain("not a minisign public key");
  });
});

describe("interop with /usr/bin/minisign", () => {
  it("minisign -V accepts our signature; we accept minisign's (prehashed and legacy), and sign with its unencrypted key", () => {
    const dir = path.join(sb.home, "interop");
    fs.mkdirSync(dir);
    // ours -> minisign
    const pubFile = path.join(dir, "ours.pub");
    fs.writeFileSync(pubFile, publicKeyFile(key));
    const v = spawnSync("minisign", ["-V", "-p", pubFile, "-m", asset, "-x", `${asset}.minisig`], { encoding: "utf8" });
    expect(v.status, v.stderr).toBe(0);
    expect(v.stdout).toContain("Signature and comment signature verified");
    expect(v.stdout).toMatch(/Trusted comment: timestamp:\d+\tfile:oceancode-2.6.0.tgz\thashed/);
    const v2 = spawnSync("minisign", ["-V", "-P", encodePublicKey(key), "-m", asset, "-x", `${asset}.minisig`], { encoding: "utf8" });
    expect(v2.status, v2.stderr).toBe(0);
    // minisign -> ours
    const g = spawnSync("minisign", ["-G", "-W", "-p", path.join(dir, "mk.pub"), "-s", path.join(dir, "mk.key")], { encoding: "utf8" });
    expect(g.status, g.stderr).toBe(0);
    const file = path.join(dir, "file.bin");
    fs.writeFileSync(file, Buffer.from("a file minisign signs\n"));
    expect(spawnSync("minisign", ["-S", "-s", path.join(dir, "mk.key"), "-m", file, "-t", "signed by minisign"], { encoding: "utf8" }).status).toBe(0);
    const mkPub = fs.readFileSync(path.join(dir, "mk.pub"), "utf8");
    const id = /minisign public key ([0-9A-F]{1,16})/.exec(mkPub)![1]!;
    const r = oc(["verify-release", file, "--pubkey", mkPub.trim().split("\n")[1]!]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`signature ok (key ${id}, trusted comment: signed by minisign)`);
    // legacy (non-prehashed) Ed signature: minisign -l
    const legacy = path.join(dir, "legacy.bin");
    fs.writeFileSync(legacy, "legacy\n");
    expect(spawnSync("minisign", ["-S", "-l", "-s", path.join(dir, "mk.key"), "-m", legacy], { encoding: "utf8" }).status).toBe(0);
    expect(oc(["verify-release", legacy, "--pubkey", path.join(dir, "mk.pub")]).code).toBe(0);
    // minisign's unencrypted secret key signs a release that minisign verifies
    const out = path.join(dir, "rel");
    const rr = release(["--package", path.join(sb.home, "pkg"), "--out", out, "--key", path.join(dir, "mk.key")]);
    expect(rr.status, rr.stderr).toBe(0);
    expect(rr.stderr).toContain(`key ${id} is not the pinned release key`);
    const vv = spawnSync("minisign", ["-V", "-p", path.join(dir, "mk.pub"), "-m", path.join(out, "oceancode-2.6.0.tgz")], { encoding: "utf8" });
    expect(vv.status, vv.stderr).toBe(0);
  });
});

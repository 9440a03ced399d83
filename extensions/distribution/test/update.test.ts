/**
 * oceancode update through the compiled CLI in a throwaway HOME, from file: manifests of throwaway
 * releases (tiny packages with no dependencies, installed offline): a good release switches `current`
 * and the launcher then runs it; a bad signature is refused with nothing unpacked; a failing self-check
 * is rolled back; managed config turns updates off; requirements.json pins the channel; --self-test.
 */
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeSandbox, runCli, runCliAsync, type Sandbox } from "../../../test/kit/cli.js";
import { encodePublicKey, generateKeyPair, type SecretKey } from "../minisign.js";
import { throwawayRelease } from "../throwaway.js";

let sb: Sandbox;
let key: SecretKey;
let pub: string;
let env: NodeJS.ProcessEnv;
const urls: Record<string, string> = {};
const versions = () => path.join(sb.home, ".local", "share", "oceancode", "versions");
const current = () => fs.readlinkSync(path.join(versions(), "current"));
const oc = (args: string[], extra: NodeJS.ProcessEnv = {}) => runCli(args, { env: { ...env, ...extra }, cwd: sb.project, timeoutMs: 120_000 });

beforeAll(() => {
  sb = makeSandbox("oc-update-");
  env = { ...sb.env, npm_config_cache: path.join(sb.home, ".npm"), npm_config_offline: "true" };
  key = generateKeyPair();
  pub = encodePublicKey(key);
  const root = path.join(sb.home, "work");
  urls.good = throwawayRelease(root, "5.0.0", key, { selfCheckOk: true, env });
  urls.failing = throwawayRelease(root, "5.1.0", key, { selfCheckOk: false, env });
  urls.next = throwawayRelease(path.join(root, "n"), "6.0.0-next.1", key, { selfCheckOk: true, channel: "next", env });
  // a release signed by another key
  urls.otherKey = throwawayRelease(path.join(root, "other"), "7.0.0", generateKeyPair(), { selfCheckOk: true, env });
});
afterAll(() => sb.cleanup());

function writeRequirements(config: Record<string, unknown>): string {
  const keys = crypto.generateKeyPairSync("ed25519");
  const req = path.join(path.dirname(sb.env.OC_MANAGED_CONFIG!), "requirements.json");
  const text = JSON.stringify({ config });
  fs.mkdirSync(path.dirname(req), { recursive: true });
  fs.writeFileSync(req, text);
  fs.writeFileSync(`${req}.sig`, crypto.sign(null, Buffer.from(text), keys.privateKey).toString("base64"));
  return keys.publicKey.export({ type: "spki", format: "der" }).subarray(-32).toString("hex");
}

describe("oceancode update", () => {
  it("refuses a release signed by another key: nothing unpacked, no link", () => {
    const r = oc(["update", "--manifest", urls.otherKey!, "--pubkey", pub]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain("sha256 ok");
    expect(r.stderr).toMatch(/refused 7\.0\.0: signature: signed by another key .*; nothing was unpacked/);
    expect(fs.readdirSync(versions())).toEqual([]);
  });

  it("a good release: verified, installed side by side, self-checked, current switched; the launcher runs it", () => {
    const r = oc(["update", "--manifest", urls.good!, "--pubkey", pub]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/sha256 ok[\s\S]*signature ok[\s\S]*installed 5\.0\.0 side by side[\s\S]*self-check ok \(5\.0\.0\)[\s\S]*switched: .*current -> 5\.0\.0/);
    expect(r.stdout).toContain("updated to 5.0.0");
    expect(current()).toBe("5.0.0");
    expect(fs.readdirSync(versions()).sort()).toEqual(["5.0.0", "current"]);
    // the installed oceancode now runs the new version; OC_NO_VERSION_SWITCH=1 keeps this one
    expect(oc(["--version"]).stdout).toBe("oceancode 5.0.0\n");
    expect(oc(["--version"], { OC_NO_VERSION_SWITCH: "1" }).stdout).toMatch(/^oceancode 0\./);
    // same version again: already up to date, nothing changes
    const again = oc(["update", "--manifest", urls.good!, "--pubkey", pub], { OC_NO_VERSION_SWITCH: "1" });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain("already up to date (5.0.0");
  });

  it("a bad signature on a newer release: refused, nothing unpacked, the old link kept", () => {
    const dir = path.join(sb.home, "badsig");
    fs.cpSync(path.dirname(new URL(urls.failing!).pathname), dir, { recursive: true });
    const sig = path.join(dir, "oceancode-5.1.0.tgz.minisig");
    const lines = fs.readFileSync(sig, "utf8").split("\n");
    const raw = Buffer.from(lines[1]!, "base64");
    raw[20] = (raw[20] ?? 0) ^ 1;
    lines[1] = raw.toString("base64");
    fs.writeFileSync(sig, lines.join("\n"));
    const r = oc(["update", "--manifest", `file://${dir}/manifest.json`, "--pubkey", pub], { OC_NO_VERSION_SWITCH: "1" });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("refused 5.1.0: signature: signature does not match the file (tampered or corrupt); nothing was unpacked");
    expect(current()).toBe("5.0.0");
    expect(fs.readdirSync(versions()).sort()).toEqual(["5.0.0", "current"]);
  });

  it("a version whose self-check fails is removed and current is kept (rolled back)", () => {
    const r = oc(["update", "--manifest", urls.failing!, "--pubkey", pub], { OC_NO_VERSION_SWITCH: "1" });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain("installed 5.1.0 side by side");
    expect(r.stderr).toContain("5.1.0's self-check failed (exit 1: self-check failed on purpose (throwaway release)): removed it; current still points at 5.0.0");
    expect(current()).toBe("5.0.0");
    expect(fs.readdirSync(versions()).sort()).toEqual(["5.0.0", "current"]);
    expect(oc(["--version"]).stdout).toBe("oceancode 5.0.0\n");
  });

  it("the channel: a next manifest is refused on stable; requirements.json's pin beats --channel", () => {
    const plain = oc(["update", "--manifest", urls.next!, "--pubkey", pub], { OC_NO_VERSION_SWITCH: "1" });
    expect(plain.code).toBe(1);
    expect(plain.stderr).toContain("the manifest is for channel next; this install follows stable");
    const pk = writeRequirements({ "update.channel": "stable" });
    const pinned = oc(["update", "--channel", "next", "--manifest", urls.next!, "--pubkey", pub], { OC_NO_VERSION_SWITCH: "1", OC_REQUIREMENTS_PUBKEY: pk });
    expect(pinned.code).toBe(1);
    expect(pinned.stderr).toContain("--channel ignored: update.channel is pinned to stable by");
    expect(pinned.stderr).toContain("this install follows stable");
    expect(current()).toBe("5.0.0");
  });

  it("managed config update.enabled: false refuses with exit 3 and changes nothing", () => {
    fs.rmSync(path.join(path.dirname(sb.env.OC_MANAGED_CONFIG!), "requirements.json"), { force: true });
    fs.writeFileSync(sb.env.OC_MANAGED_CONFIG!, JSON.stringify({ update: { enabled: false } }));
    try {
      const r = oc(["update", "--manifest", urls.failing!, "--pubkey", pub], { OC_NO_VERSION_SWITCH: "1" });
      expect(r.code).toBe(3);
      expect(r.stderr).toContain(`updates are turned off (update.enabled is false in ${sb.env.OC_MANAGED_CONFIG}); nothing was changed`);
      expect(fs.readdirSync(versions()).sort()).toEqual(["5.0.0", "current"]);
    } finally {
      fs.rmSync(sb.env.OC_MANAGED_CONFIG!);
    }
  });

  it("update.manifest_url from the user's config", () => {
    const none = oc(["update", "--pubkey", pub], { OC_NO_VERSION_SWITCH: "1" });
    expect(none.code).toBe(1);
    expect(none.stderr).toContain("no release manifest: set update.manifest_url");
    fs.mkdirSync(path.join(sb.home, ".config", "oceancode"), { recursive: true });
    fs.writeFileSync(path.join(sb.home, ".config", "oceancode", "oceancode.json"), JSON.stringify({ update: { manifest_url: urls.good } }));
    const user = oc(["update", "--pubkey", pub], { OC_NO_VERSION_SWITCH: "1" });
    expect(user.code, user.stderr).toBe(0);
    expect(user.stdout).toContain("already up to date (5.0.0");
  });

  it("--self-test proves the swap and the rollback offline", async () => {
    const r = await runCliAsync(["update", "--self-test"], { env: { ...env, OC_NO_VERSION_SWITCH: "1" }, cwd: sb.project, timeoutMs: 120_000 });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toMatch(/switch ok: current -> 1000\.0\.0[\s\S]*tampered 1000\.0\.1: refused[\s\S]*rollback ok: current still -> 1000\.0\.0[\s\S]*\nSELF_TEST_OK\n$/);
    expect(current()).toBe("5.0.0"); // the real install is untouched
  });
});

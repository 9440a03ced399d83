/**
 * `oceancode update --self-test`: offline, in a temp dir. A throwaway key pair and two throwaway releases
 * (one good, one whose self-check fails), then: the good one installs and `current` switches to it; a
 * tampered copy is refused before unpacking; the bad one is installed, fails its self-check and is rolled
 * back with `current` untouched. Each step printed; SELF_TEST_OK at the end.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { CommandIO } from "../../kernel/api.js";
import { encodePublicKey, generateKeyPair } from "./minisign.js";
import { throwawayRelease } from "./throwaway.js";
import { INSTALL_RECORD, runUpdate } from "./install.js";
import { currentVersion } from "./versions.js";
import { SelfTestFailed } from "./errors.js";

export async function selfTest(io: CommandIO, runningVersion: string): Promise<number> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "oc-update-selftest-"));
  const step = (s: string) => io.stdout.write(`${s}\n`);
  const env = { ...io.env, npm_config_cache: path.join(root, "npm-cache"), npm_config_offline: "true" };
  try {
    const key = generateKeyPair();
    const pubkey = encodePublicKey(key);
    const versions = path.join(root, "data", "versions");
    const good = "1000.0.0";
    const bad = "1000.0.1";
    step(`throwaway key ${pubkey}`);
    const goodUrl = throwawayRelease(root, good, key, { selfCheckOk: true, env });
    const badUrl = throwawayRelease(root, bad, key, { selfCheckOk: false, env });
    step(`throwaway releases ${good} (good) and ${bad} (self-check fails) in ${path.join(root, "releases")}`);
    const base = { versions, channel: "stable" as const, runningVersion, pubkey, timeoutMs: 10_000, say: (l: string) => step(`  ${l}`), env };

    const a = await runUpdate({ ...base, manifestUrl: goodUrl });
    step(`update to ${good}: ${a.message}`);
    if (a.result !== "updated" || currentVersion(versions) !== good) throw SelfTestFailed.wrap(`the good release did not switch current (${a.result})`);
    const rec = JSON.parse(fs.readFileSync(path.join(versions, good, INSTALL_RECORD), "utf8")) as { bin: string };
    const ran = spawnSync(process.execPath, [path.join(versions, "current", rec.bin), "--version"], { encoding: "utf8", env: { ...env, OC_NO_VERSION_SWITCH: "1" } });
    if (ran.stdout.trim() !== `oceancode ${good}`) throw SelfTestFailed.wrap(`current's oceancode says '${ran.stdout.trim()}'`);
    step(`switch ok: current -> ${good}, its --version says ${ran.stdout.trim()}`);

    // a tampered asset: the bad release's tarball with one byte changed
    const badDir = path.dirname(fileURLToPath(badUrl));
    const asset = fs.readdirSync(badDir).find((f) => f.endsWith(".tgz"))!;
    const tamperedDir = path.join(root, "releases", "tampered");
    fs.cpSync(badDir, tamperedDir, { recursive: true });
    const t = fs.readFileSync(path.join(tamperedDir, asset));
    t[t.length - 1] = (t[t.length - 1] ?? 0) ^ 0xff;
    fs.writeFileSync(path.join(tamperedDir, asset), t);
    const m = await runUpdate({ ...base, manifestUrl: new URL("manifest.json", `file://${tamperedDir}/`).href });
    if (m.result !== "refused" || fs.existsSync(path.join(versions, bad)) || currentVersion(versions) !== good) throw SelfTestFailed.wrap(`a tampered release was not refused (${m.result})`);
    step(`tampered ${bad}: ${m.message}`);

    const b = await runUpdate({ ...base, manifestUrl: badUrl });
    step(`update to ${bad}: ${b.message}`);
    if (b.result !== "rolled-back" || currentVersion(versions) !== good || fs.existsSync(path.join(versions, bad))) throw SelfTestFailed.wrap(`the failing release was not rolled back (${b.result}, current ${currentVersion(versions)})`);
    step(`rollback ok: current still -> ${good}, ${bad} removed`);
    step("SELF_TEST_OK");
    return 0;
  } catch (e) {
    io.stdout.write(`SELF_TEST_FAILED: ${(e as Error).message}\n`);
    return 1;
  } finally {
    fs.rmSync(root, { recursive: true, force: true, maxRetries: 3 });
  }
}

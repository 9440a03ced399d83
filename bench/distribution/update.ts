/**
 * Update figures: time from a file: manifest to a switched `current` (a throwaway release: tiny package,
 * no dependencies, offline), and verify-release's check (sha256 + signature) on the real npm tarball of
 * this package (npm pack --ignore-scripts of the built tree). Prints figures; asserts nothing.
 * Run: npm run build && node dist/bench/distribution/update.js
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { encodePublicKey, generateKeyPair, sign } from "../../extensions/distribution/minisign.js";
import { throwawayRelease } from "../../extensions/distribution/throwaway.js";
import { runUpdate } from "../../extensions/distribution/install.js";
import { npmPack, trustedComment } from "../../extensions/distribution/release.js";
import { sha256Hex, verifyAsset } from "../../extensions/distribution/verify.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "oc-bench-update-"));
const env = { ...process.env, npm_config_cache: path.join(tmp, "npm-cache"), npm_config_offline: "true" };
const ms = (t: bigint) => (Number(process.hrtime.bigint() - t) / 1e6).toFixed(1);
try {
  const key = generateKeyPair();
  const pubkey = encodePublicKey(key);
  const runs: string[] = [];
  for (let i = 0; i < 3; i++) {
    const url = throwawayRelease(path.join(tmp, `r${i}`), `100${i}.0.0`, key, { selfCheckOk: true, env });
    const t = process.hrtime.bigint();
    const out = await runUpdate({ versions: path.join(tmp, "versions"), manifestUrl: url, channel: "stable", runningVersion: "0.0.1", pubkey, timeoutMs: 10_000, say: () => undefined, env });
    if (out.result !== "updated") throw new Error(out.message);
    runs.push(ms(t));
  }
  console.log(`update manifest -> switched current (throwaway release, offline): ${runs.join(" / ")} ms`);

  const t0 = process.hrtime.bigint();
  const tgz = npmPack(root, path.join(tmp, "pack"), { ignoreScripts: true, env });
  const packMs = ms(t0);
  const data = fs.readFileSync(tgz);
  const sig = sign(data, key, trustedComment(path.basename(tgz)));
  const sum = sha256Hex(data);
  const times: string[] = [];
  for (let i = 0; i < 5; i++) {
    const t = process.hrtime.bigint();
    verifyAsset(data, sig, { expectedSha256: sum, pubkey });
    times.push(ms(t));
  }
  console.log(`npm pack of this tree: ${packMs} ms, ${(data.length / 1024 / 1024).toFixed(2)} MiB`);
  console.log(`verify (sha256 + minisign signature) of that tarball: ${times.join(" / ")} ms`);
} finally {
  fs.rmSync(tmp, { recursive: true, force: true });
}

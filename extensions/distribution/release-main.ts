/**
 * `npm run release [-- --out <dir>] [--key <path>] [--channel stable|next] [--base-url <url>] [--package <dir>]`:
 * the signed release of this package (release/<version>/ by default). The secret key is a file named by
 * --key or $OC_RELEASE_SECRET_KEY; without one nothing is written (never an unsigned release).
 */
import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { fileURLToPath } from "node:url";
import { keyIdHex, parseSecretKey } from "./minisign.js";
import { buildRelease } from "./release.js";
import { CHANNELS, PINNED_RELEASE_KEY_ID, type Channel } from "./api.js";

const USAGE = "usage: npm run release -- [--out <dir>] [--key <secret key file>] [--channel stable|next] [--base-url <url>] [--package <dir>]";

function main(argv: string[]): number {
  let values: { out?: string; key?: string; channel?: string; "base-url"?: string; package?: string };
  try {
    values = parseArgs({ args: argv, strict: true, options: { out: { type: "string" }, key: { type: "string" }, channel: { type: "string" }, "base-url": { type: "string" }, package: { type: "string" } } }).values;
  } catch (e) {
    process.stderr.write(`release: ${(e as Error).message}\n${USAGE}\n`);
    return 2;
  }
  const channel = (values.channel ?? "stable") as Channel;
  if (!CHANNELS.includes(channel)) {
    process.stderr.write(`release: unknown channel '${channel}' (stable or next)\n${USAGE}\n`);
    return 2;
  }
  const keyFile = values.key ?? process.env.OC_RELEASE_SECRET_KEY;
  if (!keyFile) {
    process.stderr.write(`release: no signing key: set OC_RELEASE_SECRET_KEY to the secret key file or pass --key (an unsigned release is never written)\n${USAGE}\n`);
    return 2;
  }
  let key;
  try {
    key = parseSecretKey(fs.readFileSync(keyFile, "utf8"));
  } catch (e) {
    process.stderr.write(`release: ${keyFile}: ${(e as Error).message}\n`);
    return 1;
  }
  const packageDir = path.resolve(values.package ?? path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..", ".."));
  const version = (JSON.parse(fs.readFileSync(path.join(packageDir, "package.json"), "utf8")) as { version: string }).version;
  const outDir = path.resolve(values.out ?? path.join(packageDir, "release", version));
  if (keyIdHex(key.keyId) !== PINNED_RELEASE_KEY_ID) process.stderr.write(`release: warning: key ${keyIdHex(key.keyId)} is not the pinned release key (${PINNED_RELEASE_KEY_ID}): verify-release needs --pubkey for these assets\n`);
  try {
    const r = buildRelease({ packageDir, outDir, key, channel, ...(values["base-url"] ? { baseUrl: values["base-url"] } : {}), ignoreScripts: true });
    for (const f of r.files) process.stdout.write(`${f}\n`);
    process.stdout.write(`release ${r.manifest.version} (${channel}) signed with key ${keyIdHex(key.keyId)}\n`);
    return 0;
  } catch (e) {
    process.stderr.write(`release: ${(e as Error).message}\n`);
    return 1;
  }
}

process.exitCode = main(process.argv.slice(2));

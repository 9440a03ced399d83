/** Checking a release asset: its SHA256SUMS line, then its minisign signature against a trusted key. */
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { keyIdHex, parsePublicKey, verify, type PublicKey } from "./minisign.js";
import { PINNED_RELEASE_KEY, type VerifyReport } from "./api.js";
import { MinisignRefused, ReleaseUnverified } from "./errors.js";

export function sha256Hex(data: Buffer): string {
  return crypto.createHash("sha256").update(data).digest("hex");
}

/** The trusted key: --pubkey (base64 line, or a .pub file's path) over the pinned one. */
export function trustedKey(pubkey?: string): PublicKey {
  if (pubkey === undefined) return parsePublicKey(PINNED_RELEASE_KEY);
  if (!/^RW[A-Za-z0-9+/=]+$/.test(pubkey.trim()) && fs.existsSync(pubkey)) return parsePublicKey(fs.readFileSync(pubkey, "utf8"));
  return parsePublicKey(pubkey);
}

/** sha256sum's format: "<64 hex>  <name>" or "<64 hex> *<name>" (binary mode); returns name -> hex */
export function parseSha256Sums(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of text.split(/\r?\n/)) {
    const m = /^([0-9a-fA-F]{64}) [ *](.+)$/.exec(line);
    if (m) out.set(path.basename(m[2]!), m[1]!.toLowerCase());
  }
  return out;
}

export function sha256SumsLine(hex: string, name: string): string {
  return `${hex}  ${name}\n`;
}

/** A failed check as OC_ERR_RELEASE_UNVERIFIED; `data.what` names the check. */
export function VerifyError(what: "sha256" | "signature" | "unsigned" | "key", message: string) {
  return ReleaseUnverified({ message }, { data: { what } });
}
/** The check a ReleaseUnverified error names, if `e` is one. */
export function verifyFailure(e: unknown): "sha256" | "signature" | "unsigned" | "key" | undefined {
  return ReleaseUnverified.is(e) ? e.data?.what : undefined;
}

/** sha256 first (when an expected sum is known), then the signature; throws VerifyError naming the failed check. */
export function verifyAsset(asset: Buffer, signature: string | undefined, opts: { expectedSha256?: string; pubkey?: string } = {}): VerifyReport {
  let key: PublicKey;
  try {
    key = trustedKey(opts.pubkey);
  } catch (e) {
    throw VerifyError("key", `--pubkey: ${(e as Error).message}`);
  }
  let sum: string | undefined;
  if (opts.expectedSha256 !== undefined) {
    sum = sha256Hex(asset);
    if (sum !== opts.expectedSha256.toLowerCase()) throw VerifyError("sha256", `sha256 mismatch: the file is ${sum}, the release says ${opts.expectedSha256.toLowerCase()}`);
  }
  if (signature === undefined) throw VerifyError("unsigned", "unsigned: no minisign signature for this asset");
  try {
    const sig = verify(asset, signature, key);
    return { ...(sum ? { sha256: sum } : {}), keyId: keyIdHex(key.keyId), trustedComment: sig.trustedComment };
  } catch (e) {
    if (MinisignRefused.is(e)) throw VerifyError("signature", `signature: ${e.message}`);
    throw e;
  }
}

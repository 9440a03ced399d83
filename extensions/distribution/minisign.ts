/**
 * minisign's file formats over node:crypto (Ed25519, BLAKE2b-512 are built in): public keys, signatures
 * (prehashed `ED`, legacy `Ed` verified too) and secret keys. Only the format layer lives here.
 *
 * Public key:  base64("Ed" || key id (8 bytes) || Ed25519 public key (32))
 * Signature:   untrusted comment line, base64("ED" || key id || Ed25519(BLAKE2b-512(file))),
 *              trusted comment line, base64(Ed25519(signature || trusted comment bytes))
 * Secret key:  read in minisign's unencrypted form (`minisign -G -W`) or ours, which is
 *              "untrusted comment: oceancode release secret key (unencrypted)" then
 *              base64("Ed" || key id || Ed25519 seed (32) || public key (32)).
 */
import crypto from "node:crypto";
import { MinisignRefused } from "./errors.js";

export interface PublicKey {
  keyId: Buffer;
  pk: Buffer;
}
export interface SecretKey extends PublicKey {
  seed: Buffer;
}
export interface Signature {
  algorithm: "Ed" | "ED";
  keyId: Buffer;
  signature: Buffer;
  untrustedComment: string;
  trustedComment: string;
  globalSignature: Buffer;
}

const SPKI_PREFIX = Buffer.from("302a300506032b6570032100", "hex");
const PKCS8_PREFIX = Buffer.from("302e020100300506032b657004220420", "hex");
const OUR_SECRET_COMMENT = "untrusted comment: oceancode release secret key (unencrypted)";

/** minisign shows a key id as the hex of its 8 bytes read little-endian. */
export function keyIdHex(keyId: Buffer): string {
  // as minisign prints it (`%" PRIX64`: the little-endian id in upper-case hex, no leading zeros)
  return Buffer.from(keyId).reverse().toString("hex").toUpperCase().replace(/^0+(?=.)/, "");
}

function publicKeyObject(pk: Buffer): crypto.KeyObject {
  return crypto.createPublicKey({ key: Buffer.concat([SPKI_PREFIX, pk]), format: "der", type: "spki" });
}
function privateKeyObject(seed: Buffer): crypto.KeyObject {
  return crypto.createPrivateKey({ key: Buffer.concat([PKCS8_PREFIX, seed]), format: "der", type: "pkcs8" });
}

export function generateKeyPair(): SecretKey {
  const { privateKey, publicKey } = crypto.generateKeyPairSync("ed25519");
  const seed = privateKey.export({ format: "der", type: "pkcs8" }).subarray(-32);
  const pk = publicKey.export({ format: "der", type: "spki" }).subarray(-32);
  return { keyId: crypto.randomBytes(8), pk: Buffer.from(pk), seed: Buffer.from(seed) };
}

/** The base64 line of a public key (what --pubkey and minisign -P take). */
export function encodePublicKey(k: PublicKey): string {
  return Buffer.concat([Buffer.from("Ed"), k.keyId, k.pk]).toString("base64");
}

/** A public key file's text, minisign's layout. */
export function publicKeyFile(k: PublicKey): string {
  return `untrusted comment: minisign public key ${keyIdHex(k.keyId)}\n${encodePublicKey(k)}\n`;
}

/** A base64 line or a whole .pub file (its last non-comment line). */
export function parsePublicKey(text: string): PublicKey {
  const line = text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith("untrusted comment:"))[0];
  const raw = line && /^[A-Za-z0-9+/=]+$/.test(line) ? Buffer.from(line, "base64") : Buffer.alloc(0);
  if (raw.length !== 42 || raw.subarray(0, 2).toString("latin1") !== "Ed") throw MinisignRefused({ message: "not a minisign public key (base64 of \"Ed\", an 8-byte key id and a 32-byte Ed25519 key)" });
  return { keyId: raw.subarray(2, 10), pk: raw.subarray(10, 42) };
}

export function secretKeyFile(k: SecretKey): string {
  return `${OUR_SECRET_COMMENT}\n${Buffer.concat([Buffer.from("Ed"), k.keyId, k.seed, k.pk]).toString("base64")}\n`;
}

/** Our secret key form, or minisign's unencrypted one (kdf "\0\0"); an encrypted minisign key is refused. */
export function parseSecretKey(text: string): SecretKey {
  const lines = text.split(/\r?\n/).map((l) => l.trim()).filter(Boolean);
  const b64 = lines.find((l) => !l.startsWith("untrusted comment:")) ?? "";
  const raw = Buffer.from(b64, "base64");
  let keyId: Buffer, seed: Buffer, pk: Buffer;
  if (raw.length === 74 && raw.subarray(0, 2).toString("latin1") === "Ed") {
    [keyId, seed, pk] = [raw.subarray(2, 10), raw.subarray(10, 42), raw.subarray(42, 74)];
  } else if (raw.length === 158 && raw.subarray(0, 2).toString("latin1") === "Ed") {
    // sig alg(2) kdf alg(2) checksum alg(2) salt(32) opslimit(8) memlimit(8) key id(8) secret key(64) checksum(32)
    if (raw[2] !== 0 || raw[3] !== 0) throw MinisignRefused({ message: "the minisign secret key is encrypted: make one without a password (minisign -G -W) or use oceancode's form" });
    [keyId, seed, pk] = [raw.subarray(54, 62), raw.subarray(62, 94), raw.subarray(94, 126)];
  } else throw MinisignRefused({ message: "not a secret key (oceancode's or minisign's unencrypted form)" });
  const derived = crypto.createPublicKey(privateKeyObject(seed)).export({ format: "der", type: "spki" }).subarray(-32);
  if (!derived.equals(pk)) throw MinisignRefused({ message: "the secret key is damaged (its public half does not match)" });
  return { keyId: Buffer.from(keyId), seed: Buffer.from(seed), pk: Buffer.from(pk) };
}

export function blake2b512(data: Buffer): Buffer {
  return crypto.createHash("blake2b512").update(data).digest();
}

/** A prehashed (`ED`) signature file for `data`. Comments are single lines. */
export function sign(data: Buffer, key: SecretKey, trustedComment: string, untrustedComment = "signature from oceancode release key"): string {
  if (/[\r\n]/.test(trustedComment + untrustedComment)) throw MinisignRefused({ message: "a comment must be one line" });
  const priv = privateKeyObject(key.seed);
  const signature = crypto.sign(null, blake2b512(data), priv);
  const global = crypto.sign(null, Buffer.concat([signature, Buffer.from(trustedComment, "utf8")]), priv);
  const sigLine = Buffer.concat([Buffer.from("ED"), key.keyId, signature]).toString("base64");
  return `untrusted comment: ${untrustedComment}\n${sigLine}\ntrusted comment: ${trustedComment}\n${global.toString("base64")}\n`;
}

export function parseSignature(text: string): Signature {
  const lines = text.split(/\r?\n/);
  const [u, s, t, g] = lines;
  if (!u?.startsWith("untrusted comment:") || !s || !t?.startsWith("trusted comment: ") || !g) throw MinisignRefused({ message: "malformed signature file (want four lines: untrusted comment, signature, trusted comment, global signature)" });
  const raw = Buffer.from(s.trim(), "base64");
  const alg = raw.subarray(0, 2).toString("latin1");
  if (raw.length !== 74 || (alg !== "Ed" && alg !== "ED")) throw MinisignRefused({ message: "malformed signature line (not an Ed/ED minisign signature)" });
  const globalSignature = Buffer.from(g.trim(), "base64");
  if (globalSignature.length !== 64) throw MinisignRefused({ message: "malformed global signature line" });
  return {
    algorithm: alg as "Ed" | "ED",
    keyId: raw.subarray(2, 10),
    signature: raw.subarray(10, 74),
    untrustedComment: u.slice("untrusted comment:".length).trim(),
    trustedComment: t.slice("trusted comment: ".length),
    globalSignature,
  };
}

/** Throws MinisignRefused (OC_ERR_MINISIGN) naming what failed; returns the trusted comment. */
export function verify(data: Buffer, sigText: string, key: PublicKey): Signature {
  const sig = parseSignature(sigText);
  if (!sig.keyId.equals(key.keyId)) throw MinisignRefused({ message: `signed by another key (key ${keyIdHex(sig.keyId)}, expected ${keyIdHex(key.keyId)})` });
  const pub = publicKeyObject(key.pk);
  const message = sig.algorithm === "ED" ? blake2b512(data) : data;
  if (!crypto.verify(null, message, pub, sig.signature)) throw MinisignRefused({ message: "signature does not match the file (tampered or corrupt)" });
  if (!crypto.verify(null, Buffer.concat([sig.signature, Buffer.from(sig.trustedComment, "utf8")]), pub, sig.globalSignature)) throw MinisignRefused({ message: "the trusted comment was altered (global signature does not match)" });
  return sig;
}

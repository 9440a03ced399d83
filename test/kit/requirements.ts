/** Signed managed requirements for tests: requirements.json beside the sandbox's managed config, signed with a fresh Ed25519 key. */
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { Sandbox } from "./cli.js";

/** Write and sign `doc`; returns the public key (hex) for OC_REQUIREMENTS_PUBKEY. */
export function signRequirements(s: Pick<Sandbox, "env">, doc: unknown): string {
  const { publicKey, privateKey } = crypto.generateKeyPairSync("ed25519");
  const dir = path.dirname(s.env.OC_MANAGED_CONFIG!);
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, "requirements.json");
  fs.writeFileSync(file, JSON.stringify(doc));
  fs.writeFileSync(`${file}.sig`, crypto.sign(null, fs.readFileSync(file), privateKey).toString("base64"));
  return (publicKey.export({ type: "spki", format: "der" }) as Buffer).subarray(-32).toString("hex");
}

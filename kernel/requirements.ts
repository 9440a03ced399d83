/**
 * Signed managed requirements: requirements.json beside the managed config, with requirements.json.sig
 * (base64 ed25519 signature of the file's exact bytes), checked against $OC_REQUIREMENTS_PUBKEY
 * (64 hex chars = the raw 32-byte public key). Unsigned or tampered: refused, never applied.
 */
import fs from "node:fs";
import { createRequire } from "node:module";
import type crypto from "node:crypto";
import { compileSchema, validate, formatProblem } from "./schema.js";
import { parseJsonc } from "./jsonc.js";
import { ErrorCodes, OcError } from "./errors.js";

/**
 * The kernel reads `config` (pins) and `extensions` (allow, locked); every other section belongs to the
 * extension that declares it (`contributes.requirements`), is validated against its schema
 * (`checkSections`) and is handed only to that extension (and those that declare it in `reads`).
 */
export interface Requirements {
  /** dotted config key -> pinned value */
  config?: Record<string, unknown>;
  extensions?: { allow?: string[]; locked?: string[] };
  [section: string]: unknown;
}

export interface RequirementsSection {
  section: string;
  owner: string;
  /** absolute path of its schema */
  schemaFile: string;
}

export type RequirementsState =
  | { status: "not-enforced"; file: string; reason: string }
  | { status: "absent"; file: string }
  | { status: "applied"; file: string; requirements: Requirements }
  | { status: "refused"; file: string; reason: string };

const SPKI_ED25519_PREFIX = Buffer.from("302a300506032b6570032100", "hex");

/** The schema, read only when a signed file must be checked (from dist/kernel or, in tests, kernel/). */
function requirementsSchema(): object {
  const candidates = ["../../schemas/requirements.schema.json", "../schemas/requirements.schema.json"].map((r) => new URL(r, import.meta.url));
  return JSON.parse(fs.readFileSync(candidates.find((u) => fs.existsSync(u))!, "utf8")) as object;
}

/** node:crypto on first use: most runs have no requirements file to verify */
function nodeCrypto(): typeof crypto {
  return createRequire(import.meta.url)("node:crypto") as typeof crypto;
}

export function publicKeyFromHex(hex: string): crypto.KeyObject {
  if (!/^[0-9a-fA-F]{64}$/.test(hex)) throw new OcError(ErrorCodes.CONFIG_INVALID, "OC_REQUIREMENTS_PUBKEY must be 64 hex characters (a raw ed25519 public key)");
  return nodeCrypto().createPublicKey({ key: Buffer.concat([SPKI_ED25519_PREFIX, Buffer.from(hex, "hex")]), format: "der", type: "spki" });
}

export function loadRequirements(file: string, pubkeyHex: string | undefined): RequirementsState {
  if (!pubkeyHex) {
    return fs.existsSync(file)
      ? { status: "not-enforced", file, reason: "OC_REQUIREMENTS_PUBKEY is not set" }
      : { status: "absent", file };
  }
  let bytes: Buffer;
  try {
    bytes = fs.readFileSync(file);
  } catch {
    return { status: "absent", file };
  }
  let key: crypto.KeyObject;
  try {
    key = publicKeyFromHex(pubkeyHex.trim());
  } catch (e) {
    return { status: "refused", file, reason: (e as Error).message };
  }
  let sig: Buffer;
  try {
    sig = Buffer.from(fs.readFileSync(`${file}.sig`, "utf8").trim(), "base64");
  } catch {
    return { status: "refused", file, reason: `no signature file ${file}.sig (unsigned requirements are never applied)` };
  }
  let ok = false;
  try {
    ok = nodeCrypto().verify(null, bytes, key, sig);
  } catch {
    ok = false;
  }
  if (!ok) return { status: "refused", file, reason: `signature does not match ${file} (tampered, or signed with another key)` };
  try {
    const doc = parseJsonc(bytes.toString("utf8"));
    const problems = validate(compileSchema("requirements", requirementsSchema()), doc.value, { doc });
    if (problems.length) return { status: "refused", file, reason: problems.map((p) => formatProblem(file, p)).join("; ") };
    return { status: "applied", file, requirements: doc.value as Requirements };
  } catch (e) {
    return { status: "refused", file, reason: `${file}: ${(e as Error).message}` };
  }
}

/**
 * Validate the applied file's extension sections against their owners' schemas. A section no live
 * extension declares, or one that breaks its schema, is refused (named) and dropped; the rest apply.
 */
export function checkSections(req: Requirements, file: string, declared: readonly RequirementsSection[]): { requirements: Requirements; refused: string[] } {
  const out: Requirements = {};
  const refused: string[] = [];
  for (const [section, value] of Object.entries(req)) {
    if (section === "config" || section === "extensions" || section === "$schema") {
      (out as Record<string, unknown>)[section] = value;
      continue;
    }
    const d = declared.find((x) => x.section === section);
    if (!d) {
      refused.push(`${file}: the section '${section}' is one no enabled extension declares (contributes.requirements); it is not applied`);
      continue;
    }
    let problems: string[];
    try {
      const schema = JSON.parse(fs.readFileSync(d.schemaFile, "utf8")) as object;
      problems = validate(compileSchema(`requirements:${d.schemaFile}`, schema), value, { prefix: [section] }).map((p) => formatProblem(file, p));
    } catch (e) {
      problems = [`${d.schemaFile}: cannot read the schema of '${d.owner}': ${(e as Error).message}`];
    }
    if (problems.length) refused.push(`${problems.join("; ")}; the section '${section}' (of '${d.owner}') is not applied`);
    else out[section] = value;
  }
  return { requirements: out, refused };
}

/** Signed requirements.json: applied when the ed25519 signature verifies, refused otherwise, ignored without a key. */
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeEnv, baseManifest, type TestEnv } from "./env.js";

let t: TestEnv;
let keys: crypto.KeyPairKeyObjectResult;
let pubHex: string;
let reqFile: string;

const REQUIREMENTS = {
  config: { "sect.mode": "strict" },
  extensions: { allow: ["allowed-user-ext"], locked: ["audit"] },
};

function sign(bytes: Buffer | string, key = keys.privateKey): string {
  return crypto.sign(null, Buffer.from(bytes), key).toString("base64");
}

beforeEach(() => {
  t = makeEnv();
  keys = crypto.generateKeyPairSync("ed25519");
  // the raw public key: the last 32 bytes of the SPKI DER export
  pubHex = keys.publicKey.export({ type: "spki", format: "der" }).subarray(-32).toString("hex");
  reqFile = path.join(t.managedDir, "requirements.json");
  t.addExt({
    id: "sect",
    manifest: baseManifest("sect", { contributes: { config: [{ section: "sect", schema: "schema.json" }] } }),
    files: { "schema.json": JSON.stringify({ type: "object", properties: { mode: { type: "string", default: "relaxed" } } }) },
  });
  t.addExt({ id: "audit", manifest: baseManifest("audit") });
  t.addExt({ id: "allowed-user-ext", manifest: baseManifest("allowed-user-ext") }, path.join(t.home, ".oceancode"));
  t.addExt({ id: "stray-user-ext", manifest: baseManifest("stray-user-ext") }, path.join(t.home, ".oceancode"));
  // the project tries to loosen everything
  t.write(path.join(t.project, ".oceancode", "oceancode.json"), JSON.stringify({ sect: { mode: "yolo" }, extensions: { disabled: ["audit"] } }));
});
afterEach(() => t.cleanup());

const stateOf = (k: Awaited<ReturnType<TestEnv["discover"]>>, id: string) => k.introspect().extensions.find((e) => e.id === id)?.state;

describe("requirements.json", () => {
  it("a valid signature is applied: pins a key, allow-lists extensions, locks one on", async () => {
    const text = JSON.stringify(REQUIREMENTS, null, 2);
    t.write(reqFile, text);
    t.write(`${reqFile}.sig`, sign(text));
    t.env.OC_REQUIREMENTS_PUBKEY = pubHex;
    const k = await t.discover();
    expect(k.requirements.status).toBe("applied");
    expect(k.config.get("sect.mode")).toBe("strict");
    expect(k.config.sourceOf("sect.mode")).toEqual({ layer: "requirements", file: reqFile });
    expect(stateOf(k, "allowed-user-ext")).toBe("lazy");
    expect(stateOf(k, "stray-user-ext")).toBe("disabled");
    expect(k.introspect().extensions.find((e) => e.id === "stray-user-ext")?.reason).toContain("allow-list");
    expect(stateOf(k, "sect")).toBe("lazy"); // bundled extensions are not subject to the allow-list
    expect(stateOf(k, "audit")).toBe("lazy"); // locked on despite the project's disable
    expect(k.warnings.some((w) => w.includes("'audit' is locked on"))).toBe(true);
  });

  it("a pin of a key no extension declares is refused (named as invalid); the valid pins still apply", async () => {
    const text = JSON.stringify({ config: { "sect.mode": "strict", "sect.nosuch": 1, "permissions.mode": "plan" } }, null, 2);
    t.write(reqFile, text);
    t.write(`${reqFile}.sig`, sign(text));
    t.env.OC_REQUIREMENTS_PUBKEY = pubHex;
    const k = await t.discover();
    expect(k.config.get("sect.mode")).toBe("strict");
    expect(k.config.get("sect.nosuch")).toBeUndefined();
    expect(k.config.get("permissions")).toBeUndefined();
    const refused = k.warnings.filter((w) => w.startsWith("OC_ERR_REQUIREMENTS_REFUSED"));
    expect(refused).toEqual([
      `OC_ERR_REQUIREMENTS_REFUSED: ${reqFile}: the pin 'sect.nosuch' names a config key no extension declares; that pin is invalid and not applied`,
      `OC_ERR_REQUIREMENTS_REFUSED: ${reqFile}: the pin 'permissions.mode' names a config key no extension declares; that pin is invalid and not applied`,
    ]);
  });

  it("a tampered file is refused and nothing in it applies", async () => {
    const text = JSON.stringify(REQUIREMENTS, null, 2);
    t.write(`${reqFile}.sig`, sign(text));
    t.write(reqFile, text.replace("strict", "strikt"));
    t.env.OC_REQUIREMENTS_PUBKEY = pubHex;
    const k = await t.discover();
    expect(k.requirements.status).toBe("refused");
    expect(k.warnings.join("\n")).toMatch(/OC_ERR_REQUIREMENTS_REFUSED: signature does not match .*requirements\.json/);
    expect(k.config.get("sect.mode")).toBe("yolo");
    expect(stateOf(k, "stray-user-ext")).toBe("lazy");
    expect(stateOf(k, "audit")).toBe("disabled");
  });

  it("a file signed with another key is refused", async () => {
    const text = JSON.stringify(REQUIREMENTS);
    t.write(reqFile, text);
    t.write(`${reqFile}.sig`, sign(text, crypto.generateKeyPairSync("ed25519").privateKey));
    t.env.OC_REQUIREMENTS_PUBKEY = pubHex;
    const k = await t.discover();
    expect(k.requirements.status).toBe("refused");
    expect(k.config.get("sect.mode")).toBe("yolo");
  });

  it("an unsigned file is refused", async () => {
    t.write(reqFile, JSON.stringify(REQUIREMENTS));
    t.env.OC_REQUIREMENTS_PUBKEY = pubHex;
    const k = await t.discover();
    expect(k.requirements.status).toBe("refused");
    expect(k.introspect().requirements.reason).toContain("unsigned");
    expect(k.config.get("sect.mode")).toBe("yolo");
  });

  it("a malformed public key is refused, not ignored", async () => {
    const text = JSON.stringify(REQUIREMENTS);
    t.write(reqFile, text);
    t.write(`${reqFile}.sig`, sign(text));
    t.env.OC_REQUIREMENTS_PUBKEY = "abc";
    const k = await t.discover();
    expect(k.requirements.status).toBe("refused");
    expect(k.config.get("sect.mode")).toBe("yolo");
  });

  it("with no OC_REQUIREMENTS_PUBKEY the file is not enforced", async () => {
    const text = JSON.stringify(REQUIREMENTS);
    t.write(reqFile, text);
    t.write(`${reqFile}.sig`, sign(text));
    const k = await t.discover();
    expect(k.requirements.status).toBe("not-enforced");
    expect(k.config.get("sect.mode")).toBe("yolo");
    expect(stateOf(k, "stray-user-ext")).toBe("lazy");
  });

  it("a validly signed file that breaks the requirements schema is refused", async () => {
    const text = JSON.stringify({ extensions: { allow: "everything" } });
    t.write(reqFile, text);
    t.write(`${reqFile}.sig`, sign(text));
    t.env.OC_REQUIREMENTS_PUBKEY = pubHex;
    const k = await t.discover();
    expect(k.requirements.status).toBe("refused");
    expect(fs.existsSync(reqFile)).toBe(true);
  });
});

/** `oceancode doctor`, driven through the real compiled CLI in a temp HOME and project. */
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeSandbox, runCli, type Sandbox } from "../../../test/kit/cli.js";

let sb: Sandbox;
beforeEach(() => {
  sb = makeSandbox("oc-doctor-");
});
afterEach(() => sb.cleanup());

const doctor = (...args: string[]) => runCli(["--dir", sb.project, "doctor", ...args], { env: sb.env, cwd: sb.project });

function userExt(id: string, code: string, activation: string[] = ["onStartup"]): void {
  sb.write(`.oceancode/extensions/${id}/manifest.json`, JSON.stringify({ id, version: "1.0.0", kernel: "^0.1.0", main: "index.js", activation }), "home");
  sb.write(`.oceancode/extensions/${id}/index.js`, code, "home");
}

describe("oceancode doctor", () => {
  it("a healthy setup: one line per check, DOCTOR_OK, exit 0", () => {
    const global = sb.write(".config/oceancode/oceancode.jsonc", '{ /* ok */ "extensions": { "disabled": [] } }', "home");
    const r = doctor();
    expect(r.code).toBe(0);
    const lines = r.stdout.trim().split("\n");
    expect(lines.at(-1)).toBe("DOCTOR_OK");
    expect(lines).toContain(`ok   config global ${global}: parsed and valid`);
    expect(lines).toContain(`info config project ${path.join(sb.project, ".oceancode", "oceancode.json")}: absent`);
    // the one bundled stand-in (storage-postgres) is disabled until extensions.replace selects it, and says so
    expect(lines.some((l) => /^ok {3}extensions: active=\d+ lazy=\d+ disabled=1 held=0 failed=0 shadowed=0$/.test(l))).toBe(true);
    expect(lines).toContain(`info extension storage-postgres (bundled): disabled: stands in for 'storage'; select it with extensions.replace {"storage": "storage-postgres"}`);
    expect(lines.some((l) => l.startsWith("info requirements ") && l.endsWith(": absent"))).toBe(true);
    expect(lines.some((l) => l.startsWith(`ok   data dir ${path.join(sb.home, ".local", "share", "oceancode")}`))).toBe(true);
  });

  it("a failed extension is a problem: named with its reason, DOCTOR_FAIL, exit 1; held and disabled are listed", () => {
    userExt("boom", `export default { activate() { throw new Error("cannot start"); } };`);
    userExt("off", `export default { activate() {} };`, []);
    sb.write(".config/oceancode/oceancode.json", JSON.stringify({ extensions: { disabled: ["off"] } }), "home");
    const r = doctor();
    expect(r.code).toBe(1);
    const lines = r.stdout.trim().split("\n");
    expect(lines).toContain("FAIL extension boom (user): failed: cannot start");
    expect(lines.some((l) => l.startsWith("info extension off (user): disabled: disabled by global config"))).toBe(true);
    expect(lines.some((l) => /^warn extensions: .*failed=1/.test(l))).toBe(true);
    expect(lines.at(-1)).toBe("DOCTOR_FAIL problems=1");
  });

  it("refused requirements are a problem", () => {
    const keys = crypto.generateKeyPairSync("ed25519");
    const hex = keys.publicKey.export({ type: "spki", format: "der" }).subarray(-32).toString("hex");
    const req = path.join(path.dirname(sb.env.OC_MANAGED_CONFIG!), "requirements.json");
    fs.mkdirSync(path.dirname(req), { recursive: true });
    fs.writeFileSync(req, '{"config": {}}');
    fs.writeFileSync(`${req}.sig`, crypto.sign(null, Buffer.from('{"config": {"x": 1}}'), keys.privateKey).toString("base64"));
    const r = runCli(["--dir", sb.project, "doctor"], { env: { ...sb.env, OC_REQUIREMENTS_PUBKEY: hex }, cwd: sb.project });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(`FAIL requirements ${req}: refused: signature does not match`);
    expect(r.stdout.trim().split("\n").at(-1)).toBe("DOCTOR_FAIL problems=1");
  });

  it("a data dir that cannot be created is a problem", () => {
    const notADir = sb.write("xdg-data", "a file", "home");
    const r = runCli(["--dir", sb.project, "doctor"], { env: { ...sb.env, XDG_DATA_HOME: notADir }, cwd: sb.project });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(`FAIL data dir ${path.join(notADir, "oceancode")}: cannot be created: ${notADir} is a file`);
  });

  it("--storage asks the storage provider: the database file (quick_check on a read-only connection); a damaged one is a problem naming the fix", () => {
    const db = path.join(sb.home, "my.db");
    let r = runCli(["--dir", sb.project, "--db", db, "doctor", "--storage"], { env: sb.env, cwd: sb.project });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`info storage ${db}: absent`);
    expect(runCli(["--dir", sb.project, "--db", db, "run", "--model", "scripted/echo", "hi"], { env: sb.env, cwd: sb.project }).code).toBe(0);
    r = runCli(["--dir", sb.project, "--db", db, "doctor", "--storage"], { env: sb.env, cwd: sb.project });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`^ok {3}storage ${db.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}: \\d+ bytes \\(wal \\d+ bytes\\), quick_check ok, schema v\\d+, 1 session\\(s\\)$`, "m"));
    fs.writeFileSync(db, Buffer.alloc(8192));
    r = runCli(["--dir", sb.project, "--db", db, "doctor", "--storage"], { env: sb.env, cwd: sb.project });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(`FAIL storage ${db}: 8192 bytes (wal 0 bytes), damaged (quick_check failed: file is not a database); rebuild it from the session ledger with \`oceancode --db ${db} storage repair\` (the damaged file is kept)`);
    expect(r.stdout.trim().split("\n").at(-1)).toBe("DOCTOR_FAIL problems=1");
  });

  it("bad usage: usage line, exit 2", () => {
    const r = doctor("--nope");
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("usage: oceancode doctor [--storage]");
  });
});

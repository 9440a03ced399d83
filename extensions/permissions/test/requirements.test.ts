/** A signed requirements.json that disables bypassPermissions: selecting it downgrades to default. */
import { afterEach, describe, expect, it } from "vitest";
import fs from "node:fs";
import path from "node:path";
import { makeSandbox, runCli, type Sandbox } from "../../../test/kit/cli.js";
import { signRequirements } from "../../../test/kit/requirements.js";

let sb: Sandbox;
afterEach(() => sb?.cleanup());

describe("managed requirements and bypassPermissions", () => {
  it("bypassPermissions overrides an ask rule until signed requirements disable it; a tampered file changes nothing", () => {
    sb = makeSandbox();
    sb.write(".oceancode/oceancode.json", JSON.stringify({ permission_mode: "bypassPermissions", permission: ["bash * ask"] }));
    const check = (env: NodeJS.ProcessEnv) => runCli(["--dir", sb.project, "permissions", "check", "bash", "touch x"], { env: { ...sb.env, ...env } });

    const open = check({});
    expect(open.code, open.stderr).toBe(0);
    expect(open.stdout.split("\n")[0]).toBe("ALLOW");

    const key = signRequirements(sb, { permissions: { disableBypassPermissionsMode: true } });
    const locked = check({ OC_REQUIREMENTS_PUBKEY: key });
    expect(locked.code, locked.stderr).toBe(0);
    expect(locked.stdout.split("\n")[0]).toBe("ASK");

    // tamper after signing: refused, never applied, so bypass is back
    const file = path.join(path.dirname(sb.env.OC_MANAGED_CONFIG!), "requirements.json");
    fs.writeFileSync(file, JSON.stringify({ permissions: { disableBypassPermissionsMode: false } }));
    const tampered = check({ OC_REQUIREMENTS_PUBKEY: key });
    expect(tampered.stderr).toContain("OC_ERR_REQUIREMENTS_REFUSED");
    expect(tampered.stdout.split("\n")[0]).toBe("ALLOW");
  });
});

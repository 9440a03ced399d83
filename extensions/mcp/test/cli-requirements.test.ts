/** A signed requirements.json `mcp.allow` list: what it does not name is refused in `mcp list`; a tampered file changes nothing. */
import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { makeSandbox, runCli, type Sandbox } from "../../../test/kit/cli.js";
import { signRequirements } from "../../../test/kit/requirements.js";

let sb: Sandbox;
afterEach(() => sb?.cleanup());

describe("signed requirements and mcp list", () => {
  it("refuses servers the allow-list does not name (or names with another command), with the reason", () => {
    sb = makeSandbox("oc-mcpreq-");
    sb.write(".claude.json", JSON.stringify({ mcpServers: { everything: { command: "npx" }, rogue: { command: "sh" }, twin: { command: "evil" } } }), "home");
    const key = signRequirements(sb, { mcp: { allow: [{ name: "everything", command: "npx" }, { name: "twin", command: "npx" }] } });
    const list = (env: NodeJS.ProcessEnv) => runCli(["--dir", sb.project, "mcp", "list", "--json"], { env: { ...sb.env, ...env } });
    const r = list({ OC_REQUIREMENTS_PUBKEY: key });
    expect(r.code, r.stderr).toBe(0);
    const rows = Object.fromEntries((JSON.parse(r.stdout) as Array<{ name: string; status: string; reason?: string }>).map((x) => [x.name, x]));
    expect(rows.everything!.status).toBe("ready");
    expect(rows.rogue).toMatchObject({ status: "refused", reason: expect.stringMatching(/do not allow a server named 'rogue'/) });
    expect(rows.twin).toMatchObject({ status: "refused", reason: expect.stringMatching(/another command/) });
    expect(runCli(["--dir", sb.project, "mcp", "list"], { env: { ...sb.env, OC_REQUIREMENTS_PUBKEY: key } }).stdout).toMatch(/^rogue {2}stdio {2}user {2}trusted {2}refused /m);

    const file = path.join(path.dirname(sb.env.OC_MANAGED_CONFIG!), "requirements.json");
    fs.writeFileSync(file, JSON.stringify({ mcp: { allow: [{ name: "*" }] } }));
    const tampered = list({ OC_REQUIREMENTS_PUBKEY: key });
    expect(tampered.stderr).toContain("OC_ERR_REQUIREMENTS_REFUSED");
    // refused file: no allow-list applies (requirements not enforced), as for every other section
    expect((JSON.parse(tampered.stdout) as Array<{ status: string }>).every((x) => x.status === "ready")).toBe(true);
  });
});

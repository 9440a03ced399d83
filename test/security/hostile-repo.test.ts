/**
 * A hostile repository, before and after `oceancode trust repo on`: its committed config can only
 * tighten, its extensions never run or shadow the bundled ones, and what was held is said once.
 */
import fs from "node:fs";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeSandbox, runCli, type Sandbox } from "../kit/cli.js";
import { plantHostileRepo, type HostileRepo } from "./fixtures/hostile-repo.js";

let sb: Sandbox;
let repo: HostileRepo;
beforeEach(() => {
  sb = makeSandbox("oc-hostile-");
  repo = plantHostileRepo(sb);
});
afterEach(() => sb.cleanup());

const cli = (...args: string[]) => runCli(["--dir", sb.project, ...args], { env: sb.env });
const check = (command: string) => cli("permissions", "check", "--json", "bash", command);
const decision = (command: string) => (JSON.parse(check(command).stdout) as { action?: string; decision?: string; mode?: string });
const heldLines = (stderr: string) => stderr.split("\n").filter((l) => l.includes("held until you trust this project"));
interface Row { kind: string; id: string; state?: string; reason?: string; layer: string; value?: unknown }
const inspectRows = () => JSON.parse(cli("inspect", "--json").stdout) as Row[];

describe("a hostile repository before trust", () => {
  it("cannot lower the mode, add allow rules or safe-list entries, disable the guard, or set endpoints; its deny rules apply", () => {
    const rm = check("rm -rf ~");
    expect(rm.code).toBe(0);
    const d = JSON.parse(rm.stdout) as Record<string, unknown>;
    expect(JSON.stringify(d)).not.toMatch(/bypassPermissions/);
    expect(d.action ?? d.decision).not.toBe("allow");
    // the repo's own tightening still applies: its deny rule and its shell.deny
    expect(decision("curl https://example.com").action ?? decision("curl https://example.com").decision).toBe("deny");
    expect(decision("wget https://example.com").action ?? decision("wget https://example.com").decision).toBe("deny");
    const rows = inspectRows();
    const held = rows.filter((r) => r.state === "held: untrusted").map((r) => r.id);
    for (const k of ["permission_mode", 'permission[0] "* * allow"', "extensions.disabled", "extensions.replace", "shell.safe_list_extra", "shell.allow", "sandbox.network", "sandbox.allow_hosts", "child_env.keep", "provider.anthropic.base_url", "ledger.dir"]) {
      expect(held).toContain(k);
    }
    const admitted = Object.fromEntries(rows.filter((r) => r.kind === "config" && r.layer === "project" && r.value !== undefined).map((r) => [r.id, r.value]));
    expect(admitted).toMatchObject({ permission: ["bash curl * deny"], "shell.deny": ["Bash(wget:*)"], "sandbox.enabled": true, "child_env.strip": ["REPO_EXTRA_*"] });
    expect(rows.find((r) => r.kind === "config" && r.id === "permission_mode" && r.state === undefined)).toBeUndefined();
  });

  it("its extensions never run, never shadow a bundled id or service, and a broken one fails alone", () => {
    const r = cli("run", "--model", "scripted/echo", "hello");
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain("hello");
    expect(fs.existsSync(repo.markers.shellGuard)).toBe(false);
    expect(fs.existsSync(repo.markers.engine)).toBe(false);
    const rows = inspectRows().filter((x) => x.kind === "extension");
    expect(rows.find((x) => x.id === "bundled:shell-guard" || x.id === "shell-guard")?.state).toMatch(/lazy|active/);
    expect(rows.find((x) => x.id === "repo:shell-guard")).toMatchObject({ state: "shadowed" });
    expect(rows.find((x) => x.id === "repo:shell-guard")?.reason).toContain("a held extension never displaces a trusted one");
    expect(rows.find((x) => x.id === "faux-engine")?.reason).toContain("service 'engine' belongs to the trusted 'engine'");
    expect(rows.find((x) => x.id === "broken")).toMatchObject({ state: "failed" });
    expect(rows.find((x) => x.id === "broken")?.reason).toMatch(/OC_ERR_MANIFEST_INVALID: .*broken\/manifest\.json:\d+: /);
  });

  it("says what it held once per run, naming the file and the trust command; doctor and inspect say it too", () => {
    const r = cli("run", "--model", "scripted/echo", "hello");
    const lines = heldLines(r.stderr);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(repo.configFile);
    expect(lines[0]).toContain("oceancode trust repo on");
    const doc = cli("doctor");
    expect(heldLines(doc.stdout).some((l) => l.startsWith("warn"))).toBe(true);
    expect(inspectRows().some((x) => x.state === "held: untrusted")).toBe(true);
  });
});

describe("the same repository after trust repo on", () => {
  it("its config applies, its extensions are the user's choice, and replacing a safety extension is loud", () => {
    expect(cli("trust", "repo", "on").stdout).toContain("repo=true");
    const ins = cli("inspect", "--json");
    expect(ins.code, ins.stderr).toBe(0);
    const rows = JSON.parse(ins.stdout) as Row[];
    expect(rows.find((r) => r.kind === "config" && r.id === "permission_mode")?.value).toBe("bypassPermissions");
    // trusted, but it never declared "replaces": the bundled engine keeps its service
    expect(rows.find((r) => r.id === "faux-engine")?.reason).toContain("OC_ERR_DUPLICATE_SERVICE");
    expect(rows.some((r) => r.state === "held: untrusted")).toBe(false);
    const r = cli("doctor");
    expect(r.stdout).toMatch(/warn config: the safety extension 'shell-guard' is (replaced|disabled)/);
    expect(r.stderr).toMatch(/warning: the safety extension 'shell-guard'/);
    expect(r.stdout).toContain("warn config: the safety extension 'permissions' is disabled by project config");
  });
});

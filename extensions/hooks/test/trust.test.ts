import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeSandbox, runCli, type Sandbox } from "../../../test/kit/cli.js";
import { decideTrust } from "../../trust/index.js";
import type { Root } from "../../../kernel/walk.js";

let sb: Sandbox;
beforeEach(() => {
  sb = makeSandbox("oc-trust-");
});
afterEach(() => sb.cleanup());

const cli = (...args: string[]) => runCli(["--dir", sb.project, "--home", sb.home, "trust", ...args], { env: sb.env, cwd: sb.project });
const trustFile = () => path.join(sb.home, ".oceancode", "trust.json");

describe("oceancode trust", () => {
  it("shows nothing trusted on a fresh home", () => {
    const r = cli("show");
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("repo=false\nTRUST_OK\n");
    expect(fs.existsSync(trustFile())).toBe(false);
  });

  it("sets repo trust keyed by the project's absolute path, and prints the new state", () => {
    const on = cli("repo", "on");
    expect(on.code).toBe(0);
    expect(on.stdout).toBe("repo=true\nTRUST_OK\n");
    const doc = JSON.parse(fs.readFileSync(trustFile(), "utf8")) as Record<string, { repo: boolean }>;
    expect(Object.keys(doc)).toEqual([path.resolve(sb.project)]);
    expect(doc[path.resolve(sb.project)]!.repo).toBe(true);
    expect(cli("show").stdout).toBe("repo=true\nTRUST_OK\n");
    expect(cli("repo", "off").stdout).toBe("repo=false\nTRUST_OK\n");
    // no temp file is left next to it (atomic write: temp + rename)
    expect(fs.readdirSync(path.dirname(trustFile()))).toEqual(["trust.json"]);
  });

  it("keeps per-server MCP overrides, lists held-disabled servers, and clears an override", () => {
    cli("mcp", "zeta", "on");
    const r = cli("mcp", "alpha", "off");
    expect(r.stdout).toBe("repo=false\nmcp alpha=false\nmcp zeta=true\nTRUST_OK\n");
    // disabled_mcp is written by the MCP extension; show lists it
    const doc = JSON.parse(fs.readFileSync(trustFile(), "utf8")) as Record<string, { disabled_mcp: string[] }>;
    doc[path.resolve(sb.project)]!.disabled_mcp = ["gamma"];
    fs.writeFileSync(trustFile(), JSON.stringify(doc));
    expect(cli("mcp", "zeta", "clear").stdout).toBe("repo=false\nmcp alpha=false\ndisabled gamma\nTRUST_OK\n");
  });

  it("answers bad usage with the usage line and exit 2", () => {
    for (const args of [[], ["repo"], ["repo", "yes"], ["mcp", "x"], ["mcp", "x", "maybe"], ["frob"], ["show", "extra"]]) {
      const r = cli(...args);
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.stderr).toContain("usage: oceancode trust show | repo on|off | mcp <name> on|off|clear");
    }
  });

  it("treats a corrupt trust.json as nothing trusted, says so once naming the file (show: no TRUST_OK, exit 1), and never overwrites it", () => {
    fs.mkdirSync(path.dirname(trustFile()), { recursive: true });
    fs.writeFileSync(trustFile(), `{"${sb.project}": {"repo": true`); // truncated
    const show = cli("show");
    expect(show.code).toBe(1);
    expect(show.stdout).toBe("repo=false\n");
    expect(show.stderr).toContain("until it is fixed or deleted nothing is trusted");
    const warnings = show.stderr.split("\n").filter((l) => l.includes("trust.json"));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(trustFile());
    const set = cli("repo", "on");
    expect(set.code).toBe(1);
    expect(set.stderr).toContain("nothing was changed");
    expect(fs.readFileSync(trustFile(), "utf8")).toBe(`{"${sb.project}": {"repo": true`);
  });

  it("holds a repo-tier extension until the repo is trusted", () => {
    // a repo-tier extension: a tracked .oceancode/ folder (git) is the repo tier
    sb.write(".oceancode/extensions/repo-ext/manifest.json", JSON.stringify({ id: "repo-ext", version: "0.1.0", kernel: "^0.1.0", main: "index.js" }));
    sb.write(".oceancode/extensions/repo-ext/index.js", "export default { activate() {} };\n");
    const git = (args: string[]) => spawnSync("git", args, { cwd: sb.project, env: { ...sb.env, GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@t", GIT_COMMITTER_NAME: "t", GIT_COMMITTER_EMAIL: "t@t" } });
    git(["init", "-q"]);
    git(["add", ".oceancode"]);
    const inspect = () => runCli(["--dir", sb.project, "--home", sb.home, "inspect", "--json"], { env: sb.env, cwd: sb.project });
    const state = () => (JSON.parse(inspect().stdout) as Array<{ id: string; state?: string; reason?: string }>).find((r) => r.id.endsWith("repo-ext"));
    expect(state()?.state).toBe("held");
    expect(state()?.reason).toBe("held: untrusted");
    cli("repo", "on");
    expect(state()?.state).not.toBe("held");
  });
});

describe("the trust gate's rule", () => {
  const root = (over: Partial<Root>): Root => ({ tier: "repo", ecosystem: "claude", dir: "/p/.claude", project: "/p", trustedByDefault: false, ...over });
  it("trusts repo roots only when the store says so, plugins only when enabled and trusted", () => {
    expect(decideTrust({ root: root({}), kind: "hooks" }, () => false)).toBe(false);
    expect(decideTrust({ root: root({}), kind: "hooks" }, (p) => p === "/p")).toBe(true);
    const plugin = (enabled: boolean, trusted: boolean) => root({ tier: "plugin", plugin: { name: "x", enabled, trusted, source: "oceancode" } });
    expect(decideTrust({ root: plugin(true, true), kind: "hooks" }, () => true)).toBe(true);
    expect(decideTrust({ root: plugin(true, false), kind: "hooks" }, () => true)).toBe(false);
    expect(decideTrust({ root: plugin(false, true), kind: "hooks" }, () => true)).toBe(false);
    expect(decideTrust({ root: root({ tier: "user", trustedByDefault: true }), kind: "hooks" }, () => false)).toBe(true);
  });
});

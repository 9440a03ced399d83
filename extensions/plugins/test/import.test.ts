/**
 * `oceancode plugin import --from claude-code` against a Claude Code style HOME (extensions/plugins/test/claude-tree.ts):
 * every printed line and the final one, --dry-run writing nothing at all, --no-repo-trust and --trust,
 * nothing under ~/.claude (nor ~/.claude.json) modified, and what the walk then sees: the imported
 * plugins' skills as <plugin>:<name> from oceancode's store, a disabled plugin's not at all.
 */
import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeSandbox, runCli, type Sandbox } from "../../../test/kit/cli.js";
import { claudeTree } from "./claude-tree.js";
import { plugin, readJson, treeHash, writeFiles } from "./fixtures.js";

let sb: Sandbox;
let cache: string;
beforeEach(() => {
  sb = makeSandbox("oc-plugins-import-");
  ({ cache } = claudeTree(sb));
});
afterEach(() => sb.cleanup());

const claudeState = () => ({ tree: treeHash(path.join(sb.home, ".claude")), json: fs.readFileSync(path.join(sb.home, ".claude.json"), "utf8") });
const ocDir = () => path.join(sb.home, ".oceancode");
const lines = (out: string) => out.trim().split("\n");

function expectedLines(state: "untrusted" | "trusted"): Array<string | RegExp> {
  return [
    /^SKIP broken install failed: the plugin's manifest is invalid: .*plugin\.json:1: version: expected string$/,
    `MISSING gone ${path.join(cache, "team", "gone", "9.9.9")} is not in Claude Code's cache`,
    `IMPORT noisy@team 1.0.0 disabled ${state}`,
    `IMPORT review-kit@team 1.2.0 enabled ${state}`,
    `IMPORT superpowers@obra 4.0.3 enabled ${state}`,
    "SKIP typescript-lsp not a plugin",
    "MARKETPLACE obra obra/superpowers-marketplace",
    `MISSING ghost marketplace: ${path.join(sb.home, ".claude", "plugins", "marketplaces", "ghost")} has no .claude-plugin/marketplace.json`,
    "MARKETPLACE team /srv/team-marketplace",
    "TRUST repo=true (hasTrustDialogAccepted)",
    "TRUST mcp slack held disabled",
    "TRUST mcp db held disabled",
    "TRUST mcp docs trusted",
  ];
}

function expectLines(out: string, want: Array<string | RegExp>, last: string): void {
  const got = lines(out);
  expect(got).toHaveLength(want.length + 1);
  want.forEach((w, i) => (typeof w === "string" ? expect(got[i]).toBe(w) : expect(got[i]).toMatch(w)));
  expect(got.at(-1)).toBe(last);
}

function skillRows(): Array<{ layer: string; value: string; source: string }> {
  const r = runCli(["inspect", "--json"], { cwd: sb.project, env: sb.env });
  expect(r.code, r.stderr).toBe(0);
  // the skills a session would offer: a disabled plugin's rows stay in inspect, marked disabled
  return (JSON.parse(r.stdout) as Array<{ kind: string; layer: string; value: string; source: string; state: string }>).filter((x) => x.kind === "skill" && x.state !== "disabled");
}

describe("plugin import --from claude-code", () => {
  it("--dry-run prints every action and IMPORT_DRY_RUN_OK, and writes nothing at all", () => {
    const before = claudeState();
    const r = plugin(sb, "import", "--from", "claude-code", "--dry-run");
    expect(r.code, r.stderr).toBe(0);
    expectLines(r.stdout, expectedLines("untrusted"), "IMPORT_DRY_RUN_OK plugins=3 marketplaces=2 repo_trust=true");
    expect(treeHash(ocDir())).toEqual({});
    expect(claudeState()).toEqual(before);
  });

  it("imports the user-scope and this project's plugins, registers marketplaces, seeds trust; ~/.claude is untouched", () => {
    const before = claudeState();
    const r = plugin(sb, "import", "--from", "claude-code");
    expect(r.code, r.stderr).toBe(0);
    expectLines(r.stdout, expectedLines("untrusted"), "IMPORT_OK plugins=3 marketplaces=2 repo_trust=true");
    expect(claudeState()).toEqual(before);

    const installed = readJson(path.join(ocDir(), "plugins", "installed.json")) as { plugins: Array<{ name: string; path: string; enabled: boolean; trusted: boolean; marketplace: string; imported_from?: string }> };
    expect(installed.plugins.map((p) => `${p.name}@${p.marketplace} ${p.enabled} ${p.trusted} ${p.imported_from}`)).toEqual([
      "noisy@team false false claude-code",
      "review-kit@team true false claude-code",
      "superpowers@obra true false claude-code",
    ]);
    for (const p of installed.plugins) expect(p.path.startsWith(path.join(ocDir(), "plugins", "cache"))).toBe(true);
    const markets = readJson(path.join(ocDir(), "plugins", "known_marketplaces.json")) as Record<string, { path: string }>;
    expect(Object.keys(markets).sort()).toEqual(["obra", "team"]);
    const trust = readJson(path.join(ocDir(), "trust.json")) as Record<string, { repo: boolean; mcp: Record<string, boolean>; disabled_mcp: string[] }>;
    expect(trust[sb.project]).toMatchObject({ repo: true, mcp: { docs: true }, disabled_mcp: ["slack", "db"] });

    // the walk: the oceancode copies win (one root per plugin); the disabled plugin contributes nothing;
    // the one that failed to import is still Claude Code's own install, read where it is
    const rows = skillRows().filter((x) => x.layer.startsWith("plugin:"));
    expect(rows.map((x) => `${x.value} ${x.source.startsWith(ocDir()) ? "oceancode" : x.source.startsWith(cache) ? "claude" : x.source}`).sort()).toEqual([
      "broken:b claude",
      "review-kit:review oceancode",
      "superpowers:writing-plans oceancode",
    ]);

    // a second run changes nothing it already did
    const again = plugin(sb, "import", "--from", "claude-code");
    expect(lines(again.stdout)).toContain("SKIP superpowers already installed (4.0.3)");
    expect(lines(again.stdout).at(-1)).toBe("IMPORT_OK plugins=0 marketplaces=0 repo_trust=true");
    expect(claudeState()).toEqual(before);
  });

  it("--trust imports them trusted; --no-repo-trust leaves repo off", () => {
    const r = plugin(sb, "import", "--from", "claude-code", "--trust", "--no-repo-trust");
    expect(r.code, r.stderr).toBe(0);
    const want = expectedLines("trusted").map((l) => (l === "TRUST repo=true (hasTrustDialogAccepted)" ? "TRUST repo unchanged (--no-repo-trust)" : l));
    expectLines(r.stdout, want, "IMPORT_OK plugins=3 marketplaces=2 repo_trust=false");
    const trust = readJson(path.join(ocDir(), "trust.json")) as Record<string, { repo: boolean }>;
    expect(trust[sb.project]?.repo).toBe(false);
  });

  it("--from is required and only claude-code is known", () => {
    expect(plugin(sb, "import").stderr).toContain("import needs --from claude-code");
    expect(plugin(sb, "import", "--from", "cursor").code).toBe(2);
  });
});

describe("Claude Code's plugins without an import", () => {
  it("list shows them as claude-code; disable/enable are recorded in oceancode's store and the walk honours them; ~/.claude is untouched", () => {
    const before = claudeState();
    const list = plugin(sb, "list");
    expect(list.stdout.trim().split("\n").map((l) => l.split(/\s{2,}/).slice(0, 5).join(" "))).toEqual([
      "broken 0.0.1 enabled untrusted claude-code",
      "noisy 1.0.0 disabled untrusted claude-code",
      "review-kit 1.2.0 enabled untrusted claude-code",
      "superpowers 4.0.3 enabled untrusted claude-code",
      "typescript-lsp 1.0.0 enabled untrusted claude-code",
    ]);
    expect(skillRows().map((x) => x.value)).toContain("superpowers:writing-plans");
    const d = plugin(sb, "disable", "superpowers");
    expect(d.stdout).toBe("superpowers disabled (Claude Code plugin; recorded in oceancode's store)\n");
    expect(readJson(path.join(ocDir(), "plugins", "installed.json"))).toEqual({ plugins: [], external: { claude: { superpowers: { enabled: false } } } });
    expect(skillRows().map((x) => x.value)).not.toContain("superpowers:writing-plans");
    // a project's .claude/settings.json cannot re-enable what the user disabled
    writeFiles(sb.project, { ".claude/settings.json": JSON.stringify({ enabledPlugins: { "noisy@team": true, "superpowers@obra": true } }) });
    const values = skillRows().map((x) => x.value);
    expect(values).not.toContain("noisy:chatter");
    expect(values).not.toContain("superpowers:writing-plans");
    // enable-all flips every plugin, Claude Code's included (as overrides)
    expect(lines(plugin(sb, "enable-all").stdout).at(-1)).toBe("5 plugins enabled");
    expect(skillRows().map((x) => x.value)).toEqual(expect.arrayContaining(["noisy:chatter", "superpowers:writing-plans"]));
    const u = plugin(sb, "uninstall", "superpowers");
    expect(u.code).toBe(2);
    expect(u.stderr).toContain("superpowers was installed by Claude Code");
    // trust applies where the plugin is: an oceancode-side grant, Claude Code's files untouched
    const t = plugin(sb, "trust", "superpowers");
    expect(t.code, t.stderr).toBe(0);
    const row = () => lines(plugin(sb, "list").stdout).map((l) => l.split(/\s{2,}/).slice(0, 5).join(" ")).find((l) => l.startsWith("superpowers "));
    expect(row()).toBe("superpowers 4.0.3 enabled trusted claude-code");
    expect(readJson(path.join(ocDir(), "plugins", "installed.json"))).toMatchObject({ external: { claude: { superpowers: { enabled: true, trusted: true } } } });
    expect(plugin(sb, "trust", "superpowers", "--off").code).toBe(0);
    expect(row()).toBe("superpowers 4.0.3 enabled untrusted claude-code");
    expect(claudeState()).toEqual(before);
  });
});

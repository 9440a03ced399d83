/**
 * A Claude Code style HOME for the import tests: ~/.claude/plugins (installed_plugins.json with user- and
 * project-scope installs and one for another project, the cache with a plugin that is not one
 * (typescript-lsp), one whose manifest is broken and one that is gone), settings.json enabledPlugins with
 * one plugin disabled, known_marketplaces.json, and ~/.claude.json with the project's trust record.
 */
import path from "node:path";
import type { Sandbox } from "../../../test/kit/cli.js";
import { marketplaceDir, pluginFiles, writeFiles } from "./fixtures.js";

export function claudeTree(sb: Sandbox): { cache: string } {
  const cache = path.join(sb.home, ".claude", "plugins", "cache");
  const at = (mk: string, name: string, v: string) => path.join(cache, mk, name, v);
  writeFiles(at("obra", "superpowers", "4.0.3"), pluginFiles("superpowers", "4.0.3", "writing-plans"));
  writeFiles(at("team", "review-kit", "1.2.0"), pluginFiles("review-kit", "1.2.0", "review"));
  writeFiles(at("team", "other-proj", "0.1.0"), pluginFiles("other-proj", "0.1.0", "elsewhere"));
  writeFiles(at("team", "noisy", "1.0.0"), pluginFiles("noisy", "1.0.0", "chatter"));
  writeFiles(at("team", "broken", "0.0.1"), { ".claude-plugin/plugin.json": '{"name": "broken", "version": 5}', "skills/b/SKILL.md": "b\n" });
  writeFiles(at("official", "typescript-lsp", "1.0.0"), { "README.md": "an LSP entry: no manifest, no SKILL.md\n", "LICENSE": "MIT\n" });
  const row = (scope: string, p: string, extra: Record<string, string> = {}) => [{ scope, installPath: p, version: path.basename(p), installedAt: "2026-01-01T00:00:00.000Z", ...extra }];
  const installs = {
    version: 2,
    plugins: {
      "superpowers@obra": row("user", at("obra", "superpowers", "4.0.3")),
      "review-kit@team": row("project", at("team", "review-kit", "1.2.0"), { projectPath: sb.project }),
      "other-proj@team": row("project", at("team", "other-proj", "0.1.0"), { projectPath: path.join(path.dirname(sb.project), "another") }),
      "noisy@team": row("user", at("team", "noisy", "1.0.0")),
      "broken@team": row("user", at("team", "broken", "0.0.1")),
      "gone@team": row("user", at("team", "gone", "9.9.9")),
      "typescript-lsp@official": row("user", at("official", "typescript-lsp", "1.0.0")),
    },
  };
  const markets = path.join(sb.home, ".claude", "plugins", "marketplaces");
  marketplaceDir(path.join(markets, "obra"), "obra", [{ name: "superpowers", version: "4.0.3" }]);
  marketplaceDir(path.join(markets, "team"), "team", [{ name: "review-kit", version: "1.2.0" }]);
  writeFiles(sb.home, {
    ".claude/plugins/installed_plugins.json": JSON.stringify(installs, null, 2),
    ".claude/settings.json": JSON.stringify({ enabledPlugins: { "superpowers@obra": true, "noisy@team": false } }, null, 2),
    ".claude/plugins/known_marketplaces.json": JSON.stringify(
      {
        obra: { source: { source: "github", repo: "obra/superpowers-marketplace" }, installLocation: path.join(markets, "obra"), lastUpdated: "2026-01-01T00:00:00.000Z" },
        ghost: { source: { source: "git", url: "https://example.com/ghost.git" }, installLocation: path.join(markets, "ghost") },
        team: { source: { source: "directory", path: "/srv/team-marketplace" }, installLocation: path.join(markets, "team") },
      },
      null,
      2,
    ),
    ".claude.json": JSON.stringify(
      {
        projects: {
          [sb.project]: { hasTrustDialogAccepted: true, disabledMcpServers: ["slack"], disabledMcpjsonServers: ["db"], enabledMcpjsonServers: ["docs"] },
          "/somewhere/else": { hasTrustDialogAccepted: true, enabledMcpjsonServers: ["not-this-one"] },
        },
      },
      null,
      2,
    ),
  });
  return { cache };
}

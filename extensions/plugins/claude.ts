/**
 * Claude Code's own records, read only (nothing under ~/.claude, nor ~/.claude.json, is ever written):
 * ~/.claude/plugins/installed_plugins.json (the installs for the user scope or this project),
 * ~/.claude/settings.json enabledPlugins, ~/.claude/plugins/known_marketplaces.json and the project's
 * entry in ~/.claude.json.
 */
import path from "node:path";
import { readForeignJson } from "./files.js";

export interface ClaudeInstall {
  /** `<name>@<marketplace>` as Claude Code keys it */
  key: string;
  name: string;
  marketplace: string;
  version?: string;
  installPath: string;
  /** ~/.claude/settings.json enabledPlugins (absent: enabled) */
  enabled: boolean;
}

type InstallRow = { scope?: unknown; projectPath?: unknown; installPath?: unknown; version?: unknown };

export function claudeDir(home: string): string {
  return path.join(home, ".claude");
}

/** One install per plugin that applies here: user scope, or a project-scope install for `project`. */
export function claudeInstalls(home: string, project: string): ClaudeInstall[] {
  const index = readForeignJson(path.join(claudeDir(home), "plugins", "installed_plugins.json")) as { plugins?: Record<string, unknown> } | undefined;
  const settings = readForeignJson(path.join(claudeDir(home), "settings.json")) as { enabledPlugins?: Record<string, unknown> } | undefined;
  const out: ClaudeInstall[] = [];
  const plugins = index?.plugins && typeof index.plugins === "object" ? index.plugins : {};
  for (const [key, rows] of Object.entries(plugins)) {
    if (!Array.isArray(rows)) continue;
    const applies = (r: InstallRow) =>
      r.scope === "user" || (typeof r.projectPath === "string" && path.resolve(r.projectPath) === path.resolve(project));
    const row = (rows as InstallRow[]).find((r) => !!r && applies(r) && typeof r.installPath === "string");
    if (!row) continue;
    const at = key.lastIndexOf("@");
    out.push({
      key,
      name: at > 0 ? key.slice(0, at) : key,
      marketplace: at > 0 ? key.slice(at + 1) : "claude-code",
      ...(typeof row.version === "string" ? { version: row.version } : {}),
      installPath: path.resolve(row.installPath as string),
      enabled: settings?.enabledPlugins?.[key] !== false,
    });
  }
  return out.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

export interface ClaudeMarketplace {
  name: string;
  /** the directory Claude Code keeps it in */
  installLocation?: string;
  /** where it came from, as one string (a repo, a URL or a path) */
  origin: string;
}

export function claudeMarketplaces(home: string): ClaudeMarketplace[] {
  const f = readForeignJson(path.join(claudeDir(home), "plugins", "known_marketplaces.json"));
  if (!f || typeof f !== "object" || Array.isArray(f)) return [];
  return Object.entries(f as Record<string, unknown>).map(([name, v]) => {
    const o = (v && typeof v === "object" ? v : {}) as { source?: Record<string, unknown>; installLocation?: unknown };
    const s = o.source ?? {};
    const origin = [s.repo, s.url, s.path].find((x): x is string => typeof x === "string") ?? "";
    return { name, origin, ...(typeof o.installLocation === "string" ? { installLocation: o.installLocation } : {}) };
  });
}

export interface ClaudeProjectTrust {
  trustAccepted: boolean;
  disabled: string[];
  enabledMcpjson: string[];
}

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : []);

/** The project's record in ~/.claude.json (hasTrustDialogAccepted and the MCP server lists). */
export function claudeProjectTrust(home: string, project: string): ClaudeProjectTrust {
  const f = readForeignJson(path.join(home, ".claude.json")) as { projects?: Record<string, Record<string, unknown>> } | undefined;
  const p = f?.projects?.[path.resolve(project)] ?? {};
  return {
    trustAccepted: p.hasTrustDialogAccepted === true,
    disabled: [...new Set([...strings(p.disabledMcpServers), ...strings(p.disabledMcpjsonServers)])],
    enabledMcpjson: strings(p.enabledMcpjsonServers),
  };
}

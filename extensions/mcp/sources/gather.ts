/**
 * Every file MCP servers may be declared in, narrowest tier first (local > project > user > plugin),
 * and Claude Code's per-project switches. Within a tier the order is fixed: oceancode's own config,
 * Claude Code, Cursor, OpenCode.
 *
 *   local:   ~/.claude.json projects[<abs>].mcpServers; .oceancode/oceancode.json(c) `mcp.servers` when shown to be the user's (kernel/ownership.ts)
 *   project: .oceancode/oceancode.json(c) otherwise (tracked, symlinked, no git…); .mcp.json; .cursor/mcp.json; opencode.json(c), .opencode/opencode.json(c) `mcp`
 *   user:    the user's oceancode.json(c) `mcp.servers`; ~/.claude.json mcpServers; ~/.cursor/mcp.json; ~/.config/opencode/opencode.json(c) `mcp`
 *   plugin:  each enabled plugin's .mcp.json (a disabled plugin's servers are absent)
 */
import path from "node:path";
import type { ServerTier } from "../api.js";
import { declaredIn, firstExisting, readJsonFile, serversAt, type Declared, type Warn } from "./files.js";
import { isObj } from "./shapes.js";

export interface PluginSource {
  name: string;
  dir: string;
  enabled: boolean;
  trusted: boolean;
}

export interface GatherInput {
  project: string;
  home: string;
  /** oceancode's user config dir (<XDG_CONFIG_HOME|~/.config>/oceancode), or an OC_CONFIG file list */
  userConfigFiles: string[];
  xdgConfigHome: string;
  plugins: PluginSource[];
  tracked: (file: string) => boolean;
  warn: Warn;
}

/** Claude Code's per-project switches, from files the user owns (a checkout's own files may only disable). */
export interface ClaudeSwitches {
  /** enabledMcpjsonServers: these project .mcp.json servers are trusted */
  trusted: Set<string>;
  /** enableAllProjectMcpServers: every project .mcp.json server is trusted */
  enableAll: boolean;
  /** disabledMcpServers / disabledMcpjsonServers: name -> the file that says so */
  disabled: Map<string, string>;
  /** enabledMcpServers: switched on (beats an entry's enabled: false) */
  enabled: Set<string>;
  /** where a trust decision came from, for the reason */
  trustSource: Map<string, string>;
}

function names(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : [];
}

/** Fold one settings object into the switches; `owned` false: only its disable lists count. */
function foldSwitches(sw: ClaudeSwitches, v: Record<string, unknown>, file: string, owned: boolean): void {
  for (const n of [...names(v.disabledMcpServers), ...names(v.disabledMcpjsonServers)]) if (!sw.disabled.has(n)) sw.disabled.set(n, file);
  if (!owned) return;
  for (const n of names(v.enabledMcpjsonServers)) {
    sw.trusted.add(n);
    if (!sw.trustSource.has(n)) sw.trustSource.set(n, file);
  }
  for (const n of names(v.enabledMcpServers)) sw.enabled.add(n);
  if (v.enableAllProjectMcpServers === true) {
    sw.enableAll = true;
    if (!sw.trustSource.has("*")) sw.trustSource.set("*", file);
  }
}

function ocServers(files: string[], tier: ServerTier, warn: Warn): Declared[] {
  return files.flatMap((f) => declaredIn(f, ["mcp", "servers"], { tier, ecosystem: "oceancode" }, warn));
}

export function gather(input: GatherInput): { declared: Declared[]; switches: ClaudeSwitches } {
  const { project, home, warn } = input;
  const abs = path.resolve(project);
  const sw: ClaudeSwitches = { trusted: new Set(), enableAll: false, disabled: new Map(), enabled: new Set(), trustSource: new Map() };
  const claudeJson = readJsonFile(path.join(home, ".claude.json"), warn);
  const projects = claudeJson && isObj(claudeJson.value.projects) ? claudeJson.value.projects : {};
  const projectRecord = isObj(projects[abs]) ? projects[abs] : undefined;
  if (claudeJson && projectRecord) foldSwitches(sw, projectRecord, claudeJson.file, true);
  const userSettings = readJsonFile(path.join(home, ".claude", "settings.json"), warn);
  if (userSettings) foldSwitches(sw, userSettings.value, userSettings.file, true);
  const inHome = abs === path.resolve(home);
  if (!inHome) {
    const localSettings = readJsonFile(path.join(abs, ".claude", "settings.local.json"), warn);
    if (localSettings) foldSwitches(sw, localSettings.value, localSettings.file, !input.tracked(localSettings.file));
    const repoSettings = readJsonFile(path.join(abs, ".claude", "settings.json"), warn);
    if (repoSettings) foldSwitches(sw, repoSettings.value, repoSettings.file, false);
  }

  const projectOc = inHome ? [] : [path.join(abs, ".oceancode", "oceancode.jsonc"), path.join(abs, ".oceancode", "oceancode.json")];
  const local: Declared[] = [];
  const proj: Declared[] = [];
  for (const f of projectOc) {
    const tier: ServerTier = input.tracked(f) ? "project" : "local";
    (tier === "local" ? local : proj).push(...ocServers([f], tier, warn));
  }
  if (claudeJson && projectRecord) local.push(...serversAt(claudeJson, ["projects", abs, "mcpServers"], { tier: "local", ecosystem: "claude" }, warn));
  if (!inHome) {
    proj.push(...declaredIn(path.join(abs, ".mcp.json"), ["mcpServers"], { tier: "project", ecosystem: "claude", mcpJson: true }, warn));
    proj.push(...declaredIn(path.join(abs, ".cursor", "mcp.json"), ["mcpServers"], { tier: "project", ecosystem: "cursor" }, warn));
    const oc = [
      ...firstExisting([path.join(abs, "opencode.jsonc"), path.join(abs, "opencode.json")]),
      ...firstExisting([path.join(abs, ".opencode", "opencode.jsonc"), path.join(abs, ".opencode", "opencode.json")]),
    ];
    for (const f of oc) proj.push(...declaredIn(f, ["mcp"], { tier: "project", ecosystem: "opencode" }, warn));
  }
  const user: Declared[] = [...ocServers(input.userConfigFiles, "user", warn)];
  if (claudeJson) user.push(...serversAt(claudeJson, ["mcpServers"], { tier: "user", ecosystem: "claude" }, warn));
  user.push(...declaredIn(path.join(home, ".cursor", "mcp.json"), ["mcpServers"], { tier: "user", ecosystem: "cursor" }, warn));
  const ocUser = path.join(input.xdgConfigHome, "opencode");
  for (const f of firstExisting([path.join(ocUser, "opencode.jsonc"), path.join(ocUser, "opencode.json")])) {
    user.push(...declaredIn(f, ["mcp"], { tier: "user", ecosystem: "opencode" }, warn));
  }
  const plugin: Declared[] = [];
  for (const p of input.plugins) if (p.enabled) plugin.push(...pluginServers(p, warn));
  return { declared: [...local, ...proj, ...user, ...plugin], switches: sw };
}

/** `${CLAUDE_PLUGIN_ROOT}` is the plugin's folder, fixed here (the rest of `${...}` expands at start). */
function withPluginRoot(d: Declared, dir: string): Declared {
  const r = (s: string) => s.split("${CLAUDE_PLUGIN_ROOT}").join(dir);
  const rec = (m: Record<string, string>) => Object.fromEntries(Object.entries(m).map(([k, v]) => [k, r(v)]));
  const c = d.config;
  const config = c.type === "stdio" ? { ...c, command: r(c.command), args: c.args.map(r), env: rec(c.env), ...(c.cwd !== undefined ? { cwd: r(c.cwd) } : {}) } : { ...c, url: r(c.url), headers: rec(c.headers) };
  return { ...d, config };
}

/**
 * An enabled plugin's servers: its .mcp.json (`{mcpServers: {...}}`, or the servers object itself as
 * Claude Code plugins may write it) and an inline `mcpServers` object in .claude-plugin/plugin.json.
 */
function pluginServers(p: PluginSource, warn: Warn): Declared[] {
  const origin = { tier: "plugin" as const, ecosystem: "plugin", plugin: p.name, pluginTrusted: p.trusted };
  const out: Declared[] = [];
  const f = readJsonFile(path.join(p.dir, ".mcp.json"), warn);
  if (f) out.push(...serversAt(f, f.value.mcpServers !== undefined ? ["mcpServers"] : [], origin, warn));
  const manifest = readJsonFile(path.join(p.dir, ".claude-plugin", "plugin.json"), warn);
  if (manifest && isObj(manifest.value.mcpServers)) out.push(...serversAt(manifest, ["mcpServers"], origin, warn));
  return out.map((d) => withPluginRoot(d, p.dir));
}

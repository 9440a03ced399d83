/**
 * Claude Code's installed plugins as plugin-tier walk roots (always untrusted: the trust gate decides
 * before their code runs). Only the version dirs ~/.claude/plugins/installed_plugins.json records for user
 * scope or this project; ~/.claude/settings.json enabledPlugins can switch one off. Loaded by the kernel
 * at discovery (manifest `contributes.pluginRoots`), only when that index file exists. Reads files only.
 */
import fs from "node:fs";
import path from "node:path";
import type { PluginRootRecord } from "../../kernel/api.js";

function readJson(file: string): unknown {
  try {
    return JSON.parse(fs.readFileSync(file, "utf8"));
  } catch {
    return undefined;
  }
}

function isDir(p: string): boolean {
  try {
    return fs.statSync(p).isDirectory();
  } catch {
    return false;
  }
}

type Installs = Record<string, Array<{ scope?: string; projectPath?: string; installPath?: string }>>;

export function pluginRoots(paths: { home: string; project: string }): PluginRootRecord[] {
  const cc = readJson(path.join(paths.home, ".claude", "plugins", "installed_plugins.json")) as { plugins?: Installs } | undefined;
  const settings = readJson(path.join(paths.home, ".claude", "settings.json")) as { enabledPlugins?: Record<string, boolean> } | undefined;
  const out: PluginRootRecord[] = [];
  for (const [key, installs] of Object.entries(cc?.plugins ?? {})) {
    if (!Array.isArray(installs)) continue;
    const applies = (i: Installs[string][number]) => i.scope === "user" || (!!i.projectPath && path.resolve(i.projectPath) === paths.project);
    const inst = installs.find((i) => applies(i) && !!i.installPath && isDir(i.installPath));
    if (!inst?.installPath) continue;
    out.push({
      ecosystem: "claude",
      name: key.split("@")[0] ?? key,
      dir: path.resolve(inst.installPath),
      enabled: settings?.enabledPlugins?.[key] !== false,
      source: "claude",
    });
  }
  return out;
}

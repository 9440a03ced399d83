/**
 * The `plugins` service: every plugin that applies to a project with its effective state (oceancode's
 * store, then Claude Code's installs that the store does not shadow), and the enable / trust switches.
 * An enable or disable of a Claude Code plugin is an override in installed.json (`external.claude`):
 * nothing under ~/.claude is written.
 */
import { type InstalledPlugin, type PluginState, type PluginsService } from "./api.js";
import { isDir, show } from "./files.js";
import { claudeInstalls } from "./claude.js";
import type { PluginStore } from "./store.js";
import { PluginInvalid } from "./errors.js";

/** the key Claude Code's plugin roots carry as their source in the walk (extensions/compat) */
export const CLAUDE_SOURCE = "claude";

const own = (p: InstalledPlugin): PluginState => ({
  name: p.name,
  version: p.version ?? "unversioned",
  marketplace: p.marketplace,
  enabled: p.enabled !== false,
  trusted: p.trusted === true,
  source: "oceancode",
  path: p.path,
});

export class PluginsServiceImpl implements PluginsService {
  constructor(private readonly store: PluginStore) {}

  list(project: string): PluginState[] {
    const f = this.store.readInstalled();
    const names = new Set(f.plugins.map((p) => p.name));
    const overrides = f.external?.[CLAUDE_SOURCE] ?? {};
    const out = f.plugins.map(own);
    for (const c of claudeInstalls(this.store.home, project)) {
      if (names.has(c.name) || !isDir(c.installPath)) continue;
      names.add(c.name);
      const o = overrides[c.name];
      out.push({ name: c.name, version: c.version ?? "unversioned", marketplace: c.marketplace, enabled: typeof o?.enabled === "boolean" ? o.enabled : c.enabled, trusted: o?.trusted === true, source: "claude-code", path: c.installPath });
    }
    return out.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  setEnabled(project: string, name: string, enabled: boolean): PluginState {
    const claude = claudeInstalls(this.store.home, project).find((c) => c.name === name);
    this.store.locked(({ installed }) => {
      const rec = installed.plugins.find((p) => p.name === name);
      if (rec) rec.enabled = enabled;
      else if (claude) {
        const ext = (installed.external ??= {});
        const over = ((ext[CLAUDE_SOURCE] ??= {})[name] ??= {});
        over.enabled = enabled;
      } else throw PluginInvalid.wrap(`no installed plugin is named '${show(name)}' (oceancode plugin list)`);
      this.store.writeInstalled(installed);
    });
    return this.list(project).find((p) => p.name === name)!;
  }

  /** A Claude Code plugin is trusted where it is: the grant is recorded in installed.json (`external.claude`). */
  setTrusted(project: string, name: string, trusted: boolean): PluginState {
    const claude = claudeInstalls(this.store.home, project).find((c) => c.name === name);
    this.store.locked(({ installed }) => {
      const rec = installed.plugins.find((p) => p.name === name);
      if (rec) rec.trusted = trusted;
      else if (claude) {
        const over = (((installed.external ??= {})[CLAUDE_SOURCE] ??= {})[name] ??= {});
        over.trusted = trusted;
      } else throw PluginInvalid.wrap(`no installed plugin is named '${show(name)}' (oceancode plugin list)`);
      this.store.writeInstalled(installed);
    });
    return this.list(project).find((p) => p.name === name)!;
  }
}

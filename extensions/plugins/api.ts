/**
 * The published contract `oceancode/api/plugins`.
 *
 * oceancode's plugin store: ~/.oceancode/plugins/installed.json (what is installed, enabled, trusted),
 * ~/.oceancode/plugins/known_marketplaces.json (registered marketplaces) and the copies under
 * ~/.oceancode/plugins/cache/<marketplace>/<name>/<version>/. Service name: "plugins" (PluginsService),
 * for pickers such as the pager's /plugins. Nothing under ~/.claude is ever written: an enable or disable
 * of a plugin Claude Code installed is recorded in installed.json (`external.claude`).
 */

/** One plugin in installed.json. The kernel's walk reads name, path, enabled and trusted. */
export interface InstalledPlugin {
  name: string;
  /** the installed copy (a directory under ~/.oceancode/plugins/cache) */
  path: string;
  version: string;
  /** the marketplace it came from; "local" for a path install */
  marketplace: string;
  enabled: boolean;
  /** may its hooks and MCP servers run? (install --trust, plugin trust) */
  trusted: boolean;
  installed_at: string;
  /** where it was copied from (a directory), for `plugin update` when no marketplace lists it */
  source_path?: string;
  /** "claude-code" when `plugin import` brought it in */
  imported_from?: string;
}

/**
 * installed.json. `external.<source>.<name>` records the user's choices about a plugin another tool
 * installed (read where it is): `enabled` overrides that tool's record, `trusted` is oceancode's trust.
 */
export interface InstalledFile {
  plugins: InstalledPlugin[];
  external?: Record<string, Record<string, { enabled?: boolean; trusted?: boolean }>>;
}

/** One registered marketplace (known_marketplaces.json, keyed by name). */
export interface KnownMarketplace {
  /** "directory": read where it is; "git": cloned into ~/.oceancode/plugins/marketplaces/<name> */
  type: "directory" | "git";
  /** what was added: a directory path or a git URL */
  source: string;
  /** the directory holding .claude-plugin/marketplace.json */
  path: string;
  added_at: string;
  updated_at?: string;
  imported_from?: string;
}

export type KnownMarketplacesFile = Record<string, KnownMarketplace>;

/** A plugin as a picker shows it: the oceancode store's and Claude Code's, with the effective state. */
export interface PluginState {
  name: string;
  version: string;
  marketplace?: string;
  enabled: boolean;
  trusted: boolean;
  /** "oceancode": in oceancode's store; "claude-code": installed by Claude Code, read where it is */
  source: "oceancode" | "claude-code";
  path: string;
}

export interface PluginsService {
  /** Every plugin that applies to `project` (Claude Code's: user scope or that project), sorted by name. */
  list(project: string): PluginState[];
  /** Enable or disable one plugin by name (a Claude Code plugin: an override in oceancode's store). */
  setEnabled(project: string, name: string, enabled: boolean): PluginState;
  /** Grant or revoke trust (oceancode-store plugins only). */
  setTrusted(project: string, name: string, trusted: boolean): PluginState;
}

/** A store file that does not parse: nothing is overwritten (errors are matched by code). */
export const PLUGIN_STORE_INVALID = "OC_ERR_PLUGIN_STORE_INVALID" as const;
/** A usage or input error of a plugin command (a bad name, no such plugin, not a marketplace, ...). */
export const PLUGIN_INVALID = "OC_ERR_PLUGIN_INVALID" as const;

/** Another process held the store's lock for too long. */
export const PLUGIN_STORE_BUSY = "OC_ERR_PLUGIN_STORE_BUSY" as const;

export type PluginErrorCode = typeof PLUGIN_STORE_INVALID | typeof PLUGIN_INVALID | typeof PLUGIN_STORE_BUSY;

/** Plugin and marketplace names: one path segment of letters, digits, `.`, `_`, `-`; no separators or controls. */
export const NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

/** The services this contract names, typed for `ctx.services.get(name)` and `kernel.service(name)`. */
declare module "../../kernel/api.js" {
  interface ServiceMap {
    plugins: PluginsService;
  }
}

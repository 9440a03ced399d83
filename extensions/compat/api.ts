/**
 * The published contract `oceancode/api/compat`.
 *
 * The compat extension's published contract: the ecosystems it adds to the discovery walk. Readers
 * (hooks, skills, rules, ...) name these in their `ecosystems`; the kernel itself knows only "oceancode".
 * Everything here is declared in manifest.json (walkRoots, pluginRoots): the walk reads it before any
 * extension code runs, and imports plugin-roots.js only when Claude Code's plugin index exists.
 */
export const COMPAT_ECOSYSTEMS = ["claude", "opencode", "grok"] as const;
export type CompatEcosystem = (typeof COMPAT_ECOSYSTEMS)[number];
export type { PluginRootRecord } from "../../kernel/api.js";
export type { PluginRootsModule } from "../../kernel/api.js";

/**
 * The glue between a kernel context and the resolver: which plugins are installed (the walk's plugin
 * roots, so other ecosystems' plugins count too), where the user's config lives, the signed allow-list.
 * Used by the extension at boot and by `oceancode mcp` (which may point at another project with --root).
 */
import path from "node:path";
import { pluginStateIn, readPluginStoreFile, type ExtensionContext, type Reader, type Root } from "../../../kernel/api.js";
import type { TrustService } from "../../trust/api.js";
import { readPluginStore, type McpRequirements, type PluginSource, type ResolveInput } from "./index.js";

export const PLUGIN_READER_ID = "mcp-plugins";

interface PluginItem extends PluginSource {
  name: string;
  /** "oceancode" or the ecosystem whose install it is (how installed.json records its state) */
  source: string;
}

/** One item per plugin root: the plugin and whether it is enabled and trusted (its .mcp.json is read later). */
export const pluginReader: Reader<PluginItem> = {
  id: PLUGIN_READER_ID,
  ecosystems: ["oceancode", "claude"],
  read(root: Root): PluginItem[] {
    if (root.tier !== "plugin" || !root.plugin) return [];
    return [{ name: root.plugin.name, source: root.plugin.source, dir: root.dir, enabled: root.plugin.enabled, trusted: root.plugin.trusted === true }];
  },
};

/** The ResolveInput for `project` and `home` (defaults: the context's own). */
export function resolveInputFromContext(ctx: ExtensionContext, project = ctx.paths.project, home = ctx.paths.home, trust?: TrustService): ResolveInput {
  const own = path.resolve(home) === ctx.paths.home;
  const userOcDir = own ? ctx.paths.userOcDir : path.join(home, ".oceancode");
  const configDir = own ? ctx.paths.configDir : path.join(home, ".config", "oceancode");
  let plugins: PluginSource[];
  try {
    // the walk's roots are cached per process: installed.json as it is now decides enable and trust, so a
    // plugin switched mid-session (the pager's /plugins, `oceancode plugin disable`) takes its servers along
    const store = own ? readPluginStoreFile(path.join(userOcDir, "plugins", "installed.json")) : undefined;
    plugins = own
      ? ctx.walk<PluginItem>(PLUGIN_READER_ID).map(({ item }) => ({ ...item, ...pluginStateIn(store, item, { enabled: item.enabled, trusted: item.trusted }) }))
      : readPluginStore(userOcDir);
  } catch {
    plugins = readPluginStore(userOcDir);
  }
  const requirements = ctx.requirements<McpRequirements>("mcp");
  return {
    project: path.resolve(project),
    home: path.resolve(home),
    userOcDir,
    env: { ...ctx.env, XDG_CONFIG_HOME: path.dirname(configDir) },
    userConfigFiles: ctx.env.OC_CONFIG ? [path.resolve(ctx.env.OC_CONFIG)] : [path.join(configDir, "oceancode.jsonc"), path.join(configDir, "oceancode.json")],
    plugins,
    ...(requirements ? { requirements } : {}),
    ...(trust && own ? { trust: trust.get(project) } : {}),
    warn: (m) => ctx.log.warn(m),
  };
}

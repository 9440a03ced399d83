/**
 * plugins: the `oceancode plugin` command and the `plugins` service over oceancode's plugin store
 * (~/.oceancode/plugins). The kernel's walk reads installed.json itself (plugin-tier roots); this
 * extension only writes it. Trust seeding on import goes through the `trust` service.
 */
import { type CommandIO, type ExtensionContext } from "../../kernel/api.js";
import { pluginCommand } from "./command.js";
import { PluginsServiceImpl } from "./service.js";
import { PluginStore } from "./store.js";
import { isPagerSlashHost } from "../session-commands/kit.js";
import type { InspectService } from "../inspect/api.js";
import type { RouteRegistry } from "../serve/api.js";
import { pluginRoutes } from "./routes.js";

export default {
  activate(ctx: ExtensionContext) {
    const service = new PluginsServiceImpl(new PluginStore(ctx.paths.home));
    ctx.provide("plugins", service);
    // /plugins: the pager opens its capabilities picker; a host without one gets the list as text
    ctx.registerSlash("plugins", (_args, host) => {
      if (isPagerSlashHost(host) && host.capabilities) return host.capabilities("plugins");
      const rows = service.list(ctx.paths.project).map((p) => `${p.enabled ? "[x]" : "[ ]"} ${p.name} ${p.version} ${p.trusted ? "trusted" : "untrusted"} (${p.source})`);
      host.reply(rows.join("\n") || "no plugins installed");
    });
    // `oceancode inspect`: one row per installed plugin (oceancode's store and Claude Code's), with its state
    ctx.services.tryGet("inspect")?.addRows(() =>
      service.list(ctx.paths.project).map((p) => ({
        kind: "plugin",
        id: p.name,
        layer: p.source === "oceancode" ? "plugin" : `plugin (${p.source})`,
        source: p.path,
        state: `${p.enabled ? "enabled" : "disabled"}, ${p.trusted ? "trusted" : "untrusted"}`,
        value: p.version,
      })),
    );
    const routes = ctx.services.tryGet("routes");
    if (routes) for (const r of pluginRoutes(service, ctx.paths.project)) routes.add(r, ctx.id);
    ctx.registerCommand("plugin", (argv: string[], io: CommandIO) => pluginCommand(argv, io, ctx.services.tryGet("trust")));
  },
};

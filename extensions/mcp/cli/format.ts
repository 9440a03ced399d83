/** `mcp list`: one line per server copy, or JSON objects; every printed value is made terminal-safe. */
import type { ServerEntry } from "../api.js";
import { printable } from "../sources/shapes.js";

export interface ListRow {
  name: string;
  qualified_name: string;
  kind: "stdio" | "remote";
  tier: ServerEntry["tier"];
  trusted: boolean;
  enabled: boolean;
  /** ready | untrusted | disabled | shadowed | refused */
  status: ServerEntry["hold"];
  source: string;
  plugin?: string;
  reason?: string;
}

export function listJson(entries: readonly ServerEntry[]): ListRow[] {
  return entries.map((e) => ({
    name: e.name,
    qualified_name: e.qualifiedName,
    kind: e.config.type === "stdio" ? "stdio" : "remote",
    tier: e.tier,
    trusted: e.trusted,
    enabled: e.enabled,
    status: e.hold,
    source: e.source,
    ...(e.plugin !== undefined ? { plugin: e.plugin } : {}),
    ...(e.reason !== undefined ? { reason: e.reason } : {}),
  }));
}

/** `name  stdio|remote  tier  trusted|untrusted  enabled|disabled|shadowed|refused  source[  (reason)]` */
export function formatList(entries: readonly ServerEntry[]): string[] {
  return entries.map((e) => {
    const state = e.hold === "shadowed" || e.hold === "refused" ? e.hold : e.enabled ? "enabled" : "disabled";
    const source = e.plugin ? `${e.source} (plugin ${e.plugin})` : e.source;
    const cols = [e.qualifiedName, e.config.type === "stdio" ? "stdio" : "remote", e.tier, e.trusted ? "trusted" : "untrusted", state, source];
    const line = cols.map((c) => printable(c, 300)).join("  ");
    return e.hold === "ready" || e.reason === undefined ? line : `${line}  (${printable(e.reason, 300)})`;
  });
}

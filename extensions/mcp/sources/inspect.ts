/** One inspect row per resolved server copy: which servers apply here, from where, and may they run. */
import type { ServerEntry } from "../api.js";

export interface InspectRow {
  kind: "mcp";
  /** the qualified name (bare for the copy that runs) */
  id: string;
  layer: ServerEntry["tier"];
  source: string;
  state: ServerEntry["hold"];
  reason?: string;
}

export function inspectRows(entries: readonly ServerEntry[]): InspectRow[] {
  return entries.map((e) => ({
    kind: "mcp",
    id: e.qualifiedName,
    layer: e.tier,
    source: e.plugin ? `${e.source} (plugin ${e.plugin})` : e.source,
    state: e.hold,
    ...(e.reason !== undefined ? { reason: e.reason } : {}),
  }));
}

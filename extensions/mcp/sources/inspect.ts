/** One inspect row per resolved server copy: which servers apply here, from where, and may they run. */
import type { ServerEntry, ServerRow } from "../api.js";

export interface InspectRow {
  kind: "mcp";
  /** the qualified name (bare for the copy that runs) */
  id: string;
  layer: ServerEntry["tier"];
  source: string;
  state: ServerEntry["hold"];
  reason?: string;
  /** the live status when a session's manager runs in this process: `{status, tools}` */
  value?: { status: ServerRow["status"]; tools: number };
}

/** `live`: the running manager's rows (omitted when no session started the servers here). */
export function inspectRows(entries: readonly ServerEntry[], live?: readonly ServerRow[]): InspectRow[] {
  const byName = new Map((live ?? []).map((r) => [r.qualifiedName ?? r.name, r]));
  return entries.map((e) => ({
    kind: "mcp",
    id: e.qualifiedName,
    layer: e.tier,
    source: e.plugin ? `${e.source} (plugin ${e.plugin})` : e.source,
    state: e.hold,
    ...(e.reason !== undefined ? { reason: e.reason } : {}),
    ...(byName.has(e.qualifiedName) ? { value: { status: byName.get(e.qualifiedName)!.status, tools: byName.get(e.qualifiedName)!.tools } } : {}),
  }));
}

/**
 * The capabilities picker's model (`/skills`, `/plugins`, `/mcps`), pure: rows and counts from a snapshot
 * of the skills, plugins and mcp services, what Space and `t` on a row ask for, and each row's display text. The
 * names, descriptions and reasons come from files a repo can write, so every one is made display-safe
 * here (visibleLine) before it can reach the terminal.
 */
import type { SkillDisabledReason } from "../../extensions/skills/api.js";
import { visibleLine } from "../terminal/sanitize.js";

export type CapTab = "skills" | "plugins" | "mcp";
export const CAP_TABS: readonly CapTab[] = ["skills", "plugins", "mcp"];

/** What the model needs of one `SkillsService.all()` row. */
export interface CapSkill {
  skill: { id: string; qualifiedName: string; description: string; tier: string; plugin?: string };
  enabled: boolean;
  reason?: SkillDisabledReason;
}

/** What the model needs of one `PluginsService.list()` row. */
export interface CapPlugin {
  name: string;
  version: string;
  enabled: boolean;
  trusted: boolean;
  source: "oceancode" | "claude-code";
}

/** What the model needs of one `McpService.servers()` row. */
export interface CapMcp {
  name: string;
  status: string;
  reason?: string;
  tools: number;
  tier?: string;
  trusted?: boolean;
  enabled?: boolean;
  qualifiedName?: string;
}

export interface CapData {
  skills: readonly CapSkill[];
  plugins: readonly CapPlugin[];
  /** undefined: no MCP service in this host (the counts leave mcp out) */
  mcp?: readonly CapMcp[];
  /** `loaded/total` hooks when the hooks service reports them */
  hooks?: { on: number; total: number };
  everythingOff: boolean;
}

export type CapRow =
  | { kind: "master"; on: boolean }
  | { kind: "group"; label: string; on: number; total: number; ids: string[]; plugin?: string; pluginSource?: CapPlugin["source"]; pluginEnabled?: boolean; plugins?: string[] }
  | { kind: "skill"; id: string; name: string; on: boolean; reason?: string; description: string }
  /** `key`: the plugin's own name (for the service); `name`: its display copy */
  | { kind: "plugin"; key: string; name: string; version: string; on: boolean; trusted: boolean }
  /** `key`: the server's own name (for the service); `status`: display text (connected (N tools), failed: why…) */
  | { kind: "mcp"; key: string; name: string; status: string; tier: string; on: boolean; trusted: boolean }
  | { kind: "counts"; text: string };

/** What a key asks the services to do; the caller applies it and takes a fresh snapshot. */
export type CapAction =
  | { kind: "everything"; off: boolean }
  | { kind: "skills"; ids: string[]; on: boolean }
  | { kind: "plugins"; names: string[]; on: boolean }
  | { kind: "trust"; name: string; on: boolean }
  | { kind: "mcp"; name: string; on: boolean }
  | { kind: "mcp-trust"; name: string; on: boolean };

const TIER_LABEL: Readonly<Record<string, string>> = { local: "Local", repo: "Repo", user: "User", bundled: "Bundled" };
const SOURCE_LABEL: Readonly<Record<CapPlugin["source"], string>> = { oceancode: "OceanCode", "claude-code": "User (Claude)" };

/** `skills 22/259 · plugins 2/21 · mcp 1/10 · hooks 8/8` (mcp: connected/total), `EVERYTHING OFF` in front while the master switch is off. */
export function countsText(d: CapData): string {
  const parts = [`skills ${d.skills.filter((x) => x.enabled).length}/${d.skills.length}`, `plugins ${d.plugins.filter((x) => x.enabled).length}/${d.plugins.length}`];
  if (d.mcp) parts.push(`mcp ${d.mcp.filter((x) => x.status === "connected").length}/${d.mcp.length}`);
  if (d.hooks) parts.push(`hooks ${d.hooks.on}/${d.hooks.total}`);
  return `${d.everythingOff ? "EVERYTHING OFF · " : ""}${parts.join(" · ")}`;
}

/** A server's status as the MCP tab shows it. */
export function mcpStatusText(m: CapMcp): string {
  if (m.status === "connected") return `connected (${m.tools} tool${m.tools === 1 ? "" : "s"})`;
  if (m.status === "failed" && m.reason) return `failed: ${m.reason}`;
  return m.status;
}

/** The MCP tab: master, then one row per server (config order; a shadowed copy by its qualified name); counts last. */
export function mcpRows(d: CapData): CapRow[] {
  const rows: CapRow[] = [{ kind: "master", on: !d.everythingOff }];
  for (const m of d.mcp ?? []) {
    const on = m.enabled !== false && m.status !== "disabled";
    rows.push({ kind: "mcp", key: m.name, name: visibleLine(m.status === "shadowed" && m.qualifiedName ? m.qualifiedName : m.name), status: visibleLine(mcpStatusText(m)), tier: visibleLine(m.tier ?? ""), on, trusted: m.trusted !== false });
  }
  rows.push({ kind: "counts", text: countsText(d) });
  return rows;
}

/** The Skills tab: master, then one group per tier (walk order) and per plugin, each followed by its items; counts last. */
export function skillRows(d: CapData): CapRow[] {
  const groups = new Map<string, { label: string; plugin?: string; items: CapSkill[] }>();
  for (const x of d.skills) {
    const key = x.skill.plugin !== undefined ? `plugin:${x.skill.plugin}` : x.skill.tier;
    let g = groups.get(key);
    if (!g) {
      g = { label: x.skill.plugin !== undefined ? visibleLine(`plugin:${x.skill.plugin}`) : (TIER_LABEL[x.skill.tier] ?? visibleLine(x.skill.tier)), ...(x.skill.plugin !== undefined ? { plugin: x.skill.plugin } : {}), items: [] };
      groups.set(key, g);
    }
    g.items.push(x);
  }
  const rows: CapRow[] = [{ kind: "master", on: !d.everythingOff }];
  for (const g of groups.values()) {
    const p = g.plugin !== undefined ? d.plugins.find((x) => x.name === g.plugin) : undefined;
    rows.push({
      kind: "group",
      label: g.label,
      on: g.items.filter((x) => x.enabled).length,
      total: g.items.length,
      ids: g.items.map((x) => x.skill.id),
      ...(g.plugin !== undefined ? { plugin: g.plugin, pluginEnabled: p ? p.enabled : !g.items.some((x) => x.reason === "disabled (plugin)") } : {}),
      ...(p ? { pluginSource: p.source } : {}),
    });
    for (const x of g.items) {
      rows.push({ kind: "skill", id: x.skill.id, name: visibleLine(x.skill.qualifiedName), on: x.enabled, ...(x.reason ? { reason: x.reason } : {}), description: visibleLine(x.skill.description) });
    }
  }
  rows.push({ kind: "counts", text: countsText(d) });
  return rows;
}

/** The Plugins tab: master, then `OceanCode` and `User (Claude)` groups of plugins; counts last. */
export function pluginRows(d: CapData): CapRow[] {
  const rows: CapRow[] = [{ kind: "master", on: !d.everythingOff }];
  for (const source of ["oceancode", "claude-code"] as const) {
    const ps = d.plugins.filter((p) => p.source === source);
    if (!ps.length) continue;
    rows.push({ kind: "group", label: SOURCE_LABEL[source], on: ps.filter((p) => p.enabled).length, total: ps.length, ids: [], plugins: ps.map((p) => p.name) });
    for (const p of ps) rows.push({ kind: "plugin", key: p.name, name: visibleLine(p.name), version: visibleLine(p.version), on: p.enabled, trusted: p.trusted });
  }
  rows.push({ kind: "counts", text: countsText(d) });
  return rows;
}

export function rowsFor(tab: CapTab, d: CapData): CapRow[] {
  return tab === "skills" ? skillRows(d) : tab === "mcp" ? mcpRows(d) : pluginRows(d);
}

/** Rows the cursor stops on (the counts row is not one). */
export const selectable = (r: CapRow | undefined): boolean => r !== undefined && r.kind !== "counts";

/**
 * Space on a row. An item flips itself; a group turns all its items on when any is off, else all off; a
 * plugin group also switches its plugin (on when it was off, off when everything in it is on); the master
 * row flips the everything-off switch. Names in actions are the services' own (not the display copies).
 */
export function spaceActions(row: CapRow, d: CapData): CapAction[] {
  switch (row.kind) {
    case "master":
      return [{ kind: "everything", off: !d.everythingOff }];
    case "skill":
      return [{ kind: "skills", ids: [row.id], on: !row.on }];
    case "plugin": {
      return [{ kind: "plugins", names: [row.key], on: !row.on }];
    }
    case "mcp":
      return [{ kind: "mcp", name: row.key, on: !row.on }];
    case "group": {
      if (row.plugins) {
        const anyOff = row.on < row.total;
        return [{ kind: "plugins", names: row.plugins.filter((n) => d.plugins.find((p) => p.name === n)?.enabled !== anyOff), on: anyOff }];
      }
      if (row.plugin !== undefined) {
        if (row.pluginEnabled === false) return [{ kind: "plugins", names: [row.plugin], on: true }];
        if (row.on === row.total) return [{ kind: "plugins", names: [row.plugin], on: false }];
      }
      const anyOff = row.on < row.total;
      const states = new Map(d.skills.map((x) => [x.skill.id, x.enabled]));
      return [{ kind: "skills", ids: row.ids.filter((id) => states.get(id) !== anyOff), on: anyOff }];
    }
    default:
      return [];
  }
}

/** `t` on a plugin or MCP server row flips its trust (nothing elsewhere). */
export function trustAction(row: CapRow): CapAction | undefined {
  if (row.kind === "mcp") return { kind: "mcp-trust", name: row.key, on: !row.trusted };
  return row.kind === "plugin" ? { kind: "trust", name: row.key, on: !row.trusted } : undefined;
}

const box = (on: boolean) => (on ? "[x]" : "[ ]");

/** One row as text, cut to `width` columns (the description is what gives way). */
export function rowText(row: CapRow, width: number): string {
  let s: string;
  switch (row.kind) {
    case "master":
      s = `${box(row.on)} Everything${row.on ? "" : "  off: no skill, MCP tool, hook or plugin rule reaches the model"}`;
      break;
    case "group":
      s = `${row.on === 0 && row.total > 0 ? "[off]" : row.on === row.total ? "[x]" : "[-]"} ${row.label} (${row.on}/${row.total})${row.plugin !== undefined && row.pluginEnabled === false ? "  plugin disabled" : ""}`;
      break;
    case "skill":
      s = `  ${box(row.on)} ${row.name}${row.reason ? `  ${row.reason}` : ""}${row.description ? `  ${row.description}` : ""}`;
      break;
    case "plugin":
      s = `  ${box(row.on)} ${row.name}  ${row.version}  ${row.trusted ? "trusted" : "untrusted"}`;
      break;
    case "mcp":
      s = `${box(row.on)} ${row.name}  ${row.status}${row.trusted ? "" : row.status === "untrusted" ? "" : "  untrusted"}${row.tier ? `  ${row.tier}` : ""}`;
      break;
    case "counts":
      s = row.text;
      break;
  }
  const w = Math.max(10, width);
  return s.length > w ? `${s.slice(0, w - 1)}…` : s;
}

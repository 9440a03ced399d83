/**
 * Trust, enable and the signed allow-list, per declared server (before shadowing).
 *   trusted:  user and local tiers always; a project (repo) server by its `trust mcp <name>` override, else
 *             Claude Code's enabledMcpjsonServers / enableAllProjectMcpServers (user-owned files only, .mcp.json
 *             servers only), else `trust repo`; a plugin server by its override, else the plugin's own trust
 *   enabled:  trust.json disabled_mcp holds it off at every tier (nothing beats it); else an explicit enable
 *             (enabled_mcp, Claude Code's enabledMcpServers) beats Claude Code's disabled lists and `enabled: false`
 *   refused:  signed requirements with an allow-list that does not name it (and its command or url)
 */
import type { ProjectTrust } from "../../trust/api.js";
import type { ServerHold } from "../api.js";
import type { Declared } from "./files.js";
import type { ClaudeSwitches } from "./gather.js";

/** The `mcp` section of the signed requirements.json. */
export interface McpRequirements {
  allow?: Array<{ name: string; command?: string; url?: string }>;
}

export interface Decision {
  trusted: boolean;
  enabled: boolean;
  hold: Exclude<ServerHold, "shadowed">;
  reason?: string;
}

/** `*` at the end of a rule's value matches any rest; otherwise the value must be equal. */
function matches(rule: string, value: string): boolean {
  return rule.endsWith("*") ? value.startsWith(rule.slice(0, -1)) : rule === value;
}

export function allowed(d: Declared, req: McpRequirements | undefined): string | undefined {
  if (!req || !Array.isArray(req.allow)) return undefined;
  const rules = req.allow.filter((r) => matches(r.name, d.name));
  if (rules.length === 0) return `refused: the signed requirements do not allow a server named '${d.name}'`;
  const c = d.config;
  const ok = rules.some((r) => {
    if (r.command !== undefined && (c.type !== "stdio" || !matches(r.command, c.command))) return false;
    if (r.url !== undefined && (c.type === "stdio" || !matches(r.url, c.url))) return false;
    return true;
  });
  if (ok) return undefined;
  return c.type === "stdio"
    ? `refused: the signed requirements allow '${d.name}' only with another command`
    : `refused: the signed requirements allow '${d.name}' only at another url`;
}

function trustOf(d: Declared, t: ProjectTrust, sw: ClaudeSwitches): { trusted: boolean; why?: string } {
  if (d.tier === "user" || d.tier === "local") return { trusted: true };
  const override = t.mcp[d.name];
  if (override !== undefined) return override ? { trusted: true } : { trusted: false, why: `untrusted: trust.json holds it (oceancode trust mcp ${d.name} on runs it)` };
  if (d.tier === "plugin") {
    return d.pluginTrusted ? { trusted: true } : { trusted: false, why: `untrusted: plugin ${d.plugin ?? "?"} is not trusted (oceancode plugin trust ${d.plugin ?? "<name>"} or oceancode trust mcp ${d.name} on)` };
  }
  if (d.mcpJson && (sw.trusted.has(d.name) || sw.enableAll)) return { trusted: true };
  if (t.repo) return { trusted: true };
  return { trusted: false, why: `untrusted: it came with the checkout (oceancode trust mcp ${d.name} on, or oceancode trust repo on)` };
}

export function decide(d: Declared, t: ProjectTrust, sw: ClaudeSwitches, req: McpRequirements | undefined): Decision {
  const { trusted, why } = trustOf(d, t, sw);
  let enabled = true;
  let off: string | undefined;
  const explicit = t.enabled_mcp.includes(d.name) || sw.enabled.has(d.name);
  if (t.disabled_mcp.includes(d.name)) {
    enabled = false;
    off = `disabled: oceancode mcp disable (oceancode mcp enable ${d.name} turns it on)`;
  } else if (!explicit && sw.disabled.has(d.name)) {
    enabled = false;
    off = `disabled: Claude Code switched it off in ${sw.disabled.get(d.name)} (oceancode mcp enable ${d.name} turns it on)`;
  } else if (!explicit && d.off) {
    enabled = false;
    off = `disabled: the entry says enabled: false (oceancode mcp enable ${d.name} turns it on)`;
  }
  const refused = allowed(d, req);
  if (refused) return { trusted, enabled, hold: "refused", reason: refused };
  if (!enabled) return { trusted, enabled, hold: "disabled", reason: off! };
  if (!trusted) return { trusted, enabled, hold: "untrusted", reason: why! };
  return { trusted, enabled, hold: "ready" };
}

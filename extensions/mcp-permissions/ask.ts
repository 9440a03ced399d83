/**
 * MCP tools ask by default. The permissions extension's base rule is `* * allow`, so an MCP tool that no
 * rule names would run unasked; this tap (after permissions, PreToolUse hooks and allowed-tools have had
 * their say) turns that default allow into an ask, with "always" saving `<tool> * allow`. A rule naming
 * the tool, or Claude Code's server-wide forms `mcp__<server>` and `mcp__<server>__*`, decides instead
 * (allow, ask or deny), as do modes such as bypassPermissions; `run --auto` approves the ask.
 */
import type { AuthorizeResult, ToolCallContext } from "../engine/api.js";
import type { PermissionsService } from "../permissions/api.js";
import { USE_TOOL } from "../mcp/api.js";

/** `mcp__a__b` -> [`mcp__a__b`, `mcp__a`, `mcp__a__*`] */
function ruleNames(tool: string): string[] {
  const server = /^(mcp__.+?)__/.exec(tool)?.[1];
  return server ? [tool, server, `${server}__*`] : [tool];
}

export function mcpAsk(permissions: PermissionsService | undefined, by: string): (call: ToolCallContext) => Promise<AuthorizeResult | undefined> {
  return async (call) => {
    const name = call.call.name === USE_TOOL ? String(call.call.input.id ?? "") : call.call.name;
    if (!name.startsWith("mcp__")) return undefined;
    if (permissions) {
      const mode = permissions.modeOf(call.session.info.overrides);
      for (const n of ruleNames(name)) {
        const d = await permissions.check(n, "", { cwd: call.cwd, mode });
        if (d.layer === "default") continue; // only the base rule spoke
        if (d.action === "allow") return undefined;
        const rule = `${d.rule} (${d.layer}${d.file ? `: ${d.file}` : ""})`;
        if (d.action === "deny") return { action: "deny", reason: d.reason, by, rule };
        return { action: "ask", reason: d.reason, by, rule, always: `${name} * allow` };
      }
    }
    return { action: "ask", reason: `MCP tool ${name}`, by, always: `${name} * allow` };
  };
}

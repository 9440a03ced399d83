/**
 * MCP tools ask by default. The permissions extension's base rule is `* * allow`, so an MCP tool that no
 * rule names would run unasked; this tap (after permissions, PreToolUse hooks and allowed-tools have had
 * their say) turns that default allow into an ask, with "always" saving `<tool> * allow`. A rule that
 * allows the tool (settings, Claude's `mcp__x__y`, a mode such as bypassPermissions) and `run --auto`
 * still allow it.
 */
import type { AuthorizeResult, ToolCallContext } from "../../engine/api.js";
import type { PermissionsService } from "../../permissions/api.js";
import { USE_TOOL } from "./meta.js";

export function mcpAsk(permissions: PermissionsService | undefined, by: string): (call: ToolCallContext) => Promise<AuthorizeResult | undefined> {
  return async (call) => {
    const name = call.call.name === USE_TOOL ? String(call.call.input.id ?? "") : call.call.name;
    if (!name.startsWith("mcp__")) return undefined;
    if (permissions) {
      const d = await permissions.check(name, "", { cwd: call.cwd, mode: permissions.modeOf(call.session.info.overrides) });
      if (d.action !== "allow" || d.layer !== "default") return undefined; // a rule or mode decided (permissions already spoke)
    }
    return { action: "ask", reason: `MCP tool ${name}`, by, always: `${name} * allow` };
  };
}

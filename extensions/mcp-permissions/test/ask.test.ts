/** MCP tools ask unless a rule decides: the tool's own rule, or Claude Code's server-wide `mcp__<server>` / `mcp__<server>__*`. */
import { describe, expect, it } from "vitest";
import type { ToolCallContext } from "../../engine/api.js";
import type { PermissionDecision, PermissionsService } from "../../permissions/api.js";
import { mcpAsk } from "../ask.js";

function perms(rules: Record<string, "allow" | "ask" | "deny">): PermissionsService {
  return {
    check: async (tool: string): Promise<PermissionDecision> =>
      rules[tool] ? { action: rules[tool]!, reason: `${tool} rule`, rule: `${tool} * ${rules[tool]}`, layer: "project" } : { action: "allow", reason: "base", rule: "* * allow", layer: "default" },
    modeOf: () => "default",
    resolveMode: () => ({ mode: "default" }),
    warnings: () => [],
  } as PermissionsService;
}
const call = (name: string, input: Record<string, unknown> = {}) => ({ call: { id: "c", name, input }, cwd: "/p", session: { info: { overrides: {} } } }) as unknown as ToolCallContext;

describe("mcpAsk", () => {
  it("asks by default, with always = '<tool> * allow'; not for other tools", async () => {
    const tap = mcpAsk(perms({}), "mcp");
    expect(await tap(call("mcp__gh__issue"))).toEqual({ action: "ask", reason: "MCP tool mcp__gh__issue", by: "mcp", always: "mcp__gh__issue * allow" });
    expect(await tap(call("bash"))).toBeUndefined();
  });
  it("a rule on the tool or its server decides", async () => {
    expect(await mcpAsk(perms({ mcp__gh__issue: "allow" }), "mcp")(call("mcp__gh__issue"))).toBeUndefined();
    expect(await mcpAsk(perms({ mcp__gh: "allow" }), "mcp")(call("mcp__gh__issue"))).toBeUndefined();
    expect(await mcpAsk(perms({ "mcp__gh__*": "allow" }), "mcp")(call("mcp__gh__issue"))).toBeUndefined();
    expect(await mcpAsk(perms({ mcp__gh: "deny" }), "mcp")(call("mcp__gh__issue"))).toMatchObject({ action: "deny", reason: "mcp__gh rule" });
    expect(await mcpAsk(perms({ mcp__other: "allow" }), "mcp")(call("mcp__gh__issue"))).toMatchObject({ action: "ask" });
  });
  it("use_tool asks as the tool it runs", async () => {
    expect(await mcpAsk(perms({}), "mcp")(call("use_tool", { id: "mcp__gh__issue" }))).toMatchObject({ action: "ask", reason: "MCP tool mcp__gh__issue" });
    expect(await mcpAsk(perms({ mcp__gh: "allow" }), "mcp")(call("use_tool", { id: "mcp__gh__issue" }))).toBeUndefined();
  });
});

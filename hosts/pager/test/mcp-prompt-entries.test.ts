/** Unit: the `/` popup rows for MCP prompts (from the mcp service's prompts()). */
import { describe, expect, it } from "vitest";
import { mcpPromptEntries } from "../mcp-prompt-entries.js";

describe("mcpPromptEntries", () => {
  it("one row per prompt with its usage, display-safe; a taken name and a failing service are skipped", () => {
    const mcp = {
      prompts: () => [
        { name: "mcp__everything__args-prompt", description: "two args\u001b[31m", usage: "<city> [state]" },
        { name: "mcp__everything__simple-prompt", description: "no args", usage: "(no arguments)" },
        { name: "help", description: "clash", usage: "" },
      ],
    };
    const rows = mcpPromptEntries(mcp, new Set(["help"]));
    expect(rows.map((r) => r.name)).toEqual(["mcp__everything__args-prompt", "mcp__everything__simple-prompt"]);
    expect(rows[0]).toMatchObject({ usage: "<city> [state]", skill: true });
    expect(rows[0]!.summary).not.toContain("\u001b");
    expect(rows[1]!.usage).toBeUndefined();
    expect(mcpPromptEntries({ prompts: () => { throw new Error("x"); } }, new Set())).toEqual([]);
    expect(mcpPromptEntries(undefined, new Set())).toEqual([]);
  });
});

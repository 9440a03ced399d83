/**
 * The `/` popup's MCP prompt rows: each connected server's prompt as `/mcp__<server>__<prompt>` with its
 * arguments (`<required> [optional]`) and description, from the mcp service's cached `prompts()`. Server
 * text, so it is made display-safe here. The controller's `slashCommands()` appends these after the skills
 * once it holds the mcp service (fetched when the first session starts).
 */
import { visibleLine } from "../terminal/sanitize.js";
import type { SlashEntry } from "./components/dialogs.js";

/** The part of the mcp service the pager reads (structural: the pager never imports extension code). */
export interface McpPromptsLike {
  prompts(): Array<{ name: string; description: string; usage: string }>;
}

const MAX_SUMMARY = 160;

export function mcpPromptEntries(mcp: McpPromptsLike | undefined, taken: ReadonlySet<string>): SlashEntry[] {
  if (!mcp) return [];
  let items;
  try {
    items = mcp.prompts();
  } catch {
    return []; // a service that cannot answer must not take the composer down
  }
  const out: SlashEntry[] = [];
  for (const p of items) {
    const name = visibleLine(p.name);
    if (taken.has(name) || out.some((e) => e.name === name)) continue;
    const usage = p.usage === "(no arguments)" ? "" : visibleLine(p.usage);
    out.push({ name, summary: `${visibleLine(p.description).slice(0, MAX_SUMMARY)} (MCP prompt)`, skill: true, ...(usage ? { usage } : {}) });
  }
  return out;
}

/**
 * Meta-dispatch: past 128 connected MCP tools (from 64 with OC_MCP_META_TOOLS=1) the flat MCP tools are
 * replaced by two: `search_tool` (keywords over names and descriptions -> ids with their schemas) and
 * `use_tool` ({id, arguments} -> the tool's result). Both are registered once and offered only then; the
 * names they reach are listed by server in a system block (client/context.ts), so the model can ask by id.
 */
import type { ToolDefinition } from "../../engine/api.js";
import type { McpManager } from "./manager.js";
import { mcpToolName } from "./names.js";

import { SEARCH_TOOL, USE_TOOL } from "../api.js";

export { SEARCH_TOOL, USE_TOOL };
export const META_TOOL_NAMES: ReadonlySet<string> = new Set([SEARCH_TOOL, USE_TOOL]);

/** The MCP tool count from which the meta-tools replace the flat list. */
export function metaThreshold(env: NodeJS.ProcessEnv): number {
  return env.OC_MCP_META_TOOLS === "1" ? 64 : 129;
}

interface Hit {
  id: string;
  score: number;
  description: string;
  inputSchema: Record<string, unknown>;
}

export function searchTools(manager: McpManager, query: string, limit: number): Hit[] {
  const words = query.toLowerCase().split(/[^a-z0-9]+/).filter(Boolean);
  // ids named outright (from the system prompt's list) come first, whole
  const exact = new Set(query.split(/[\s,]+/).filter(Boolean));
  const hits: Hit[] = [];
  for (const { server, tool } of manager.connectedTools()) {
    const id = mcpToolName(server, tool.name);
    const name = id.toLowerCase();
    const desc = tool.description.toLowerCase();
    let score = exact.has(id) ? 1000 : 0;
    for (const w of words) score += (name.includes(w) ? 3 : 0) + (desc.includes(w) ? 1 : 0);
    if (score > 0 || !words.length) hits.push({ id, score, description: tool.description.slice(0, 500), inputSchema: tool.inputSchema });
  }
  return hits.sort((a, b) => b.score - a.score || a.id.localeCompare(b.id)).slice(0, limit);
}

export function metaTools(manager: McpManager, lookup: (id: string) => ToolDefinition | undefined): ToolDefinition[] {
  const search: ToolDefinition = {
    name: SEARCH_TOOL,
    kind: "read",
    description: "Find MCP tools by id or keyword (names and descriptions). The system prompt lists every tool's name by server. Returns up to `limit` tool ids with their descriptions and input schemas; run one with use_tool.",
    inputSchema: {
      type: "object",
      properties: { query: { type: "string", description: "keywords, e.g. 'create issue'" }, limit: { type: "number", description: "at most this many (default 10)" } },
      required: ["query"],
      additionalProperties: false,
    },
    ruleSubject: (input) => String(input.query ?? ""),
    async run(input) {
      const limit = typeof input.limit === "number" && input.limit > 0 ? Math.min(50, Math.floor(input.limit)) : 10;
      const hits = searchTools(manager, String(input.query ?? ""), limit);
      if (!hits.length) return { content: `no MCP tool matches '${String(input.query ?? "")}'` };
      return { content: JSON.stringify(hits.map(({ id, description, inputSchema }) => ({ id, description, inputSchema })), null, 1) };
    },
  };
  const use: ToolDefinition = {
    name: USE_TOOL,
    kind: "other",
    description: "Run an MCP tool found with search_tool: `id` as search_tool returned it, `arguments` matching its input schema.",
    inputSchema: {
      type: "object",
      properties: { id: { type: "string", description: "the tool id (mcp__<server>__<tool>)" }, arguments: { type: "object", description: "the tool's input" } },
      required: ["id"],
      additionalProperties: false,
    },
    ruleSubject: (input) => String(input.id ?? ""),
    async run(input, ctx) {
      const id = String(input.id ?? "");
      const tool = lookup(id);
      if (!tool) return { content: `no MCP tool with id '${id}'; find one with ${SEARCH_TOOL}`, isError: true };
      const args = input.arguments && typeof input.arguments === "object" ? (input.arguments as Record<string, unknown>) : {};
      return tool.run(args, ctx);
    },
  };
  return [search, use];
}


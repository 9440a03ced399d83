/**
 * Tool names as Claude Code writes them: `mcp__<server>__<tool>`, each part reduced to the API's tool-name
 * charset [A-Za-z0-9_-] (anything else becomes `_`). A name past the API's 64 characters is cut and ends
 * with a short hash of the full name, so two long names never collide.
 */
import { createHash } from "node:crypto";

const MAX = 64;

export function sanitizePart(s: string): string {
  const out = s.replace(/[^A-Za-z0-9_-]/g, "_");
  return out === "" ? "_" : out;
}

export function mcpToolName(server: string, tool: string): string {
  const full = `mcp__${sanitizePart(server)}__${sanitizePart(tool)}`;
  if (full.length <= MAX) return full;
  const hash = createHash("sha256").update(full).digest("hex").slice(0, 8);
  return `${full.slice(0, MAX - 9)}_${hash}`;
}

/** The prefix every tool of one server carries. */
export function serverPrefix(server: string): string {
  return `mcp__${sanitizePart(server)}__`;
}

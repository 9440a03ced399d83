/**
 * PLACEHOLDER until the sources slice lands: only ~/.claude.json's top-level `mcpServers` (user tier,
 * trusted). The real resolver reads every config file the contract (../api.ts) names, with precedence,
 * shadowing, trust and holds. The signature is the contract between the sources and the client slices.
 */
import fs from "node:fs";
import path from "node:path";
import type { ServerConfig, ServerEntry } from "../api.js";

export interface ResolveInput {
  /** the project directory (its absolute path keys trust.json and ~/.claude.json projects) */
  project: string;
  home: string;
  /** oceancode's user dir (~/.oceancode) */
  userOcDir: string;
  /** the resolved `mcp` config section, if any */
  configured?: Record<string, unknown>;
}

function toConfig(raw: Record<string, unknown>): ServerConfig | undefined {
  if (typeof raw.url === "string") return { type: raw.type === "sse" ? "sse" : "http", url: raw.url, headers: (raw.headers as Record<string, string>) ?? {} };
  if (typeof raw.command === "string") return { type: "stdio", command: raw.command, args: Array.isArray(raw.args) ? raw.args.map(String) : [], env: (raw.env as Record<string, string>) ?? {} };
  return undefined;
}

export function resolveServers(input: ResolveInput): ServerEntry[] {
  const file = path.join(input.home, ".claude.json");
  let servers: Record<string, Record<string, unknown>> = {};
  try {
    servers = (JSON.parse(fs.readFileSync(file, "utf8")) as { mcpServers?: typeof servers }).mcpServers ?? {};
  } catch {
    return [];
  }
  const out: ServerEntry[] = [];
  for (const [name, raw] of Object.entries(servers)) {
    const config = toConfig(raw);
    if (config) out.push({ name, qualifiedName: name, tier: "user", source: file, config, trusted: true, enabled: true, hold: "ready" });
  }
  return out;
}

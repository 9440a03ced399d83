/** What the stream-json `system/init` message says of a run, gathered from the kernel's services when present. */
import type { Kernel } from "../boot.js";
import type { EngineService, Session } from "../../extensions/engine/api.js";
import type { ClaudeInitFacts } from "./claude-stream.js";

/** The environment variable each built-in provider reads its key from (a key stored by `oceancode key` wins over it). */
const KEY_VARS: Record<string, string> = { anthropic: "ANTHROPIC_API_KEY", openai: "OPENAI_API_KEY" };

/** Where the model's key comes from, in Claude's words: the variable's name when it is set, else "none" (a stored key, or none needed). */
export function apiKeySource(provider: string, env: NodeJS.ProcessEnv): string {
  const v = KEY_VARS[provider];
  return v && env[v] ? v : "none";
}

export async function claudeInitFacts(kernel: Kernel, engine: EngineService, session: Session, o: { auto: boolean; env: NodeJS.ProcessEnv; version: string }): Promise<ClaudeInitFacts> {
  let mcpServers: ClaudeInitFacts["mcpServers"] = [];
  if (kernel.hasService("mcp")) {
    const mcp = await kernel.service("mcp").catch(() => undefined);
    mcpServers = (mcp?.servers() ?? []).map((s) => ({ name: s.name, status: s.status }));
  }
  let mode = session.info.overrides.agent === "plan" ? "plan" : "default";
  if (mode !== "plan" && kernel.hasService("permissions")) {
    const p = await kernel.service("permissions").catch(() => undefined);
    mode = p?.modeOf?.(session.info.overrides) ?? mode;
  }
  const provider = session.info.model.split("/")[0] ?? "";
  return {
    cwd: session.info.cwd,
    tools: engine.tools.list().map((t) => t.name),
    mcpServers,
    permissionMode: mode,
    slashCommands: kernel.slashCommands().map((c) => c.name),
    apiKeySource: apiKeySource(provider, o.env),
    version: o.version,
  };
}

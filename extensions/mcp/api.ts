/**
 * The published contract `oceancode/api/mcp`.
 *
 * MCP servers from every config file a user already has (Claude Code's ~/.claude.json and .mcp.json,
 * OpenCode's opencode.json `mcp`, Cursor's .cursor/mcp.json, oceancode's own `mcp` config key, enabled
 * plugins' .mcp.json), merged by precedence local > project > user > plugin. A name declared at two tiers
 * runs once; repo-tier and plugin servers are held until trusted. Connected servers' tools are offered as
 * `mcp__<server>__<tool>` (Claude Code's names).
 */

/** A stdio server: a local command. */
export interface StdioServerConfig {
  type: "stdio";
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd?: string;
  /** the entry's `tool_timeout_s`: this server's bound on one tools/call (over MCP_TOOL_TIMEOUT and mcp.tool_timeout_s) */
  toolTimeoutS?: number;
}

/** A remote server: Streamable HTTP (`http`) or the older SSE transport (`sse`). */
export interface RemoteServerConfig {
  type: "http" | "sse";
  url: string;
  headers: Record<string, string>;
  /** the entry's `tool_timeout_s` (see StdioServerConfig) */
  toolTimeoutS?: number;
}

export type ServerConfig = StdioServerConfig | RemoteServerConfig;

/** Where a server entry was declared. */
export type ServerTier = "local" | "project" | "user" | "plugin";

/**
 * Why a server may not run now, or "ready" when it may:
 *   untrusted: a project (repo) or plugin server not yet trusted (nothing spawned or dialed)
 *   disabled:  held disabled (trust.json disabled_mcp, Claude Code's disabled lists, `enabled: false`)
 *   shadowed:  a narrower tier declares the same name and that copy runs
 *   refused:   signed requirements do not allow it (the reason says why)
 */
export type ServerHold = "ready" | "untrusted" | "disabled" | "shadowed" | "refused";

/** One server as the sources resolved it (no connection yet). */
export interface ServerEntry {
  /** the name tools are prefixed with (`mcp__<name>__<tool>`) */
  name: string;
  /** `<tier>:<name>` when the name is declared at more than one tier, else the name */
  qualifiedName: string;
  tier: ServerTier;
  /** the file (or config layer) that declared it, e.g. /p/.mcp.json, ~/.claude.json, config:mcp */
  source: string;
  /** the plugin that brought it (tier "plugin") */
  plugin?: string;
  /** whose file format declared it: claude | cursor | opencode | oceancode | plugin */
  ecosystem?: string;
  /** as written, before `${VAR}` expansion */
  config: ServerConfig;
  trusted: boolean;
  enabled: boolean;
  hold: ServerHold;
  /** why it is held (e.g. "untrusted: oceancode trust mcp db on runs it") */
  reason?: string;
}

/** The live state of one server in a session's manager. */
export type ServerStatus = "connected" | "connecting" | "needs-auth" | "failed" | "disabled" | "untrusted" | "shadowed" | "refused";

/** One row of `oceancode mcp doctor` (client/doctor.ts): a ready server dialed with a short budget, or its hold. */
export interface DoctorRow {
  name: string;
  status: "reachable" | "failed" | "needs-auth" | Exclude<ServerHold, "ready">;
  reason?: string;
  /** reachable: how many tools it lists */
  tools?: number;
  ms?: number;
}

/** The live state of one server (the manager's row; the `mcp` service's `servers()`). */
export interface ServerRow {
  name: string;
  status: ServerStatus;
  reason?: string;
  tools: number;
  transport: "stdio" | "http" | "sse";
  /** a stdio server's process id */
  pid?: number;
  /** the entry's `<tier>:<name>` (a shadowed copy's), tier, declaring file, trust and enable (manager rows carry them) */
  qualifiedName?: string;
  tier?: ServerTier;
  source?: string;
  trusted?: boolean;
  enabled?: boolean;
}

/** One server prompt a user may type as `/<name> args` (for hosts' `/` popups). */
export interface McpPromptEntry {
  /** the slash name without the slash: `mcp__<server>__<prompt>` */
  name: string;
  server: string;
  description: string;
  /** the declared arguments, `<required> [optional]` */
  usage: string;
}

/** The `mcp` service a session's manager publishes (live status for inspect, doctor, hosts). */
export interface McpService {
  /** one row per resolved entry: held entries read their hold, ready ones their live status */
  servers(): ServerRow[];
  /**
   * The connected servers' prompts as slash names, from a cache (synchronous, for a popup asked per key);
   * each call past 2 s since the last refresh re-lists them in the background. Server text: a host makes
   * it display-safe.
   */
  prompts(): McpPromptEntry[];
  /** start the servers if no session has yet (lazy), then wait up to `ms` for handshakes */
  settle(ms: number): Promise<ServerRow[]>;
  /**
   * Switch a server on or off for this project (trust.json enabled_mcp / disabled_mcp, as `oceancode mcp
   * enable|disable`); applied at once: a disabled server's tools go and it disconnects (bounded, in the
   * background), an enabled ready one starts. Throws when trust.json is corrupt (nothing is changed).
   */
  setEnabled(name: string, on: boolean): void;
  /** Trust a server or hold it (trust.json `mcp` override, as `oceancode trust mcp <name> on|off`); applied at once. */
  setTrusted(name: string, on: boolean): void;
  /** is this project's master switch (everything_off) on? MCP tools are then not offered */
  everythingOff(): boolean;
  /**
   * Servers a host's client hands over for this process (ACP `session/new` `mcpServers`): added at the
   * local tier as trusted (the client that started oceancode is the user's), winning over a config
   * file's copy of the same name (listed `shadowed`), started with the others (at once when they run).
   * `source` names where they came from (e.g. "acp:session/new"). Returns the names taken; a name that
   * is not a server name is skipped with a warning.
   */
  addServers(servers: ReadonlyArray<{ name: string; config: ServerConfig }>, source: string): string[];
  /** MCP failures in this process so far: handshakes that failed, connections lost, calls that failed (protocol, timeout) */
  errorCounts?(): Readonly<{ connect: number; disconnect: number; call: number }>;
}

/** The meta-dispatch tools offered instead of the MCP tools past 128 of them (64 with OC_MCP_META_TOOLS=1). */
export const SEARCH_TOOL = "search_tool";
/** `use_tool {id, arguments}` runs the MCP tool `id` (permission is asked under that tool's name). */
export const USE_TOOL = "use_tool";

/** The services this contract names, typed for `ctx.services.get(name)` and `kernel.service(name)`. */
declare module "../../kernel/api.js" {
  interface ServiceMap {
    mcp: McpService;
  }
}

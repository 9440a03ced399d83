/**
 * The published contract `oceancode/api/hooks` (what other extensions and third parties may import).
 *
 * The hooks extension's public types: hook sources as discovered, and the outcome records it writes
 * (storage event kind "hook"). Hosts (pager /hooks, serve GET /hooks) read these shapes.
 */
import type { Tier, Ecosystem } from "../../kernel/api.js";

/** The nine events this runner implements (Claude Code's names). */
export const HOOK_EVENTS = [
  "SessionStart",
  "SessionEnd",
  "UserPromptSubmit",
  "PreToolUse",
  "PostToolUse",
  "PostToolUseFailure",
  "PermissionDenied",
  "Stop",
  "SubagentStop",
] as const;
export type HookEvent = (typeof HOOK_EVENTS)[number];

export interface CommandHandler {
  type: "command";
  command: string;
  /** seconds */
  timeout?: number;
  /** the shell that runs `<shell> -c <command>` (default sh) */
  shell?: string;
}
export interface HttpHandler {
  type: "http";
  url: string;
  headers?: Record<string, string>;
  /** env names a header value may expand ($VAR / ${VAR}); others stay literal */
  allowedEnvVars?: string[];
  timeout?: number;
}
export type HandlerSpec = CommandHandler | HttpHandler;

export interface HookGroup {
  event: HookEvent;
  /** absent / "" / "*" = every value */
  matcher?: string;
  handlers: HandlerSpec[];
}

/** "held: everything off": the project's master switch (trust.json `everything_off`) holds every source */
export type SourceStatus = "loaded" | "held: everything off" | "held: untrusted" | "held: disabled plugin" | "unreadable" | "invalid";

export interface HookSource {
  /** absolute path of the file */
  path: string;
  tier: Tier;
  ecosystem: Ecosystem;
  plugin?: string;
  /** a plugin's install folder: its command handlers see it as CLAUDE_PLUGIN_ROOT (and OC_PLUGIN_ROOT) */
  pluginRoot?: string;
  status: SourceStatus;
  /** why unreadable / invalid */
  error?: string;
  groups: HookGroup[];
  /** handlers of another type (prompt, agent) or under an event this runner does not implement */
  skipped: number;
  /** Claude Code reads this file too (its settings files and its plugins' hooks) */
  sharedWithClaudeCode: boolean;
}

/** What `hooks list --json` and `/hooks` print. */
export interface HooksReport {
  repo_trusted: boolean;
  sources: Array<{
    path: string;
    tier: Tier;
    ecosystem: Ecosystem;
    plugin?: string;
    status: SourceStatus;
    error?: string;
    skipped: number;
    shared_with_claude_code: boolean;
    handlers: Array<{ event: HookEvent; matcher: string; type: HandlerSpec["type"]; command?: string; url?: string; timeout?: number }>;
  }>;
}

export type HookDecision = "allow" | "deny" | "ask" | "defer" | "block" | "continue" | "context" | "none" | "error" | "timeout";

/** One handler's outcome, recorded with provenance (storage event kind "hook"). */
export interface HookOutcomeRecord {
  event: HookEvent;
  source: string;
  tier: Tier;
  ecosystem: Ecosystem;
  handler: string;
  matcher: string;
  decision: HookDecision;
  reason?: string;
  exitCode?: number | null;
  ms: number;
  /** the tool call, for tool events */
  tool?: string;
  toolUseId?: string;
}

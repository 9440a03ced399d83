/** The permissions extension's public API (service "permissions"). */
import type { Segment } from "../shell-guard/api.js";

export type Action = "allow" | "ask" | "deny";
export type PermissionMode = "default" | "acceptEdits" | "dontAsk" | "bypassPermissions" | "plan";

export interface PermissionDecision {
  action: Action;
  reason: string;
  /** the rule that decided, as written ("bash * ask", "dangerous floor", "safe list", ...) */
  rule: string;
  /** default | global | project | managed | requirements | claude | mode | floor | guard | safe-list | file-guard | session */
  layer: string;
  file?: string;
  /** the rule saved when the user answers "always" */
  always?: string;
  /** bash: each segment's verdict */
  segments?: Array<Segment & { decision: Action; rule: string; layer: string; file?: string }>;
}

export interface PermissionsService {
  /** Decide a tool call; `subject` is the command for bash, the path for file tools. Runs nothing. */
  check(tool: string, subject: string, opts?: { cwd?: string; mode?: PermissionMode }): Promise<PermissionDecision>;
  /** The effective mode of a session (its override, else permission_mode), after managed requirements. */
  modeOf(overrides?: Record<string, unknown>): PermissionMode;
  /** Validate a mode switch: bypassPermissions downgrades to default when requirements disable it. */
  resolveMode(requested: string): { mode: PermissionMode; note?: string };
  /** Malformed-rule and settings warnings. */
  warnings(): string[];
}

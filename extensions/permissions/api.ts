/**
 * The published contract `oceancode/api/permissions` (what other extensions and third parties may import).
 * The permissions extension's public API (service "permissions").
 */
import type { GuardCategory, SegmentKind, Verdict } from "../shell-guard/api.js";
import type { SessionOverrides } from "../engine/api.js";

export type Action = "allow" | "ask" | "deny";
export type PermissionMode = "default" | "acceptEdits" | "dontAsk" | "bypassPermissions" | "plan";

/** One bash segment: what the shell guard said of it alone, then what the rules and mode decided. */
export interface SegmentDecision {
  /** the segment as written */
  text: string;
  /** after wrapper peeling and word resolution (what rules match, with `text`) */
  command: string;
  /** the shell guard's class: floor (always denied), guard (asks in every mode), safe (read-only list), plain */
  kind: SegmentKind;
  /** for a guard segment: what kind of ask it is (secret-read, persistence, history, inline-code, delete, opaque) */
  category?: GuardCategory;
  /** the shell guard's own verdict and reason, before any rule or mode (a plain segment reads "ask": rules decide) */
  guard: { verdict: Verdict; reason: string; category?: GuardCategory };
  /** this segment's outcome after rules and mode; the command's action is the strictest segment's */
  decision: Action;
  /** why `decision` */
  reason: string;
  /** the rule that decided the segment, and where it came from */
  rule: string;
  layer: string;
  file?: string;
}

export interface PermissionDecision {
  action: Action;
  reason: string;
  /** the rule that decided, as written ("bash * ask", "dangerous floor", "safe list", ...) */
  rule: string;
  /** default | global | project | managed | requirements | claude | mode | floor | guard | safe-list | file-guard | session */
  layer: string;
  file?: string;
  /** the exact rule saved when the user answers "always"; absent on guard asks (never saved) */
  always?: string;
  /**
   * asks only. false: an automatic approver (run --auto) must reject it, as the shell guard asks and no
   * exact allow rule names the command; true: a guard ask such a rule names. Absent: a rule ask (--auto approves).
   */
  autoApprove?: boolean;
  /** bash: each segment's verdict */
  segments?: SegmentDecision[];
  /**
   * asks only (additive): a residual bash ask, one that no allow, deny or specific-pattern ask rule and no
   * shell-guard ask settled: every asking segment was asked by a generic `*` rule (`bash * ask`, a mode).
   * Only these reach a PermissionAdvisor's advice (the Jev layer's point 1).
   */
  residual?: boolean;
  /** bash asked to run outside the sandbox (dangerouslyDisableSandbox) */
  unconfined?: boolean;
}

/**
 * An advisor of residual asks (additive; the Jev layer, docs/jev.md). The permissions tap calls each
 * registered advisor, in order, on a bash ask it produced: the floor's denies, deny rules and dontAsk
 * never reach one (they are not asks), and a guard ask arrives with `residual: false`. An advisor may
 * answer allow (the prompt is skipped) or deny (the call is rejected with its reason), or nothing
 * (the ask proceeds). A throwing advisor is ignored (the ask proceeds).
 */
export interface PermissionAdvice {
  action: "allow" | "deny";
  reason: string;
  by: string;
}
export type PermissionAdvisor = (call: import("../engine/api.js").ToolCallContext, decision: PermissionDecision) => Promise<PermissionAdvice | undefined> | PermissionAdvice | undefined;

export interface PermissionsService {
  /** Decide a tool call; `subject` is the command for bash, the path for file tools. Runs nothing. */
  check(tool: string, subject: string, opts?: { cwd?: string; mode?: PermissionMode; unconfined?: boolean }): Promise<PermissionDecision>;
  /** Whether the user's own exact allow rule (no wildcard) names this whole bash command (additive). */
  exactRule?(command: string): boolean;
  /** The effective mode of a session (its override, else permission_mode), after managed requirements. */
  modeOf(overrides?: SessionOverrides): PermissionMode;
  /** Validate a mode switch: bypassPermissions downgrades to default when requirements disable it. */
  resolveMode(requested: string): { mode: PermissionMode; note?: string };
  /** Malformed-rule and settings warnings, and what an untrusted checkout's .claude settings had held. */
  warnings(): string[];
  /** Register an advisor of bash asks (additive; see PermissionAdvisor). */
  addAdvisor?(advisor: PermissionAdvisor): void;
}

/** The services this contract names, typed for `ctx.services.get(name)` and `kernel.service(name)`. */
declare module "../../kernel/api.js" {
  interface ServiceMap {
    permissions: PermissionsService;
  }
}

/** The session slot of the permission mode (typed, stored with the session: see SessionSlots in oceancode/api/engine). */
declare module "../engine/api.js" {
  interface SessionSlots {
    /** the session's permission mode name (resolveMode reads it; modeOf gives the effective mode) */
    permission_mode: string;
  }
}

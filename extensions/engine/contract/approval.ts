/**
 * Part of the published contract `oceancode/api/engine` (re-exported by ../api.ts): approval provenance.
 *
 * Every tool call that runs was approved by someone or something. `person`: a human answered yes to
 * this very call (the pager, an ACP client's permission dialog, a serve client answering over HTTP).
 * Everything else is automatic: a rule or the base allow, a mode (acceptEdits, bypassPermissions), a
 * PreToolUse hook, `run --auto`, a client's standing approval, a skill's allowed-tools, an advisor.
 * The sandbox confines what a person did not approve (docs/sandbox.md).
 */

/** Where an automatic approval came from. */
export type ApprovalSource = "rule" | "mode" | "hook" | "auto" | "client" | "skill" | "advisor" | "default";

export type ToolApproval =
  | { kind: "person"; by: string }
  | {
      kind: "automatic";
      source: ApprovalSource;
      /** the extension or host that approved */
      by: string;
      /** the rule as written, when one decided */
      rule?: string;
      /**
       * true: the user's own exact allow rule (no wildcard) names this whole command. It stands in for a
       * person's yes given ahead of time: it may approve an unconfined run (dangerouslyDisableSandbox),
       * and where no sandbox exists it lets the command run unconfined.
       */
      exact?: boolean;
    };

/**
 * What an automatic approver answers to an ask instead of "once" (run --auto, a client's standing
 * approval): a yes that is recorded as automatic, so the command it approves runs confined.
 */
export interface AutomaticApproval {
  answer: "once";
  automatic: true;
  source: Extract<ApprovalSource, "auto" | "client">;
  by: string;
}

/**
 * An allow's provenance that a tap (the permissions extension) leaves on the call when it lets it
 * through without answering (so later taps still speak): which rule or mode allowed, and whether the
 * rule names the command exactly.
 */
export interface AllowHint {
  source: Extract<ApprovalSource, "rule" | "mode" | "default">;
  rule?: string;
  exact?: boolean;
}

/**
 * What a spawner hands the childProcess waterfall beside the spec: whose call it is and how it was
 * approved. `approval` absent (a spawn outside a tool call) counts as automatic: confined.
 */
export interface SpawnContext {
  sessionId: string;
  approval?: ToolApproval;
  /** the tool whose call spawns (bash, grep, ...) and the call's id */
  tool?: string;
  callId?: string;
  /**
   * the child is a configured program, not a tool's command: a hook handler, an MCP server. The sandbox
   * gives it a PID namespace (oceancode's processes invisible), not the confinement.
   */
  external?: boolean;
  /** the call asked to run outside the sandbox (bash's dangerouslyDisableSandbox) */
  unconfined?: boolean;
}

/**
 * The decision contract: turn one handler's raw result into a verdict, and fold several handlers'
 * verdicts into one. Exit 0 = success (stdout parsed as JSON when it starts with "{"), exit 2 = a
 * blocking error whose stderr is the reason, anything else = a non-blocking error. Everything but an
 * explicit deny fails open: a crash, a timeout or garbage output decides nothing.
 *
 * Output contract (Claude Code's): stdout that is not a valid JSON object is plain text, and plain text
 * becomes context only on exit 0 of UserPromptSubmit and SessionStart. Every text that reaches the model
 * (context, a deny or block reason) is capped at MAX_CONTEXT_CHARS with a marker saying what was cut;
 * stdout past the capture cap (MAX_OUTPUT) that opens like JSON is never read or injected cut.
 */
import type { HookDecision, HookEvent } from "./api.js";
import { MAX_OUTPUT, type RawResult } from "./run-handler.js";

/** Claude Code's cap on hook text that reaches the model (context, reasons). */
export const MAX_CONTEXT_CHARS = 10_000;

/** `text` as the model may see it: whole, or its first MAX_CONTEXT_CHARS and a marker naming the cut. */
export function capText(text: string, totalBytes?: number): string {
  const chars = [...text];
  if (chars.length <= MAX_CONTEXT_CHARS && totalBytes === undefined) return text;
  const total = totalBytes !== undefined ? `${totalBytes} bytes` : `${chars.length} characters`;
  return `${chars.slice(0, MAX_CONTEXT_CHARS).join("")}\n[hook output truncated: ${total}; the first ${Math.min(chars.length, MAX_CONTEXT_CHARS)} characters kept]`;
}

export interface Verdict {
  decision: HookDecision;
  /** deny / ask / block / continue reason, or what went wrong for error / timeout */
  reason?: string;
  /** context for the model (additionalContext, or plain stdout where Claude Code uses it) */
  context: string[];
  updatedInput?: Record<string, unknown>;
  /** shown to the user, never to the model */
  systemMessage?: string;
  /** `continue: false`: stop what this event started */
  stop?: { reason: string };
}

const PLAIN_STDOUT_IS_CONTEXT: ReadonlySet<HookEvent> = new Set(["UserPromptSubmit", "SessionStart"]);

function str(v: unknown): string | undefined {
  return typeof v === "string" && v.trim() !== "" ? v : undefined;
}
/** A non-empty string field, capped for the model. */
function capped(v: unknown): string | undefined {
  const s = str(v);
  return s === undefined ? undefined : capText(s);
}
function obj(v: unknown): Record<string, unknown> | undefined {
  return v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
}

function exit2(event: HookEvent, stderr: string): Verdict {
  const reason = capText(stderr.trim()) || `blocked by a ${event} hook`;
  switch (event) {
    case "PreToolUse":
      return { decision: "deny", reason, context: [] };
    case "UserPromptSubmit":
      return { decision: "block", reason, context: [] };
    case "PostToolUse":
    case "PostToolUseFailure":
      return { decision: "block", reason, context: [] };
    case "Stop":
    case "SubagentStop":
      // oceancode: an exit-2 Stop is a plain deny: the run settles and it does not count as a continuation
      return { decision: "deny", reason, context: [] };
    default:
      return { decision: "none", context: [], systemMessage: reason };
  }
}

function fromJson(event: HookEvent, out: Record<string, unknown>): Verdict {
  const v: Verdict = { decision: "none", context: [] };
  const sys = capped(out.systemMessage);
  if (sys) v.systemMessage = sys;
  const hso = obj(out.hookSpecificOutput);
  const ctx = capped(hso?.additionalContext);
  if (ctx) v.context.push(ctx);
  const reason = capped(out.reason);
  const stopReason = capped(out.stopReason);
  if (out.continue === false) v.stop = { reason: stopReason ?? reason ?? `stopped by a ${event} hook` };

  if (event === "PreToolUse") {
    const pd = hso?.permissionDecision;
    const pdr = capped(hso?.permissionDecisionReason);
    // Claude Code's older top-level form: decision "approve" | "block"
    const legacy = out.decision === "block" ? "deny" : out.decision === "approve" ? "allow" : undefined;
    const d = pd === "allow" || pd === "deny" || pd === "ask" || pd === "defer" ? pd : legacy;
    if (d) {
      v.decision = d;
      const r = pdr ?? reason;
      if (r) v.reason = r;
    }
    const ui = obj(hso?.updatedInput);
    if (ui) v.updatedInput = ui;
    if (v.stop && v.decision !== "deny") {
      v.decision = "deny";
      v.reason = v.stop.reason;
    }
    return v;
  }
  if (event === "Stop" || event === "SubagentStop") {
    if (v.stop) return v; // continue: false: let it stop
    if (out.decision === "block") {
      v.decision = "continue";
      v.reason = reason ?? stopReason ?? "a Stop hook asked to continue";
    } else if (stopReason) {
      v.decision = "continue";
      v.reason = stopReason;
    }
    return v;
  }
  if (out.decision === "block" || v.stop) {
    v.decision = "block";
    v.reason = reason ?? v.stop?.reason ?? `blocked by a ${event} hook`;
  } else if (v.context.length > 0) v.decision = "context";
  return v;
}

export function interpret(event: HookEvent, r: RawResult, kind: "command" | "http"): Verdict {
  if (r.timedOut) return { decision: "timeout", reason: r.error ?? "timed out", context: [] };
  if (r.exitCode === null || (kind === "http" && r.exitCode !== 0)) return { decision: "error", reason: r.error ?? "handler failed", context: [] };
  if (kind === "command" && r.exitCode === 2) return exit2(event, r.stderr);
  if (r.exitCode !== 0) {
    return { decision: "error", reason: `exit ${r.exitCode}${r.stderr.trim() ? `: ${r.stderr.trim().split("\n")[0]}` : ""}`, context: [] };
  }
  const text = r.stdout.trim();
  if (text === "") return { decision: "none", context: [] };
  const cut = r.stdoutBytes !== undefined;
  if (text.startsWith("{")) {
    // cut JSON is never parsed, and never injected as text either
    if (cut) return { decision: "error", reason: `stdout was ${r.stdoutBytes} bytes (over ${MAX_OUTPUT}); it was not read`, context: [] };
    let parsed: Record<string, unknown> | undefined;
    try {
      parsed = obj(JSON.parse(text));
    } catch {
      /* not JSON: plain text below */
    }
    if (parsed) return fromJson(event, parsed);
    if (kind === "http") return { decision: "error", reason: "response body is not a JSON object", context: [] };
    if (!PLAIN_STDOUT_IS_CONTEXT.has(event)) return { decision: "none", reason: "stdout is not valid JSON: read as plain text (not context for this event)", context: [] };
  }
  if (kind === "http") return { decision: "error", reason: "response body is not a JSON object", context: [] };
  if (PLAIN_STDOUT_IS_CONTEXT.has(event)) return { decision: "context", context: [capText(text, cut ? r.stdoutBytes : undefined)] };
  return { decision: "none", context: [] };
}

/** Several handlers' verdicts, folded: deny > defer > ask > allow; block and continue win over nothing. */
export interface Folded {
  decision: HookDecision;
  reasons: string[];
  context: string[];
  updatedInput?: Record<string, unknown>;
  systemMessages: string[];
  stop?: { reason: string };
}

const RANK: Partial<Record<HookDecision, number>> = { deny: 5, block: 5, defer: 4, continue: 4, ask: 3, allow: 2, context: 1 };

export function fold(verdicts: Verdict[]): Folded {
  const f: Folded = { decision: "none", reasons: [], context: [], systemMessages: [] };
  let best = 0;
  for (const v of verdicts) {
    f.context.push(...v.context);
    if (v.systemMessage) f.systemMessages.push(v.systemMessage);
    if (v.stop && !f.stop) f.stop = v.stop;
    const rank = RANK[v.decision] ?? 0;
    if (rank > best) {
      best = rank;
      f.decision = v.decision;
      f.reasons = [];
    }
    if (rank === best && rank > 1 && v.reason) f.reasons.push(v.reason);
    // the first handler (in source order) that rewrites the input wins; a deny discards it anyway
    if (v.updatedInput && !f.updatedInput && v.decision !== "deny") f.updatedInput = v.updatedInput;
  }
  return f;
}

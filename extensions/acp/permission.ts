/**
 * The engine's asks as session/request_permission: four options (allow once / always, reject once /
 * always), answered as the engine's Answer or a Rejection. A "reject always" is kept for the session in
 * this process (the permissions extension saves allow rules only), so the same call is rejected again
 * without asking. A cancelled outcome, or a turn cancelled while the question is open, is a reject.
 */
import type { PermissionOption, RequestPermissionRequest, RequestPermissionResponse, ToolCallUpdate } from "@agentclientprotocol/sdk";
import type { Answer, Question, Rejection } from "../engine/api.js";

export const PERMISSION_OPTIONS: PermissionOption[] = [
  { optionId: "allow_once", name: "Allow once", kind: "allow_once" },
  { optionId: "allow_always", name: "Always allow", kind: "allow_always" },
  { optionId: "reject_once", name: "Reject", kind: "reject_once" },
  { optionId: "reject_always", name: "Always reject", kind: "reject_always" },
];

/** Who the model is told rejected the call. */
const BY = "the editor's user (ACP)";

export interface PermissionDeps {
  /** send session/request_permission; rejects when the turn is cancelled (stop waiting) */
  request(params: RequestPermissionRequest, cancel: AbortSignal): Promise<RequestPermissionResponse>;
  /** the announced tool call this question is about (the engine asks after tool_call_start) */
  toolCall(q: Question): ToolCallUpdate;
  /** the session's "reject always" memory */
  rejectedAlways(sessionId: string): Set<string>;
}

/** What "reject always" remembers: the tool and its subject (the command, the path). */
function key(q: Question): string {
  return `${q.tool}\u0000${q.subject}`;
}

export async function askClient(q: Question, signal: AbortSignal, deps: PermissionDeps): Promise<Answer | Rejection> {
  const remembered = deps.rejectedAlways(q.sessionId);
  if (remembered.has(key(q))) return { answer: "reject", by: BY, reason: `rejected always for this session (${q.reason})` };
  if (signal.aborted) return { answer: "reject", by: BY, reason: "the turn was cancelled" };
  const toolCall = deps.toolCall(q);
  let res: RequestPermissionResponse;
  try {
    res = await deps.request({ sessionId: q.sessionId, toolCall, options: PERMISSION_OPTIONS }, signal);
  } catch (e) {
    // the turn was cancelled (stop waiting) or the connection closed: nobody approved it
    return { answer: "reject", by: BY, reason: signal.aborted ? "the turn was cancelled" : `no answer from the editor (${(e as Error).message})` };
  }
  if (res.outcome.outcome === "cancelled") return { answer: "reject", by: BY, reason: "the permission request was cancelled" };
  switch (res.outcome.optionId) {
    case "allow_once":
      return "once";
    case "allow_always":
      // saved as a rule by the permissions extension when the ask names one; else it acts as once
      return "always";
    case "reject_always":
      remembered.add(key(q));
      return "reject";
    default:
      return "reject";
  }
}

/**
 * session/update payloads: built from the engine's live events (a prompt) and from stored rows (a
 * session/load replay), so an editor shows a loaded session the way it saw it streamed.
 */
import type { SessionUpdate, ToolCallContent } from "@agentclientprotocol/sdk";
import type { Row, ToolCall, ToolResult } from "../engine/api.js";
import { toolKind, toolLocations, toolTitle } from "./map.js";

/** An editor shows result text; a very long one is cut (the model saw its own truncated copy). */
const RESULT_CHARS = 20_000;

export function textChunk(kind: "agent_message_chunk" | "user_message_chunk", text: string): SessionUpdate {
  return { sessionUpdate: kind, content: { type: "text", text } };
}

/** A tool call as announced: pending until it runs (an ask may come first). */
export function toolCallStart(call: ToolCall, cwd: string): SessionUpdate {
  return {
    sessionUpdate: "tool_call",
    toolCallId: call.id,
    title: toolTitle(call),
    kind: toolKind(call.name),
    status: "pending",
    locations: toolLocations(call, cwd),
    rawInput: call.input,
  };
}

export function toolCallRunning(callId: string): SessionUpdate {
  return { sessionUpdate: "tool_call_update", toolCallId: callId, status: "in_progress" };
}

function resultContent(result: ToolResult): ToolCallContent[] {
  const text = result.content.length > RESULT_CHARS ? `${result.content.slice(0, RESULT_CHARS)}\n[... ${result.content.length - RESULT_CHARS} more characters]` : result.content;
  return text ? [{ type: "content", content: { type: "text", text } }] : [];
}

/** The call's end: completed or failed, with the result text the model saw. */
export function toolCallEnd(result: ToolResult): SessionUpdate {
  return {
    sessionUpdate: "tool_call_update",
    toolCallId: result.callId,
    status: result.isError ? "failed" : "completed",
    content: resultContent(result),
    rawOutput: { content: result.content, isError: result.isError },
  };
}

/**
 * A stored history as the updates that replay it, in order: the user's text, the assistant's text, each
 * tool call announced then finished with its stored result. Notes (the engine's markers) are skipped.
 */
export function replayUpdates(rows: readonly Row[], cwd: string): SessionUpdate[] {
  const out: SessionUpdate[] = [];
  for (const r of rows) {
    switch (r.role) {
      case "user":
        if (r.text) out.push(textChunk("user_message_chunk", r.text));
        break;
      case "assistant":
        if (r.text) out.push(textChunk("agent_message_chunk", r.text));
        for (const c of r.toolCalls) out.push(toolCallStart(c, cwd));
        break;
      case "tool":
        for (const res of r.results) out.push(toolCallEnd(res));
        break;
      default:
        break;
    }
  }
  return out;
}

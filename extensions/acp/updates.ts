/**
 * session/update payloads: built from the engine's live events (a prompt) and from stored rows (a
 * session/load replay), so an editor shows a loaded session the way it saw it streamed.
 */
import fs from "node:fs";
import path from "node:path";
import type { SessionUpdate, ToolCallContent } from "@agentclientprotocol/sdk";
import type { Row, ToolCall, ToolResult } from "../engine/api.js";
import type { TodoList } from "../todos/api.js";
import { toolKind, toolLocations, toolTitle } from "./map.js";

/** An editor shows result text; a very long one is cut (the model saw its own truncated copy). */
const RESULT_CHARS = 20_000;

export function textChunk(kind: "agent_message_chunk" | "user_message_chunk", text: string): SessionUpdate {
  return { sessionUpdate: kind, content: { type: "text", text } };
}

/** A file larger than this is not read to show a write's diff (the new text alone is shown). */
const DIFF_READ_MAX = 1 << 20;

/**
 * What a write or edit will change, as ACP diff content, so the editor can show it (in the permission
 * prompt too). A write's old text is the file as it is now; an edit shows its two strings.
 */
export function diffContent(call: ToolCall, cwd: string): ToolCallContent[] {
  const i = call.input;
  if (typeof i.file_path !== "string" || !i.file_path || i.file_path.startsWith("@")) return [];
  const file = path.resolve(cwd, i.file_path);
  if (call.name === "edit" && typeof i.old_string === "string" && typeof i.new_string === "string") return [{ type: "diff", path: file, oldText: i.old_string, newText: i.new_string }];
  if (call.name === "write" && typeof i.content === "string") {
    let oldText: string | null = null;
    try {
      const st = fs.statSync(file);
      if (st.isFile() && st.size <= DIFF_READ_MAX) oldText = fs.readFileSync(file, "utf8");
    } catch {
      // a new file: no old text
    }
    return [{ type: "diff", path: file, oldText, newText: i.content }];
  }
  return [];
}

/** A tool call as announced: pending until it runs (an ask may come first), with what it will change. */
export function toolCallStart(call: ToolCall, cwd: string, content: ToolCallContent[] = []): SessionUpdate {
  return {
    sessionUpdate: "tool_call",
    toolCallId: call.id,
    title: toolTitle(call),
    kind: toolKind(call.name),
    status: "pending",
    locations: toolLocations(call, cwd),
    rawInput: call.input,
    ...(content.length ? { content } : {}),
  };
}

export function toolCallRunning(callId: string): SessionUpdate {
  return { sessionUpdate: "tool_call_update", toolCallId: callId, status: "in_progress" };
}

function resultContent(result: ToolResult): ToolCallContent[] {
  const text = result.content.length > RESULT_CHARS ? `${result.content.slice(0, RESULT_CHARS)}\n[... ${result.content.length - RESULT_CHARS} more characters]` : result.content;
  return text ? [{ type: "content", content: { type: "text", text } }] : [];
}

/**
 * The call's end: completed or failed, with the result text the model saw. An update's content replaces the
 * call's, so what it showed is kept: the editor's terminal always, a diff when the change was made.
 */
export function toolCallEnd(result: ToolResult, shown: ToolCallContent[] = []): SessionUpdate {
  const kept = shown.filter((c) => c.type === "terminal" || (c.type === "diff" && !result.isError));
  return {
    sessionUpdate: "tool_call_update",
    toolCallId: result.callId,
    status: result.isError ? "failed" : "completed",
    content: [...kept, ...resultContent(result)],
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
        // no diff: the file has changed since
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

/**
 * The todo list as an ACP `plan` update (the whole plan each time: the client replaces its view). ACP has
 * pending / in_progress / completed: a cancelled row is sent completed, its text marked "(cancelled)". The
 * always-plan floor (the prompt, before the model planned) is no plan: an empty one is sent.
 */
export function planUpdate(list: TodoList): SessionUpdate {
  const items = list.floor ? [] : list.items;
  return {
    sessionUpdate: "plan",
    entries: items.map((i) => ({
      content: i.status === "cancelled" ? `${i.content} (cancelled)` : i.content,
      priority: "medium",
      status: i.status === "cancelled" ? "completed" : i.status,
    })),
  };
}

/**
 * Pure mappings between oceancode's engine shapes and ACP's: tool kinds and titles, file locations,
 * stop reasons, permission modes, and a prompt's content blocks to the text the engine takes.
 */
import path from "node:path";
import type { ContentBlock, SessionModeState, StopReason, ToolCallLocation, ToolKind } from "@agentclientprotocol/sdk";
import type { ToolCall, TurnEndReason } from "../engine/api.js";
import type { PermissionMode } from "../permissions/api.js";

/** ACP's tool kind for an oceancode tool name (the editor picks an icon and a presentation from it). */
export function toolKind(name: string): ToolKind {
  switch (name) {
    case "read":
    case "ls":
      return "read";
    case "write":
    case "edit":
      return "edit";
    case "bash":
      return "execute";
    case "grep":
    case "glob":
      return "search";
    case "fetch":
    case "web_fetch":
      return "fetch";
    default:
      return "other";
  }
}

/** The input fields that name a file or directory, in the order tools use them. */
const PATH_KEYS = ["file_path", "path", "filePath", "notebook_path"] as const;

/** Where a call acts (absolute paths resolved against the session's cwd), for the editor's "follow along". */
export function toolLocations(call: ToolCall, cwd: string): ToolCallLocation[] {
  const out: ToolCallLocation[] = [];
  for (const k of PATH_KEYS) {
    const v = call.input[k];
    // @ref/path names a configured reference directory, resolved only by the tool: not a location here
    if (typeof v === "string" && v && !v.startsWith("@")) {
      const loc: ToolCallLocation = { path: path.resolve(cwd, v) };
      const line = call.input.offset;
      if (call.name === "read" && typeof line === "number" && line >= 1) loc.line = line;
      out.push(loc);
    }
  }
  return out;
}

/** One line saying what a call does: "bash: npm test", "read: src/a.ts", "grep: TODO". */
export function toolTitle(call: ToolCall): string {
  const i = call.input;
  const subject = [i.command, i.file_path, i.path, i.pattern, i.url, i.query].find((v): v is string => typeof v === "string" && v.length > 0);
  const one = subject?.split("\n")[0] ?? "";
  return one ? `${call.name}: ${one.length > 120 ? `${one.slice(0, 117)}...` : one}` : call.name;
}

/**
 * The engine's end of a turn as ACP's stopReason. An error or a blocked prompt has no stop reason of its
 * own: the prompt request fails with a JSON-RPC error instead (see prompt.ts), so those map to end_turn here.
 */
export function stopReason(reason: TurnEndReason): StopReason {
  switch (reason) {
    case "aborted":
      return "cancelled";
    case "max_tokens":
      return "max_tokens";
    case "step_cap":
      return "max_turn_requests";
    default:
      return "end_turn";
  }
}

/** The permission modes an editor may switch between (the permission mode plan is offered as the plan agent, below). */
export const MODES: ReadonlyArray<{ id: PermissionMode; name: string; description: string }> = [
  { id: "default", name: "Default", description: "ask before edits and commands the rules do not allow" },
  { id: "acceptEdits", name: "Accept edits", description: "file edits in the project run without asking" },
  { id: "dontAsk", name: "Don't ask", description: "what would ask is denied instead" },
  { id: "bypassPermissions", name: "Bypass permissions", description: "everything runs without asking (the shell guard's floors still hold)" },
];

/** The plan agent (the plan-mode extension, docs/plan-mode.md), offered as one more mode when it is enabled. */
export const PLAN_MODE = {
  id: "plan",
  name: "Plan",
  description: "the read-only plan agent: reads and searches, writes plans under .oceancode/plans/; plan_exit asks to switch to the build agent",
} as const;

export function modeState(current: string, opts: { plan?: boolean } = {}): SessionModeState {
  const modes: Array<{ id: string; name: string; description: string }> = MODES.map((m) => ({ id: m.id, name: m.name, description: m.description }));
  if (opts.plan) modes.push({ ...PLAN_MODE });
  // a session configured into plan mode (permission_mode) shows it, so the current id is always one listed
  if (!modes.some((m) => m.id === current)) modes.push({ id: current, name: current, description: "set by configuration" });
  return { currentModeId: current, availableModes: modes };
}

/**
 * A prompt's content blocks as the one text the engine takes: text as is, embedded resources and links as
 * tagged context the model can read (images and audio are not offered in promptCapabilities, so they are
 * named, not sent).
 */
export function promptText(blocks: ContentBlock[]): string {
  const parts: string[] = [];
  for (const b of blocks) {
    switch (b.type) {
      case "text":
        parts.push(b.text);
        break;
      case "resource_link":
        parts.push(`@${uriPath(b.uri)}`);
        break;
      case "resource": {
        const r = b.resource;
        if ("text" in r) parts.push(`<context uri="${r.uri}">\n${r.text}\n</context>`);
        else parts.push(`[binary resource ${r.uri} not included]`);
        break;
      }
      default:
        parts.push(`[${b.type} content not supported]`);
    }
  }
  return parts.join("\n\n");
}

/** A file: URI as a path (other URIs as they are). */
function uriPath(uri: string): string {
  if (!uri.startsWith("file://")) return uri;
  try {
    return decodeURIComponent(new URL(uri).pathname);
  } catch {
    return uri;
  }
}

/**
 * The keys and types scripts read from Claude Code's `-p` output (from the recorded shapes in
 * /work/shared/notes/claude-print-formats.md), for comparing oceancode's lines field by field.
 */
import { expect } from "vitest";

type Kind = "string" | "number" | "boolean" | "array" | "object" | "null" | "string|null";

function kindOf(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  return typeof v;
}

/** Every key present with the type Claude Code gives it. */
export function expectShape(obj: unknown, shape: Record<string, Kind>, what: string): void {
  expect(kindOf(obj), what).toBe("object");
  const o = obj as Record<string, unknown>;
  for (const [k, kind] of Object.entries(shape)) {
    expect(Object.hasOwn(o, k), `${what}: key ${k}`).toBe(true);
    const got = kindOf(o[k]);
    if (kind === "string|null") expect(["string", "null"], `${what}.${k}`).toContain(got);
    else expect(got, `${what}.${k}`).toBe(kind);
  }
}

export const INIT: Record<string, Kind> = {
  type: "string",
  subtype: "string",
  cwd: "string",
  session_id: "string",
  tools: "array",
  mcp_servers: "array",
  model: "string",
  permissionMode: "string",
  slash_commands: "array",
  apiKeySource: "string",
  claude_code_version: "string",
  uuid: "string",
};
export const ASSISTANT: Record<string, Kind> = { type: "string", message: "object", parent_tool_use_id: "null", session_id: "string", uuid: "string", timestamp: "string" };
export const ASSISTANT_MESSAGE: Record<string, Kind> = { id: "string", type: "string", role: "string", model: "string", content: "array", stop_reason: "string|null", usage: "object" };
export const USER: Record<string, Kind> = { type: "string", message: "object", parent_tool_use_id: "null", session_id: "string", uuid: "string", timestamp: "string", tool_use_result: "object" };
export const USAGE: Record<string, Kind> = { input_tokens: "number", output_tokens: "number", cache_read_input_tokens: "number", cache_creation_input_tokens: "number" };
export const RESULT: Record<string, Kind> = {
  type: "string",
  subtype: "string",
  is_error: "boolean",
  result: "string",
  session_id: "string",
  total_cost_usd: "number",
  usage: "object",
  num_turns: "number",
  duration_ms: "number",
  duration_api_ms: "number",
  stop_reason: "string|null",
  permission_denials: "array",
  modelUsage: "object",
  uuid: "string",
};

export type Line = Record<string, unknown> & { type: string };

/** stdout of a stream-json run: one JSON object per line, every line parsed. */
export function lines(stdout: string): Line[] {
  return stdout
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as Line);
}

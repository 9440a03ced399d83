/** The ACP host's pure mappings: tool kinds, titles and locations, stop reasons, prompt blocks, the history replay. */
import { describe, expect, it } from "vitest";
import { modeState, promptText, stopReason, toolKind, toolLocations, toolTitle } from "../map.js";
import { replayUpdates } from "../updates.js";
import type { Row } from "../../engine/api.js";

describe("acp mappings", () => {
  it("tool names map to ACP kinds", () => {
    const kinds = Object.fromEntries(["read", "write", "edit", "bash", "grep", "glob", "fetch", "mcp__gh__issue", "agent"].map((n) => [n, toolKind(n)]));
    expect(kinds).toEqual({ read: "read", write: "edit", edit: "edit", bash: "execute", grep: "search", glob: "search", fetch: "fetch", mcp__gh__issue: "other", agent: "other" });
  });

  it("locations are absolute file paths from the input (a read's offset as its line); @refs are not locations", () => {
    expect(toolLocations({ id: "1", name: "read", input: { file_path: "src/a.ts", offset: 40 } }, "/p")).toEqual([{ path: "/p/src/a.ts", line: 40 }]);
    expect(toolLocations({ id: "2", name: "write", input: { file_path: "/abs/b.ts", content: "" } }, "/p")).toEqual([{ path: "/abs/b.ts" }]);
    expect(toolLocations({ id: "3", name: "read", input: { file_path: "@docs/x.md" } }, "/p")).toEqual([]);
    expect(toolLocations({ id: "4", name: "bash", input: { command: "ls" } }, "/p")).toEqual([]);
  });

  it("titles name the tool and its first subject line", () => {
    expect(toolTitle({ id: "1", name: "bash", input: { command: "npm test\necho done" } })).toBe("bash: npm test");
    expect(toolTitle({ id: "2", name: "job_output", input: {} })).toBe("job_output");
  });

  it("modes: the four permission modes; a configured plan mode is listed so the current id is always offered", () => {
    expect(modeState("acceptEdits")).toMatchObject({ currentModeId: "acceptEdits" });
    expect(modeState("default").availableModes.map((m) => m.id)).toEqual(["default", "acceptEdits", "dontAsk", "bypassPermissions"]);
    expect(modeState("plan").availableModes.map((m) => m.id)).toEqual(["default", "acceptEdits", "dontAsk", "bypassPermissions", "plan"]);
    // with the plan-mode extension, "plan" is the plan agent, listed once
    const withPlan = modeState("plan", { plan: true });
    expect(withPlan.availableModes.map((m) => m.id)).toEqual(["default", "acceptEdits", "dontAsk", "bypassPermissions", "plan"]);
    expect(withPlan.availableModes.at(-1)!.name).toBe("Plan");
  });

  it("turn end reasons map to stop reasons", () => {
    expect([stopReason("end_turn"), stopReason("max_tokens"), stopReason("step_cap"), stopReason("aborted")]).toEqual(["end_turn", "max_tokens", "max_turn_requests", "cancelled"]);
  });

  it("prompt blocks become one text: embedded resources as context, links as @paths", () => {
    const text = promptText([
      { type: "text", text: "explain" },
      { type: "resource_link", name: "a.ts", uri: "file:///p/a%20b.ts" },
      { type: "resource", resource: { uri: "file:///p/c.ts", text: "const c = 1;" } },
      { type: "image", data: "AAAA", mimeType: "image/png" },
    ]);
    expect(text).toBe('explain\n\n@/p/a b.ts\n\n<context uri="file:///p/c.ts">\nconst c = 1;\n</context>\n\n[image content not supported]');
  });

  it("a stored history replays as user text, agent text, tool call and its end; notes are skipped", () => {
    const base = { turn: 1, step: 1, at: 0 };
    const rows: Row[] = [
      { ...base, seq: 1, role: "user", text: "hi" },
      { ...base, seq: 2, role: "assistant", text: "looking", toolCalls: [{ id: "t1", name: "bash", input: { command: "ls" } }] },
      { ...base, seq: 3, role: "tool", results: [{ callId: "t1", name: "bash", content: "a.txt\nexit code: 0", isError: false }] },
      { ...base, seq: 4, role: "note", text: "[interrupted]", kind: "interrupted" },
    ];
    const ups = replayUpdates(rows, "/p");
    expect(ups.map((u) => u.sessionUpdate)).toEqual(["user_message_chunk", "agent_message_chunk", "tool_call", "tool_call_update"]);
    expect(ups[2]).toMatchObject({ toolCallId: "t1", kind: "execute", title: "bash: ls" });
    expect(ups[3]).toMatchObject({ toolCallId: "t1", status: "completed" });
  });
});

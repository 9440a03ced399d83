/**
 * Which hook events a sub-agent's session fires, end to end through `run` against the fake Anthropic
 * server: as in Claude Code, a child fires the tool events and SubagentStop, never SessionStart,
 * UserPromptSubmit, Stop or SessionEnd of its own; the parent fires all of those once.
 */
import path from "node:path";
import { describe, expect, it } from "vitest";
import { hasToolResult, isParent } from "../../agents/test/helpers.js";
import { lines } from "./fixtures.js";
import { runOnceOnFake } from "../../../test/kit/file-fixtures.js";

const EVENTS = ["SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "Stop", "SubagentStop", "SessionEnd"];

let log: string;

const { fake, result } = runOnceOnFake("oc-hooks-subagent-", ["--auto", "--model", "anthropic/claude-sonnet-4-5", "delegate it"], (sb, fake) => {
  let parentTurn = 0;
  fake.respond((req) => {
    if (!isParent(req)) {
      return hasToolResult(req) ? { text: "CHILD DONE" } : { text: "reading", toolCalls: [{ id: "toolu_child_read", name: "read", input: { file_path: "notes.txt" } }] };
    }
    return parentTurn++ === 0
      ? { text: "delegating", toolCalls: [{ id: "toolu_agent", name: "agent", input: { subagent_type: "general-purpose", description: "read", prompt: "Read notes.txt." } }] }
      : { text: "parent done" };
  });
  log = path.join(sb.home, "events.jsonl");
  sb.write("notes.txt", "some notes\n");
  const handler = { type: "command", command: `cat >> '${log}'; echo >> '${log}'` };
  sb.write(".oceancode/settings.json", JSON.stringify({ hooks: Object.fromEntries(EVENTS.map((e) => [e, [{ hooks: [handler] }]])) }), "home");
});

type Payload = { hook_event_name: string; session_id: string; tool_name?: string; prompt_id?: string };
const payloads = () => lines(log).map((l) => JSON.parse(l) as Payload);

describe("hook events of a sub-agent's session", () => {
  it("the run ends normally", () => {
    expect(result.code, result.stderr).toBe(0);
  });

  it("the parent fires SessionStart, UserPromptSubmit, Stop and SessionEnd once each; the child none of them", () => {
    const all = payloads();
    const parentId = all.find((p) => p.hook_event_name === "SessionStart")?.session_id;
    expect(parentId).toBeTruthy();
    for (const e of ["SessionStart", "UserPromptSubmit", "Stop", "SessionEnd"]) {
      const hits = all.filter((p) => p.hook_event_name === e);
      expect(hits.map((p) => p.session_id), e).toEqual([parentId]);
    }
  });

  it("the child fires the tool events and SubagentStop, under its own session id", () => {
    const all = payloads();
    const parentId = all.find((p) => p.hook_event_name === "SessionStart")!.session_id;
    const childRead = all.filter((p) => p.tool_name === "Read");
    expect(childRead.map((p) => p.hook_event_name)).toEqual(["PreToolUse", "PostToolUse"]);
    const childId = childRead[0]!.session_id;
    expect(childId).not.toBe(parentId);
    expect(all.filter((p) => p.hook_event_name === "SubagentStop").map((p) => p.session_id)).toEqual([childId]);
    expect(all.filter((p) => p.session_id === childId).map((p) => p.hook_event_name)).toEqual(["PreToolUse", "PostToolUse", "SubagentStop"]);
  });

  it("#47 every hook of the one user prompt carries its prompt_id, the sub-agent's too (SessionStart comes before any prompt)", () => {
    const all = payloads();
    const promptId = all.find((p) => p.hook_event_name === "UserPromptSubmit")?.prompt_id;
    expect(promptId).toMatch(/^[0-9a-f-]{36}$/);
    expect(all.find((p) => p.hook_event_name === "SessionStart")?.prompt_id).toBeUndefined();
    const rest = all.filter((p) => p.hook_event_name !== "SessionStart");
    expect(rest.length).toBeGreaterThanOrEqual(7);
    for (const p of rest) expect(p.prompt_id, `${p.hook_event_name} ${p.tool_name ?? ""}`).toBe(promptId);
  });
});

/**
 * The two engine additions MCP needs: a tool result's images reach Anthropic as image blocks inside the
 * tool_result, and a manifest may declare a tool family (`mcp__*`) so run-time MCP tools register quietly.
 */
import { describe, expect, it } from "vitest";
import { toMessages } from "../../anthropic/messages.js";
import type { Row, ToolDefinition } from "../../engine/api.js";
import { Tools } from "../../engine/registries.js";

describe("tool result images", () => {
  it("become image blocks after the text in the tool_result; an unsupported type is named", () => {
    const rows: Row[] = [
      { role: "user", text: "hi", seq: 1, turn: 1, step: 0, at: 0 },
      { role: "assistant", text: "", toolCalls: [{ id: "c1", name: "mcp__s__img", input: {} }], seq: 2, turn: 1, step: 1, at: 0 },
      {
        role: "tool",
        results: [{ callId: "c1", name: "mcp__s__img", content: "", isError: false, images: [{ mediaType: "image/png", data: "QQ==" }, { mediaType: "image/bmp", data: "QQ==" }] }],
        seq: 3,
        turn: 1,
        step: 1,
        at: 0,
      },
    ];
    const msgs = toMessages(rows);
    const result = (msgs[2]!.content as Array<{ type: string; content?: unknown }>).find((b) => b.type === "tool_result")!;
    expect(result.content).toEqual([
      { type: "text", text: "(no output)" },
      { type: "image", source: { type: "base64", media_type: "image/png", data: "QQ==" } },
      { type: "text", text: "[an image of type image/bmp was returned; this provider takes jpeg, png, gif or webp]" },
    ]);
  });
});

describe("tool families", () => {
  it("a declared mcp__* covers every mcp__ tool; the family itself is never reported unregistered", () => {
    const warnings: string[] = [];
    const tools = new Tools(new Map([["mcp__*", "mcp"]]), (m) => warnings.push(m));
    const def = (name: string): ToolDefinition => ({ name, description: "", inputSchema: {}, kind: "other", run: async () => ({ content: "" }) });
    tools.register(def("mcp__a__b"), "mcp");
    tools.register(def("other"), "x");
    tools.checkDeclared();
    expect(warnings).toEqual(["extension 'x' registered tool 'other', which no manifest declares in contributes.tools"]);
  });
});

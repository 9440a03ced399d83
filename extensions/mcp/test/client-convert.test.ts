/** Unit: MCP tool results -> ToolOutput (every content type kept), and tool names in Claude Code's charset. */
import { describe, expect, it } from "vitest";
import { toToolOutput } from "../client/convert.js";
import { mcpToolName, sanitizePart } from "../client/names.js";

describe("toToolOutput", () => {
  it("keeps text, images (as images), embedded resources (their text) and resource links", () => {
    const out = toToolOutput({
      content: [
        { type: "text", text: "hello" },
        { type: "image", data: "AAAA", mimeType: "image/png" },
        { type: "resource", resource: { uri: "file:///a.txt", text: "body" } },
        { type: "resource", resource: { uri: "file:///b.bin", blob: "AAAAAAAA", mimeType: "application/octet-stream" } },
        { type: "resource_link", uri: "file:///c", name: "c" },
      ],
    });
    expect(out.content).toBe("hello\n[resource file:///a.txt]\nbody\n[resource file:///b.bin: application/octet-stream, 6 bytes, not shown]\n[resource link c file:///c]");
    expect(out.images).toEqual([{ mediaType: "image/png", data: "AAAA" }]);
    expect(out.isError).toBeUndefined();
  });
  it("structuredContent becomes JSON text when there is no text; ignored beside text", () => {
    expect(toToolOutput({ content: [], structuredContent: { t: 21 } }).content).toBe('{"t":21}');
    expect(toToolOutput({ content: [{ type: "text", text: "x" }], structuredContent: { t: 21 } }).content).toBe("x");
  });
  it("isError stays an error; an empty result says so", () => {
    expect(toToolOutput({ content: [{ type: "text", text: "bad" }], isError: true })).toEqual({ content: "bad", isError: true });
    expect(toToolOutput({ content: [] }).content).toBe("(no content)");
  });
  it("an image-only result has empty text and the image", () => {
    const out = toToolOutput({ content: [{ type: "image", data: "QQ==", mimeType: "image/jpeg" }] });
    expect(out).toEqual({ content: "", images: [{ mediaType: "image/jpeg", data: "QQ==" }] });
  });
});

describe("tool names", () => {
  it("mcp__<server>__<tool> with anything outside [A-Za-z0-9_-] replaced", () => {
    expect(mcpToolName("everything", "get-sum")).toBe("mcp__everything__get-sum");
    expect(mcpToolName("my server.v2", "read/file")).toBe("mcp__my_server_v2__read_file");
    expect(sanitizePart("")).toBe("_");
  });
  it("names past 64 characters are cut and end in a hash (distinct, stable, in the charset)", () => {
    const a = mcpToolName("a-very-long-server-name-indeed", "an-even-longer-tool-name-that-goes-on-and-on-1");
    const b = mcpToolName("a-very-long-server-name-indeed", "an-even-longer-tool-name-that-goes-on-and-on-2");
    expect(a.length).toBe(64);
    expect(a).not.toBe(b);
    expect(a).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
    expect(mcpToolName("a-very-long-server-name-indeed", "an-even-longer-tool-name-that-goes-on-and-on-1")).toBe(a);
  });
});

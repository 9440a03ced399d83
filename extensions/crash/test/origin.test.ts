/** The pure parts of a crash report: which extension a stack comes from, and which rows end a turn (redaction is the shared redactor's, extensions/obs/test/redact.test.ts). */
import { describe, expect, it } from "vitest";
import { extensionOf, stackFiles } from "../origin.js";
import { endsTurn } from "../../storage/kit.js";

const dirs = [
  { id: "boom", dir: "/home/me/.oceancode/extensions/boom" },
  { id: "boom-two", dir: "/home/me/.oceancode/extensions/boom-two" },
  { id: "ledger", dir: "/opt/oceancode/extensions/ledger" },
];

describe("extensionOf", () => {
  it("the first frame inside an extension's folder names it; node internals and shared chunks are skipped", () => {
    const stack = [
      "Error: x",
      "    at listOnTimeout (node:internal/timers:581:17)",
      "    at f (file:///opt/oceancode/dist/chunks/chunk-ABC.js:3:9)",
      "    at Timeout.boom [as _onTimeout] (file:///home/me/.oceancode/extensions/boom-two/index.js:1:71)",
      "    at /home/me/.oceancode/extensions/boom/index.js:2:2",
    ].join("\n");
    expect(stackFiles(stack)).toEqual(["/opt/oceancode/dist/chunks/chunk-ABC.js", "/home/me/.oceancode/extensions/boom-two/index.js", "/home/me/.oceancode/extensions/boom/index.js"]);
    expect(extensionOf(stack, dirs)).toBe("boom-two"); // not "boom": a folder is matched whole
  });

  it("a bundled extension runs from dist/extensions/<id>/", () => {
    expect(extensionOf("Error: y\n    at async g (file:///opt/oceancode/dist/extensions/ledger/index.js:10:1)", dirs)).toBe("ledger");
    expect(extensionOf("Error: y\n    at g (file:///opt/oceancode/dist/extensions/unknown/index.js:10:1)", dirs)).toBeUndefined();
    expect(extensionOf("", dirs)).toBeUndefined();
  });
});

describe("endsTurn", () => {
  it("an answer without tool calls and a closing note end a turn; a tool call, its results, a prompt and a continuation do not", () => {
    expect(endsTurn("assistant", JSON.stringify({ text: "done", toolCalls: [] }))).toBe(true);
    expect(endsTurn("assistant", JSON.stringify({ text: "", toolCalls: [{ id: "1", name: "bash", input: {} }] }))).toBe(false);
    expect(endsTurn("tool", JSON.stringify({ results: [] }))).toBe(false);
    expect(endsTurn("user", JSON.stringify({ text: "hi" }))).toBe(false);
    expect(endsTurn("note", JSON.stringify({ kind: "interrupted", text: "[interrupted by the user: the turn stopped here, before it finished]" }))).toBe(true);
    expect(endsTurn("note", JSON.stringify({ text: "[stopped by budget bound: spent]" }))).toBe(true);
    expect(endsTurn("note", JSON.stringify({ text: "[continued by hooks] keep going" }))).toBe(false);
    expect(endsTurn("note", JSON.stringify({ text: "[step cap 50 reached: continuing the same work in a fresh turn]" }))).toBe(false);
    expect(endsTurn("assistant", "{not json")).toBe(false);
  });
});

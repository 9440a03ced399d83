/**
 * The todo_write tool against the tool conformance suite, and the two readers of a model's list: the
 * tool's input (lenient: Claude Code's and OpenCode's shapes, status spellings) and the ```todo block.
 */
import { describe, expect, it } from "vitest";
import { describeToolContract } from "../../engine/testing/index.js";
import { createTodoTool } from "../tool.js";
import { floorText, parseTodoBlock, parseToolInput } from "../parse.js";
import { renderTodoLines, readStoredTodos } from "../kit.js";

describeToolContract("todo_write (bundled)", () => ({
  tool: createTodoTool((sessionId, _o, items) => ({ sessionId, items: items.map((i) => ({ ...i, by: "model" as const })), floor: false, planned: true, version: 1 })),
  input: { todos: [{ content: "Run the tests", status: "in_progress", activeForm: "Running the tests" }] },
  invalidInput: { todos: "not a list" },
  expectContent: (c) => expect(c).toBe("Todo list updated (1 item, 1 open):\n- [~] Run the tests"),
}));

describe("reading a model's list", () => {
  it("the tool's input: Claude Code's TodoWrite, OpenCode's todowrite (id, priority ignored), status spellings, a missing status", () => {
    expect(parseToolInput({ todos: [{ content: "a", status: "completed", activeForm: "Doing a" }, { id: "2", content: "b", status: "in-progress", priority: "high" }, { content: "c" }, { title: "d", status: "Canceled" }, "e"] })).toEqual({
      items: [
        { content: "a", status: "completed", activeForm: "Doing a" },
        { content: "b", status: "in_progress" },
        { content: "c", status: "pending" },
        { content: "d", status: "cancelled" },
        { content: "e", status: "pending" },
      ],
    });
    expect(parseToolInput({ todos: JSON.stringify([{ content: "x", status: "done" }]) })).toEqual({ items: [{ content: "x", status: "completed" }] });
    expect(parseToolInput({ todos: [{ content: "x", status: "later" }] })).toEqual({ error: "todos[0].status 'later' is not one of pending, in_progress, completed, cancelled" });
    expect(parseToolInput({ todos: [{ status: "pending" }] })).toEqual({ error: "todos[0] has no content" });
    expect(parseToolInput({})).toEqual({ error: "todos must be an array of {content, status, activeForm}" });
    expect(parseToolInput({ todos: [] })).toEqual({ items: [] });
  });

  it("a ```todo block: the newest complete one wins; marks, bullets and other lines; an unclosed block is none", () => {
    const text = "first\n```todo\n- [ ] old\n```\nthen\n```todo\n- [ ] one\n* [~] two\n1. [x] three\n- [-] four\n- [X] five\n- [>] six\nnot a row\n```\n";
    expect(parseTodoBlock(text)).toEqual([
      { content: "one", status: "pending" },
      { content: "two", status: "in_progress" },
      { content: "three", status: "completed" },
      { content: "four", status: "cancelled" },
      { content: "five", status: "completed" },
      { content: "six", status: "in_progress" },
    ]);
    expect(parseTodoBlock("```todo\n- [ ] still streaming")).toBeUndefined();
    expect(parseTodoBlock("```ts\n- [ ] code, not a plan\n```")).toBeUndefined();
    expect(parseTodoBlock("no block")).toBeUndefined();
    expect(parseTodoBlock("```todo\n```")).toEqual([]);
    // the block's own format round-trips
    expect(parseTodoBlock(`\`\`\`todo\n${renderTodoLines([{ content: "a", status: "in_progress" }, { content: "b", status: "cancelled" }]).join("\n")}\n\`\`\``)).toEqual([
      { content: "a", status: "in_progress" },
      { content: "b", status: "cancelled" },
    ]);
  });

  it("the floor's text is the prompt's first line, cut; the stored list is read back checked", () => {
    expect(floorText("\n  fix the login bug\nand add a test")).toBe("fix the login bug");
    expect(floorText("x".repeat(300))).toHaveLength(120);
    expect(readStoredTodos({ todos: { items: [{ content: "a", status: "pending", by: "user" }, { content: 3, status: "pending" }, { content: "b", status: "weird" }], floor: false, planned: true } })).toEqual({
      items: [{ content: "a", status: "pending", by: "user" }],
      floor: false,
      planned: true,
    });
    expect(readStoredTodos({})).toBeUndefined();
  });
});

/** The `todo_write` tool (Claude Code's TodoWrite): the model's whole list, written at once. */
import type { ToolDefinition } from "../engine/api.js";
import { TODO_TOOL, TODO_TOOL_CLAUDE_NAME, type TodoList } from "./api.js";
import { renderTodoLines } from "./kit/shared.js";
import { parseToolInput, type ParsedItem } from "./parse.js";
import type { SessionOverrides } from "../engine/api.js";

export const TODO_RULE =
  "Use a todo list for work with three or more distinct steps (not for a single edit, one command or a plain question). Keep exactly one item in_progress at a time; mark an item completed as soon as it is done, cancelled when it is no longer needed, and add steps you discover.";

export const TOOL_DESCRIPTION =
  `Write your todo list for this task: the whole list each time (it replaces the previous one). ${TODO_RULE} ` +
  "Each item: content (imperative, e.g. \"Run the tests\"), status (pending, in_progress, completed or cancelled) and activeForm (present continuous, e.g. \"Running the tests\"). " +
  "A turn that ends while items are still pending or in progress is continued, so keep the statuses true.";

export function createTodoTool(write: (sessionId: string, overrides: SessionOverrides, items: ParsedItem[]) => TodoList): ToolDefinition {
  return {
    name: TODO_TOOL,
    claudeName: TODO_TOOL_CLAUDE_NAME,
    kind: "other",
    description: TOOL_DESCRIPTION,
    inputSchema: {
      type: "object",
      properties: {
        todos: {
          type: "array",
          description: "the complete list, in order",
          items: {
            type: "object",
            properties: {
              content: { type: "string", minLength: 1, description: "what to do, imperative" },
              status: { type: "string", enum: ["pending", "in_progress", "completed", "cancelled"] },
              activeForm: { type: "string", description: "present continuous form shown while in progress" },
            },
            required: ["content", "status"],
          },
        },
      },
      required: ["todos"],
    },
    ruleSubject: () => "todos",
    async run(input, ctx) {
      const parsed = parseToolInput(input);
      if ("error" in parsed) return { content: `todo_write: ${parsed.error}`, isError: true };
      const list = write(ctx.session.id, ctx.session.overrides, parsed.items);
      const active = list.items.filter((i) => i.status === "in_progress").length;
      const open = list.items.filter((i) => i.status === "pending" || i.status === "in_progress").length;
      const lines = renderTodoLines(list.items);
      const warn = active > 1 ? `\nNote: ${active} items are in_progress; keep one in progress at a time.` : "";
      return {
        content: `Todo list updated (${list.items.length} item${list.items.length === 1 ? "" : "s"}, ${open} open):\n${lines.join("\n") || "(empty)"}${warn}`,
        metadata: { items: list.items.length, open, version: list.version },
      };
    },
  };
}

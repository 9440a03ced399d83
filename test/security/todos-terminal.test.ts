/**
 * A prompt-injected model writes its todo list with terminal sequences (title, clipboard, cursor moves,
 * bidi overrides) and a multi-line row: the pager's todos pane shows them as visible stand-ins on one
 * line; nothing a terminal could act on reaches it.
 */
import { describe, expect, it } from "vitest";
import { paneList, todosStatus } from "../../hosts/pager/todos-pane.js";
import type { TodoList } from "../../extensions/todos/api.js";

const ESC = "\x1b";
const ACTIVE = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

describe("todos pane: the model's text is display-safe", () => {
  it("escape sequences, C1 controls, bidi overrides and newlines in rows become visible stand-ins on one line", () => {
    const list: TodoList = {
      sessionId: "ses_x",
      floor: false,
      planned: true,
      version: 3,
      items: [
        { content: `title ${ESC}]0;PWNED\x07 clip ${ESC}]52;c;SU5K\x07`, status: "pending", by: "model" },
        { content: "unused", activeForm: `moving ${ESC}[2J${ESC}[H and \u009b2J`, status: "in_progress", by: "model" },
        { content: `bidi \u202eevil\u202c\nsecond line`, status: "completed", by: "user" },
      ],
    };
    const pane = paneList(list);
    expect(pane.rows).toHaveLength(3);
    for (const r of pane.rows) {
      expect(r.text).not.toMatch(ACTIVE);
      expect(r.text).not.toContain("\n");
    }
    expect(pane.rows[0]!.text).toContain("␛]0;PWNED");
    expect(pane.rows[1]!.text).toContain("␛[2J");
    expect(pane.rows[2]!.text).toContain("<U+202E>evil");
    expect(todosStatus(pane)).toBe("todos 1/3");
  });
});

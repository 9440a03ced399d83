/**
 * Reading a list the model wrote: the `todo_write` tool's input (Claude Code's TodoWrite shape, leniently:
 * OpenCode's `todowrite` items with `id`/`priority`, other status spellings) and a fenced ```todo block in a
 * reply (`- [ ] pending`, `- [~] in progress`, `- [x] completed`, `- [-] cancelled`).
 */
import type { TodoItem, TodoStatus } from "./api.js";

/** More rows than this are cut (a list is a plan, not a log). */
export const MAX_ITEMS = 100;
/** A row's text is cut to this many characters. */
export const MAX_CONTENT = 500;

const STATUS_WORDS: Record<string, TodoStatus> = {
  pending: "pending",
  todo: "pending",
  open: "pending",
  not_started: "pending",
  in_progress: "in_progress",
  inprogress: "in_progress",
  active: "in_progress",
  doing: "in_progress",
  started: "in_progress",
  completed: "completed",
  complete: "completed",
  done: "completed",
  finished: "completed",
  cancelled: "cancelled",
  canceled: "cancelled",
  dropped: "cancelled",
  skipped: "cancelled",
};

/** A status word in any common spelling ("In progress", "in-progress", "done"); undefined when unknown. */
export function statusOf(raw: unknown): TodoStatus | undefined {
  if (typeof raw !== "string") return undefined;
  return STATUS_WORDS[raw.trim().toLowerCase().replace(/[\s-]+/g, "_")];
}

export function clip(text: string, max = MAX_CONTENT): string {
  const one = text.replace(/\s+/g, " ").trim();
  return one.length > max ? `${one.slice(0, max - 1)}…` : one;
}

export type ParsedItem = Omit<TodoItem, "by">;

/** The tool's input as rows, or a message saying what is wrong with it. */
export function parseToolInput(input: Record<string, unknown>): { items: ParsedItem[] } | { error: string } {
  let list: unknown = input.todos ?? input.items ?? input.tasks;
  if (typeof list === "string") {
    try {
      list = JSON.parse(list);
    } catch {
      return { error: "todos must be an array of {content, status, activeForm}" };
    }
  }
  if (!Array.isArray(list)) return { error: "todos must be an array of {content, status, activeForm}" };
  const items: ParsedItem[] = [];
  for (const [i, raw] of list.entries()) {
    const o = typeof raw === "string" ? { content: raw } : (raw as Record<string, unknown> | null);
    if (typeof o !== "object" || o === null) return { error: `todos[${i}] must be an object with content and status` };
    const text = [o.content, o.text, o.title, o.task, o.description].find((v) => typeof v === "string" && v.trim() !== "") as string | undefined;
    if (!text) return { error: `todos[${i}] has no content` };
    const status = o.status === undefined ? "pending" : statusOf(o.status);
    if (!status) return { error: `todos[${i}].status '${String(o.status)}' is not one of pending, in_progress, completed, cancelled` };
    const active = [o.activeForm, o.active_form].find((v) => typeof v === "string" && v.trim() !== "") as string | undefined;
    items.push({ content: clip(text), status, ...(active ? { activeForm: clip(active) } : {}) });
  }
  return { items: items.slice(0, MAX_ITEMS) };
}

const MARKS: Record<string, TodoStatus> = { " ": "pending", "": "pending", "~": "in_progress", ">": "in_progress", "/": "in_progress", "x": "completed", "X": "completed", "-": "cancelled" };

/**
 * The newest complete ```todo block in a reply (opening and closing fence), as rows; undefined when the
 * text has none. Lines that are not `- [m] text` (or `* [m] text`, `1. [m] text`) are ignored.
 */
export function parseTodoBlock(text: string): ParsedItem[] | undefined {
  const re = /^[ \t]*(`{3,}|~{3,})[ \t]*todos?[ \t]*\r?\n([\s\S]*?)^[ \t]*\1[ \t]*$/gm;
  let last: string | undefined;
  for (let m = re.exec(text); m; m = re.exec(text)) last = m[2]!;
  if (last === undefined) return undefined;
  const items: ParsedItem[] = [];
  for (const line of last.split(/\r?\n/)) {
    const m = /^\s*(?:[-*+]|\d+[.)])?\s*\[([ xX~>/-]?)\]\s+(.+?)\s*$/.exec(line);
    if (!m) continue;
    const status = MARKS[m[1]!] ?? "pending";
    items.push({ content: clip(m[2]!), status });
  }
  return items.slice(0, MAX_ITEMS);
}

/** The floor's row text: the prompt's first line, cut sensibly. */
export function floorText(prompt: string): string {
  const first = prompt.trim().split(/\r?\n/).find((l) => l.trim() !== "") ?? "";
  return clip(first, 120) || "(the prompt)";
}

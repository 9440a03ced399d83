/** Implementation published by the kit `oceancode/kit/todos` (moved out of extensions/todos/api.ts, which keeps the types). */
import { type TodoStatus, TODO_STATUSES, type TodoItem, TODOS_KEY, type StoredTodos, TODO_MARKS } from "../api.js";

/** The stored list of a session (overrides.todos), checked; undefined when absent or malformed. Exports and hosts read it. */
export function readStoredTodos(overrides: Record<string, unknown> | undefined): StoredTodos | undefined {
  const raw = overrides?.[TODOS_KEY];
  if (typeof raw !== "object" || raw === null) return undefined;
  const r = raw as { items?: unknown; floor?: unknown; planned?: unknown };
  if (!Array.isArray(r.items)) return undefined;
  const items: TodoItem[] = [];
  for (const it of r.items) {
    if (typeof it !== "object" || it === null) continue;
    const i = it as Record<string, unknown>;
    if (typeof i.content !== "string" || !TODO_STATUSES.includes(i.status as TodoStatus)) continue;
    const by = i.by === "user" || i.by === "floor" ? i.by : "model";
    items.push({ content: i.content, status: i.status as TodoStatus, ...(typeof i.activeForm === "string" ? { activeForm: i.activeForm } : {}), by });
  }
  return { items, floor: r.floor === true, planned: r.planned === true };
}

/** One line per row: `- [x] content` (the ```todo block's own format). */
export function renderTodoLines(items: readonly Pick<TodoItem, "content" | "status">[]): string[] {
  return items.map((i) => `- [${TODO_MARKS[i.status]}] ${i.content}`);
}

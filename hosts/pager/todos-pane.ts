/**
 * The todos pane's model (ctrl+t): the session's step list (the `todos` service, oceancode/api/todos) as
 * display rows. Row text is the model's: it is made display-safe here (one visible line), so the pane can
 * never drive the terminal. Glyphs: ☐ pending, ▶ in progress (its activeForm), ☑ completed, ✗ cancelled
 * (struck through); the always-plan floor row is dimmed.
 */
import type { TodoList, TodoStatus, TodosService } from "../../extensions/todos/api.js";
import { visibleLine } from "../terminal/sanitize.js";

/** What the pager uses of the todos service (a structural subset of TodosService). */
export type TodosLike = Pick<TodosService, "get" | "subscribe">;

export const TODO_GLYPHS: Record<TodoStatus, string> = { pending: "☐", in_progress: "▶", completed: "☑", cancelled: "✗" };

export interface PaneRow {
  glyph: string;
  /** display-safe, one line */
  text: string;
  status: TodoStatus;
  /** the floor row (the prompt, until the model plans) */
  dim: boolean;
  /** a person's row (/plan add, plan_exit comments) */
  user: boolean;
}

/** A display-safe copy of a list: what the store keeps. */
export interface PaneList {
  rows: PaneRow[];
  floor: boolean;
  open: number;
  completed: number;
  /** rows that count (cancelled ones do not) */
  total: number;
}

export const EMPTY_PANE = "no plan yet: the model keeps one for work with three or more steps (/plan add <text> adds a row)";

export function paneList(list: TodoList): PaneList {
  const rows = list.items.map(
    (it): PaneRow => ({
      glyph: TODO_GLYPHS[it.status] ?? "?",
      text: visibleLine(it.status === "in_progress" && it.activeForm ? it.activeForm : it.content),
      status: it.status,
      dim: list.floor || it.by === "floor",
      user: it.by === "user",
    }),
  );
  const count = (s: TodoStatus) => list.items.filter((i) => i.status === s).length;
  return { rows, floor: list.floor, open: count("pending") + count("in_progress"), completed: count("completed"), total: list.items.length - count("cancelled") };
}

/** The status bar's `todos 2/5` (completed of the rows that count); undefined for no list or the floor. */
export function todosStatus(list: PaneList | undefined): string | undefined {
  if (!list || list.floor || list.total === 0) return undefined;
  return `todos ${list.completed}/${list.total}`;
}

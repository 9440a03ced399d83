/**
 * The published contract `oceancode/api/todos` (service "todos"): the step list a model keeps as it works.
 *
 * The model writes it with the `todo_write` tool (Claude Code's TodoWrite shape) or a fenced ```todo block
 * in a reply; the newest complete list replaces the whole list. Until the model first writes one, the list
 * is the always-plan floor: one synthesized row, the prompt's text (`floor: true`). A person edits it with
 * `/plan add|done|drop|move`; those edits are merged into the model's next step. The plan-mode extension
 * (service "plan-mode", optional) is the other half of `/plan`: a bare `/plan` or `/plan <text>` enters it.
 */
import type { SlashHost } from "../../kernel/api.js";
import type { Session } from "../engine/api.js";
import type { SessionOverrides } from "../engine/api.js";

export const TODO_TOOL = "todo_write";
/** Claude Code's name for the same tool (hook matchers, settings rules). */
export const TODO_TOOL_CLAUDE_NAME = "TodoWrite";

export type TodoStatus = "pending" | "in_progress" | "completed" | "cancelled";
export const TODO_STATUSES: readonly TodoStatus[] = ["pending", "in_progress", "completed", "cancelled"];

export interface TodoItem {
  content: string;
  status: TodoStatus;
  /** the present-continuous form shown while in progress ("Running the tests") */
  activeForm?: string;
  /** who added the row: the model (tool or block), a person (/plan add, plan_exit comments), or the floor */
  by: "model" | "user" | "floor";
}

export interface TodoList {
  sessionId: string;
  items: readonly TodoItem[];
  /** true while the list is the always-plan floor (the model has not planned yet this session) */
  floor: boolean;
  /** true once the model wrote a list in this session (the floor never comes back) */
  planned: boolean;
  /** bumps on every change */
  version: number;
}

/** A person's edit of the list (`/plan add <text>`, `/plan done <n>`, `/plan drop <n>`, `/plan move <n> <m>`); rows count from 1. */
export type TodoEdit =
  | { op: "add"; content: string }
  | { op: "done"; index: number }
  | { op: "drop"; index: number }
  | { op: "move"; from: number; to: number };

export interface PlanCounts {
  /** pending or in progress */
  open: number;
  completed: number;
}

export interface TodosService {
  /** The session's list (the floor until the model plans; empty before any prompt). */
  get(session: Session | string): TodoList;
  /** Apply a person's edit; the model sees it on its next step. Throws a coded error (OC_ERR_TODO_EDIT) on a bad row number. */
  edit(session: Session, edit: TodoEdit): TodoList;
  /** Open and completed counts (what the work-off and the no-progress guard compare). */
  counts(session: Session | string): PlanCounts;
  /** Every change of any session's list (hosts: the pager's pane, ACP `plan` updates, serve). Returns an unsubscribe. */
  subscribe(listener: (list: TodoList) => void): () => void;
  /**
   * The plan-mode extension hands its service over here (it declares "todos"; todos cannot declare
   * "plan-mode" back without a dependency cycle). `/plan` and `/plan <text>` call it; returns a detach.
   */
  attachPlanMode(service: PlanModeService): () => void;
  /** Whether the directive, the reminder and the work-off are on (OC_PLAN=off turns them off). */
  readonly planning: boolean;
}

/** The service plan-mode provides, which `/plan` without a row verb calls. */
export interface PlanModeService {
  /**
   * Switch the session to the plan agent (stored on the session: --continue keeps it) and reply through
   * `host`. `text`, when given, is sent as the prompt that starts planning through the host's
   * `prompt(text)` (PagerSlashHost, oceancode/api/session-commands); a host without one is told to send
   * it as a message. A `/plan` handler passes its slash host: `enter(session, text, host)`.
   */
  enter(session: Session, text?: string, host?: SlashHost): Promise<void>;
  /** Whether the session is in plan mode now. */
  active(session: Session | string): boolean;
}

export const TODO_EDIT_ERROR = "OC_ERR_TODO_EDIT" as const;

/** `OC_PLAN=off` (also 0, false, no) turns the directive, the reminder and the work-off off. */
export const PLAN_ENV = "OC_PLAN";
/** Tool calls with no plan after which the next step carries a reminder to write one. */
export const REMINDER_AFTER_CALLS = 12;
/** Where the list is kept on the session (session.info.overrides), so it survives --continue. */
export const TODOS_KEY = "todos";

/** What session.info.overrides.todos holds. */
export interface StoredTodos {
  items: TodoItem[];
  floor: boolean;
  planned: boolean;
}

/** The checkbox of each status in a ```todo block and in SESSION.md: `[ ]`, `[~]`, `[x]`, `[-]`. */
export const TODO_MARKS: Readonly<Record<TodoStatus, string>> = { pending: " ", in_progress: "~", completed: "x", cancelled: "-" };

/** The services this contract names, typed for `ctx.services.get(name)` and `kernel.service(name)`. */
declare module "../../kernel/api.js" {
  interface ServiceMap {
    todos: TodosService;
  }
}

/** The session slot the todo list is kept in (typed, stored with the session: see SessionSlots in oceancode/api/engine). */
declare module "../engine/api.js" {
  interface SessionSlots {
    /** the list (TODOS_KEY): read it with readStoredTodos, which checks it */
    todos: StoredTodos;
  }
}

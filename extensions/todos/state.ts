/**
 * One session's list and what the extension keeps beside it: the floor, edits a person made that the model
 * has not seen yet, the tool calls made with no plan, and the notes anchored in the window.
 */
import { TODO_EDIT_ERROR, TODOS_KEY, type PlanCounts, type TodoEdit, type TodoItem, type TodoList } from "./api.js";
import { readStoredTodos, renderTodoLines } from "./kit/shared.js";
import { clip, floorText, type ParsedItem } from "./parse.js";
import type { SessionOverrides } from "../engine/api.js";

/** A note placed in the window right after the row with seq `afterSeq`, on every later step (cache-stable). */
export interface AnchoredNote {
  afterSeq: number;
  text: string;
}

/** Notes kept per session (the oldest leave first; a cut of their anchor row drops them from the window anyway). */
const MAX_NOTES = 32;

export class TodoState {
  items: TodoItem[] = [];
  floor = false;
  planned = false;
  version = 0;
  /** edits a person made since the model's last step began (re-applied over a list the model writes meanwhile) */
  pending: TodoEdit[] = [];
  /** their words, for the note the model reads on its next step */
  pendingText: string[] = [];
  /** tool calls made while the model had not planned (the reminder's count) */
  callsWithoutPlan = 0;
  /** callsWithoutPlan when the last reminder was given */
  remindedAt = 0;
  notes: AnchoredNote[] = [];

  constructor(readonly sessionId: string) {}

  static restore(sessionId: string, overrides: SessionOverrides): TodoState {
    const st = new TodoState(sessionId);
    const stored = readStoredTodos(overrides);
    if (stored) {
      st.items = stored.items;
      st.floor = stored.floor;
      st.planned = stored.planned;
    }
    return st;
  }

  list(): TodoList {
    return { sessionId: this.sessionId, items: this.items.map((i) => ({ ...i })), floor: this.floor, planned: this.planned, version: this.version };
  }

  /** Open and completed counts of real rows (the floor is no work of its own: it never holds a run open). */
  counts(): PlanCounts {
    let open = 0;
    let completed = 0;
    for (const i of this.items) {
      if (i.by === "floor") continue;
      if (i.status === "pending" || i.status === "in_progress") open++;
      else if (i.status === "completed") completed++;
    }
    return { open, completed };
  }

  /** The next open row: the one in progress, else the first pending. */
  next(): TodoItem | undefined {
    const real = this.items.filter((i) => i.by !== "floor");
    return real.find((i) => i.status === "in_progress") ?? real.find((i) => i.status === "pending");
  }

  save(overrides: SessionOverrides): void {
    overrides[TODOS_KEY] = { items: this.items.map((i) => ({ ...i })), floor: this.floor, planned: this.planned };
  }

  /** A prompt started: while the model has not planned (and no person added rows), the floor is the prompt. */
  prompted(text: string): boolean {
    if (this.planned || this.items.some((i) => i.by !== "floor")) return false;
    this.items = [{ content: floorText(text), status: "in_progress", by: "floor" }];
    this.floor = true;
    return true;
  }

  /** The turn ended: the floor row is done (it stands for the prompt just answered). */
  settled(): boolean {
    if (!this.floor || this.items[0]?.status !== "in_progress") return false;
    this.items = this.items.map((i) => (i.by === "floor" ? { ...i, status: "completed" } : i));
    return true;
  }

  /** The model wrote a complete list: it replaces the whole list; edits it has not seen yet are applied over it. */
  write(parsed: ParsedItem[]): void {
    const userRows = new Set(this.items.filter((i) => i.by === "user").map((i) => i.content));
    this.items = parsed.map((p) => ({ ...p, by: userRows.has(p.content) ? "user" : "model" }));
    this.floor = false;
    this.planned = true;
    this.callsWithoutPlan = 0;
    this.remindedAt = 0;
    for (const e of this.pending) this.reapply(e);
  }

  /** An edit a person made earlier, applied again by row text over a list the model wrote without seeing it. */
  private reapply(e: TodoEdit & { content?: string }): void {
    const at = (content: string | undefined) => (content === undefined ? -1 : this.items.findIndex((i) => i.content === content));
    if (e.op === "add") {
      if (at(e.content) < 0) this.items.push({ content: e.content, status: "pending", by: "user" });
    } else if (e.op === "done") {
      const i = at(e.content);
      if (i >= 0) this.items[i] = { ...this.items[i]!, status: "completed" };
    } else if (e.op === "drop") {
      const i = at(e.content);
      if (i >= 0) this.items.splice(i, 1);
    }
  }

  /** A person's edit (rows count from 1). Returns the words for the model's note. */
  edit(e: TodoEdit): string {
    const bad = (n: number) => Object.assign(new Error(`no row ${n}: the list has ${this.items.length} row${this.items.length === 1 ? "" : "s"}`), { code: TODO_EDIT_ERROR });
    if (this.floor) {
      if (e.op !== "add") throw Object.assign(new Error("the list is only the prompt (the model has not planned yet); add a row with /plan add <text>"), { code: TODO_EDIT_ERROR });
      // a person's row replaces the floor (it stood only for the prompt)
      this.items = [];
      this.floor = false;
    }
    const row = (n: number) => {
      if (!Number.isInteger(n) || n < 1 || n > this.items.length) throw bad(n);
      return this.items[n - 1]!;
    };
    let said: string;
    let recorded: TodoEdit & { content?: string } = e;
    switch (e.op) {
      case "add": {
        const content = clip(e.content);
        if (!content) throw Object.assign(new Error("a row needs text"), { code: TODO_EDIT_ERROR });
        this.items.push({ content, status: "pending", by: "user" });
        recorded = { op: "add", content };
        said = `added row ${this.items.length} "${content}"`;
        break;
      }
      case "done": {
        const r = row(e.index);
        this.items[e.index - 1] = { ...r, status: "completed" };
        recorded = { ...e, content: r.content };
        said = `marked row ${e.index} "${r.content}" completed`;
        break;
      }
      case "drop": {
        const r = row(e.index);
        this.items.splice(e.index - 1, 1);
        recorded = { ...e, content: r.content };
        said = `dropped row ${e.index} "${r.content}"`;
        break;
      }
      case "move": {
        const r = row(e.from);
        row(e.to);
        this.items.splice(e.from - 1, 1);
        this.items.splice(e.to - 1, 0, r);
        said = `moved row ${e.from} "${r.content}" to position ${e.to}`;
        break;
      }
    }
    this.pending.push(recorded);
    this.pendingText.push(said);
    return said;
  }

  /** The note for the model's next step about edits it has not seen (and forget them: delivered). */
  takeEditNote(): string | undefined {
    if (this.pendingText.length === 0) return undefined;
    const text = `The user edited the plan: ${this.pendingText.join("; ")}. The plan is now:\n${renderTodoLines(this.items).join("\n") || "(empty)"}\nKeep these rows (the user's included) when you next write the list with todo_write.`;
    this.pending = [];
    this.pendingText = [];
    return text;
  }

  anchor(afterSeq: number, text: string): void {
    this.notes.push({ afterSeq, text });
    if (this.notes.length > MAX_NOTES) this.notes.splice(0, this.notes.length - MAX_NOTES);
  }
}

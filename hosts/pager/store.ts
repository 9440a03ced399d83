/**
 * The pager's state, fed by SessionEvents. Finished transcript items are append-only (rendered once in
 * ink's <Static>); only the live step (streaming text + running tool calls) changes per token, so the
 * work per event does not grow with the session's length.
 *
 * Everything the store holds is display text: untrusted text (model text, tool names, inputs and output,
 * notices, questions) goes through the terminal sanitizer on the way in (add(), apply(), safeQuestion()),
 * so no component can render an escape sequence by forgetting to. The session's own rows stay verbatim.
 */
import type { Answer, FormAnswer, Question, QuestionField, Row, SessionEvent, SessionTotals, ToolCall } from "../../extensions/engine/api.js";
import { visible, visibleLine, VisibleStream } from "../terminal/sanitize.js";
import type { MeterView } from "./format.js";
import type { CapData, CapTab } from "./capabilities-model.js";
import type { TodoList } from "../../extensions/todos/api.js";
import { paneList, type PaneList } from "./todos-pane.js";
import { TurnProgress } from "./progress.js";
import type { HelpSection } from "../../extensions/session-commands/api.js";
import type { FileDiff } from "../../extensions/engine/api.js";
import { MarkdownStream } from "./render/stream.js";
import { safeDiff } from "./render/diff.js";
import { toolLine } from "./render/tool-line.js";

export interface ToolItem {
  kind: "tool";
  id: number;
  call: ToolCall;
  /** `name(input summary)`, display-safe and on one row */
  head: string;
  /** display-safe output */
  output?: string;
  isError?: boolean;
  done: boolean;
  /** an edit/write's change (display-safe), drawn as a diff */
  diff?: FileDiff;
}
export type Item =
  | { kind: "user"; id: number; text: string }
  | { kind: "assistant"; id: number; text: string; /** the streamed answer's renderer (its finished blocks are reused) */ md?: MarkdownStream }
  | ToolItem
  | { kind: "notice"; id: number; level: "info" | "warn" | "error"; text: string }
  | { kind: "reply"; id: number; text: string }
  /** the start header (components/header.tsx): its first line is the title */
  | { kind: "header"; id: number; text: string }
  /** a two-column table laid out to the width (/help) */
  | { kind: "table"; id: number; sections: HelpSection[] };

/** Distributes Omit over the union so each variant keeps its own fields; a tool's head is derived. */
export type NewItem = Item extends infer T ? (T extends ToolItem ? Omit<T, "id" | "head"> : T extends Item ? Omit<T, "id"> : never) : never;

/** The one-row header of a tool call (render/tool-line.ts), safe to display. */
export function toolHead(call: ToolCall, cwd?: string): string {
  return visibleLine(toolLine(call, cwd ? { cwd } : {}));
}

/** A question with every field made safe to display (the engine's question is left as it is). */
export function safeQuestion(q: Question): Question {
  return {
    ...q,
    tool: visibleLine(q.tool),
    subject: visible(q.subject),
    reason: visibleLine(q.reason),
    ...(q.rule !== undefined ? { rule: visibleLine(q.rule) } : {}),
    ...(q.always !== undefined ? { always: visibleLine(q.always) } : {}),
    ...(q.fields ? { fields: q.fields.map(safeField) } : {}),
    ...(q.preview ? { preview: q.preview.diff ? { diff: safeDiff(q.preview.diff) } : {} } : {}),
  };
}

/** A form field's server-written text made display-safe (the name the answer is keyed by stays as sent). */
function safeField(f: QuestionField): QuestionField {
  return {
    ...f,
    ...(f.title !== undefined ? { title: visibleLine(f.title) } : {}),
    ...(f.description !== undefined ? { description: visibleLine(f.description) } : {}),
    ...(typeof f.default === "string" ? { default: visibleLine(f.default) } : {}),
    ...(f.options ? { options: f.options.map((o) => visibleLine(o)) } : {}),
  };
}

function safeItem(item: NewItem, id: number, cwd: string): Item {
  switch (item.kind) {
    case "tool":
      return { ...item, id, head: toolHead(item.call, cwd), output: item.output === undefined ? undefined : visible(item.output), ...(item.diff ? { diff: safeDiff(item.diff) } : {}) };
    case "table":
      return { kind: "table", id, sections: item.sections.map((s) => ({ title: visibleLine(s.title), rows: s.rows.map(([l, r]) => [visibleLine(l), visibleLine(r)] as [string, string]) })) };
    default:
      return { ...item, id, text: visible(item.text) };
  }
}

/** An append-only list whose view object changes identity only when it grows (what <Static> needs). */
export class AppendLog<T> {
  private items: T[] = [];
  private cached: { length: number; view: T[] } = { length: 0, view: [] };
  push(item: T): void {
    this.items.push(item);
  }
  get length(): number {
    return this.items.length;
  }
  at(i: number): T | undefined {
    return this.items[i];
  }
  /** An array-like for <Static>: a new object per length, O(1) to make; slice(i) copies only the tail. */
  view(): T[] {
    if (this.cached.length !== this.items.length) {
      const items = this.items;
      const length = items.length;
      const view = { length, slice: (start?: number) => items.slice(start ?? 0, length) } as unknown as T[];
      this.cached = { length, view };
    }
    return this.cached.view;
  }
}

export interface PendingQuestion {
  question: Question;
  resolve(a: Answer | FormAnswer): void;
  /** a form question (fields): the selected field and what is typed in each (defaults to start with) */
  form?: { index: number; values: string[] };
}
export interface PickerState {
  title: string;
  items: Array<{ id: string; label: string }>;
  index: number;
  resolve(id: string | undefined): void;
  /** an item is picked by pressing its id (one key: `1`, `2` …) as well as with enter */
  oneKey?: boolean;
}

/** The capabilities picker (/skills, /plugins): the tab, the cursor, and the services' state when last read. */
export interface CapabilitiesState {
  tab: CapTab;
  index: number;
  data: CapData;
  /** the last toggle's error, shown under the rows */
  message?: string;
}

export class PagerStore {
  readonly done = new AppendLog<Item>();
  /** every tool item, for the output viewer (append-only too) */
  readonly tools: ToolItem[] = [];
  /** display-safe streaming text of the current step */
  liveText = "";
  /** the live text rendered as markdown (finished blocks once, the open tail per frame) */
  liveMd = new MarkdownStream();
  private liveStream = new VisibleStream();
  /** the project folder: tool one-liners show paths relative to it */
  cwd = "";
  liveTools: ToolItem[] = [];
  busy = false;
  /** the running turn's clock, tokens and tools (the animated status line) */
  readonly progress = new TurnProgress();
  /** bumped to print the whole transcript again (after a resize cleared the screen) */
  epoch = 0;
  sessionId = "";
  model = "";
  totals: SessionTotals = { usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 }, costUsd: 0, turns: 0, steps: 0 };
  /** last step's window size in tokens (the gauge), from step_end */
  gaugeTokens = 0;
  meter?: MeterView;
  question?: PendingQuestion;
  picker?: PickerState;
  capabilities?: CapabilitiesState;
  /** index into `tools` while the output viewer is open */
  viewer?: { tool: number; scroll: number };
  /** the todos pane (ctrl+t): open or not, and the session's list (display-safe; undefined before any) */
  todosOpen = false;
  todos?: PaneList;
  /** whether a todos service is there to show a list */
  todosAvailable = false;
  /** the (display) texts of the notices shown since the current prompt was sent */
  noticesThisPrompt: string[] = [];
  private nextId = 1;
  private version = 0;
  private listeners = new Set<() => void>();

  subscribe = (fn: () => void): (() => void) => {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  };
  getVersion = (): number => this.version;

  changed(): void {
    this.version++;
    for (const fn of this.listeners) fn();
  }

  /** The session's todo list changed (or was read): keep a display-safe copy; re-render. */
  setTodos(list: TodoList | undefined): void {
    if (list && this.sessionId && list.sessionId !== this.sessionId) return;
    this.todos = list ? paneList(list) : undefined;
    this.changed();
  }

  /** Put an item in the transcript; its text is made safe to display here. */
  add(item: NewItem): Item {
    const it = safeItem(item, this.nextId++, this.cwd);
    this.done.push(it);
    if (it.kind === "tool") this.tools.push(it);
    return it;
  }

  /** Put an item in the transcript and re-render. */
  post(item: NewItem): void {
    this.add(item);
    this.changed();
  }

  /** Move the live text and the finished leading tool calls into the transcript. */
  private flush(all: boolean): void {
    const tail = this.liveStream.end();
    this.liveText += tail;
    this.liveMd.push(tail);
    if (this.liveText.trim()) {
      const it = this.add({ kind: "assistant", text: this.liveText.replace(/\s+$/, "") });
      if (it.kind === "assistant") it.md = this.liveMd;
    }
    this.liveText = "";
    this.liveMd = new MarkdownStream();
    while (this.liveTools.length && (all || this.liveTools[0]!.done)) {
      const t = this.liveTools.shift()!;
      this.done.push(t);
      this.tools.push(t);
    }
  }

  apply(e: SessionEvent): void {
    if (this.sessionId && e.sessionId !== this.sessionId) return;
    this.progress.apply(e);
    switch (e.type) {
      case "turn_start":
        this.busy = true;
        break;
      case "text_delta": {
        const safe = this.liveStream.push(e.text);
        this.liveText += safe;
        this.liveMd.push(safe);
        break;
      }
      case "discard":
        // the step's streamed text was thrown away (not stored): it leaves the screen before the retry
        this.liveText = "";
        this.liveMd = new MarkdownStream();
        this.liveStream = new VisibleStream();
        break;
      case "tool_call_start": {
        if (this.liveText.trim()) this.flush(false);
        this.liveTools.push({ kind: "tool", id: this.nextId++, call: e.call, head: toolHead(e.call, this.cwd), done: false });
        break;
      }
      case "tool_call_end": {
        const t = this.liveTools.find((x) => x.call.id === e.call.id);
        if (t) {
          t.output = visible(e.result.content);
          t.isError = e.result.isError;
          if (e.result.diff) t.diff = safeDiff(e.result.diff);
          t.done = true;
        }
        // finished tools leave the live area in order
        while (this.liveTools.length && this.liveTools[0]!.done) {
          const d = this.liveTools.shift()!;
          this.done.push(d);
          this.tools.push(d);
        }
        break;
      }
      case "step_end":
        this.gaugeTokens = e.gaugeTokens;
        this.flush(false);
        break;
      case "usage":
      // a cache keep-alive touch adds its cost to the totals it carries
      case "session.cache.touched":
        this.totals = e.totals;
        break;
      case "turn_end":
        this.flush(true);
        this.busy = false;
        if (e.reason === "aborted") this.add({ kind: "notice", level: "warn", text: "stopped (esc esc)" });
        else if (e.reason === "step_cap") this.add({ kind: "notice", level: "warn", text: e.stopped_by === "budget" ? "stopped: spend bound reached" : e.stopped_by === "time" ? "stopped: clock bound reached" : e.stopped_by === "doom_loop" ? "stopped: the same tool call and result three times in a row" : "stopped: step cap reached" });
        else if (e.reason === "max_tokens") this.add({ kind: "notice", level: "warn", text: "stopped: the model hit its output limit" });
        break;
      case "notice": {
        // text still streaming stays live (a discard may yet take it back): the notice goes above it
        if (!this.liveText) this.flush(false);
        const it = this.add({ kind: "notice", level: e.level, text: e.text });
        if (it.kind === "notice") this.noticesThisPrompt.push(it.text);
        break;
      }
      case "question": {
        const verb = e.answer === "reject" ? "rejected" : e.answer === "always" ? "allowed always" : "allowed once";
        this.add({ kind: "notice", level: e.answer === "reject" ? "warn" : "info", text: `${verb}: ${e.question.tool} ${firstLine(e.question.subject)}` });
        break;
      }
    }
    this.changed();
  }
}

function firstLine(s: string): string {
  const l = s.split("\n")[0] ?? "";
  return l.length > 60 ? `${l.slice(0, 59)}…` : l;
}

/** The window size after a reopened session's last step, from its usage (the gauge until the next step). */
export function lastGauge(rows: readonly Row[]): number {
  for (let i = rows.length - 1; i >= 0; i--) {
    const r = rows[i]!;
    if (r.role === "assistant" && r.usage) return r.usage.inputTokens + r.usage.cacheReadTokens + r.usage.cacheWriteTokens + r.usage.outputTokens;
  }
  return 0;
}

/** Items for the tail of a reopened session's history (the last `limit` rows only). */
export function rowsToItems(rows: readonly Row[], limit = 20): NewItem[] {
  const tail = rows.slice(Math.max(0, rows.length - limit));
  const results = new Map<string, { content: string; isError: boolean; diff?: FileDiff }>();
  for (const r of tail) if (r.role === "tool") for (const x of r.results) results.set(x.callId, { content: x.content, isError: x.isError, ...(x.diff ? { diff: x.diff } : {}) });
  const out: NewItem[] = [];
  for (const r of tail) {
    if (r.role === "user") out.push({ kind: "user", text: r.text });
    else if (r.role === "assistant") {
      if (r.text.trim()) out.push({ kind: "assistant", text: r.text.trim() });
      for (const c of r.toolCalls) {
        const res = results.get(c.id);
        out.push({ kind: "tool", call: c, output: res?.content ?? "", isError: res?.isError ?? false, done: true, ...(res?.diff ? { diff: res.diff } : {}) });
      }
    } else if (r.role === "note" && r.kind === "interrupted") out.push({ kind: "notice", level: "warn", text: "stopped: the turn was interrupted here" });
  }
  return out;
}

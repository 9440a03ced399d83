/**
 * The todos extension: the step list a model keeps as it works (service "todos", see api.ts and
 * docs/todos.md). The model writes it with `todo_write` (Claude Code's TodoWrite) or a fenced ```todo block;
 * until it does, the list is the always-plan floor (the prompt). A directive in the system prompt says how
 * to keep it; twelve tool calls with no plan bring a reminder; a root session that settles with open rows is
 * worked off (engine.stop with progress, bounded by the engine's no-progress guard). `/plan` edits rows.
 * OC_PLAN=off turns the directive, the reminder and the work-off off; the tool and /plan keep working.
 */
import type { ExtensionContext } from "../../kernel/api.js";
import type { EngineService, NoteRow, Row, Session } from "../engine/api.js";
import type { LedgerService } from "../ledger/api.js";
import type { RouteRegistry } from "../serve/api.js";
import type { StorageService } from "../storage/api.js";
import { PLAN_ENV, REMINDER_AFTER_CALLS, TODOS_KEY, TODO_TOOL, TODO_TOOL_CLAUDE_NAME, type PlanModeService, type TodoList, type TodosService } from "./api.js";
import { renderTodoLines } from "./kit/shared.js";
import { parseTodoBlock, type ParsedItem } from "./parse.js";
import { todosRoutes } from "./routes.js";
import { planSlash } from "./slash.js";
import { TodoState } from "./state.js";
import { createTodoTool, TODO_RULE } from "./tool.js";
import type { SessionOverrides } from "../engine/api.js";

const EXT_ID = "todos";

export const DIRECTIVE =
  `Planning: ${TODO_RULE} Write the list with the ${TODO_TOOL} tool, or as a fenced \`\`\`todo block in your reply, one row a line: "- [ ] pending", "- [~] in progress", "- [x] completed", "- [-] cancelled". ` +
  "The newest complete list replaces the whole list. A turn that ends while rows are still open is continued until they are done, so keep the statuses true; rows the user adds are work too.";

export function reminderText(calls: number): string {
  return `[todos reminder] You have made ${calls} tool calls without a todo list. This looks like work with several steps: write your plan now with ${TODO_TOOL} (one item in_progress at a time) and keep it current as you go.`;
}

export function planningOn(env: Record<string, string | undefined>): boolean {
  const v = env[PLAN_ENV]?.trim().toLowerCase();
  return !(v === "off" || v === "0" || v === "false" || v === "no");
}

export default {
  activate(ctx: ExtensionContext) {
    const engine = ctx.services.get("engine");
    const storage = () => ctx.services.tryGet("storage");
    const planning = planningOn(ctx.env);
    const states = new Map<string, TodoState>();
    const listeners = new Set<(l: TodoList) => void>();
    const planModes: PlanModeService[] = [];

    const stateOf = (s: Session | string, overrides?: SessionOverrides): TodoState => {
      const id = typeof s === "string" ? s : s.info.id;
      let st = states.get(id);
      if (!st) {
        const o = overrides ?? (typeof s === "string" ? undefined : s.info.overrides);
        st = o ? TodoState.restore(id, o) : new TodoState(id);
        states.set(id, st);
      }
      return st;
    };
    /** a change: bump the version, store it on the session (saved with the session's info), tell the listeners */
    const changed = (st: TodoState, overrides: SessionOverrides | undefined) => {
      st.version += 1;
      if (overrides) st.save(overrides);
      const list = st.list();
      for (const l of listeners) {
        try {
          l(list);
        } catch (e) {
          ctx.log.debug(`todos: a listener failed: ${(e as Error).message}`);
        }
      }
      return list;
    };
    const write = (id: string, overrides: SessionOverrides, items: ParsedItem[]): TodoList => {
      const st = stateOf(id, overrides);
      st.write(items);
      return changed(st, overrides);
    };

    const service: TodosService = {
      planning,
      get: (s) => (typeof s === "string" && !states.has(s) ? { sessionId: s, items: [], floor: false, planned: false, version: 0 } : stateOf(s).list()),
      counts: (s) => (typeof s === "string" && !states.has(s) ? { open: 0, completed: 0 } : stateOf(s).counts()),
      edit: (session, e) => {
        const st = stateOf(session);
        st.edit(e);
        const list = changed(st, session.info.overrides);
        storage()?.saveInfo(session.info);
        return list;
      },
      subscribe: (l) => {
        listeners.add(l);
        return () => void listeners.delete(l);
      },
      attachPlanMode: (pm) => {
        planModes.push(pm);
        return () => {
          const i = planModes.indexOf(pm);
          if (i >= 0) planModes.splice(i, 1);
        };
      },
    };
    ctx.provide("todos", service);
    engine.tools.register(createTodoTool(write), ctx.id);

    engine.hooks.sessionStart.tap({ name: EXT_ID }, ({ session, source }) => {
      // a new session starts with no list: a child (sub-agent) does not inherit its parent's with the overrides
      if (source === "startup") delete session.info.overrides[TODOS_KEY];
      states.set(session.info.id, TodoState.restore(session.info.id, session.info.overrides));
    });
    // after the ledger (STAGE_AUDIT) has written SESSION.md with the list for the last time
    engine.hooks.sessionEnd.tap({ name: EXT_ID, stage: "STAGE_ASK" }, ({ session }) => {
      states.delete(session.info.id);
    });
    engine.hooks.userPrompt.tap({ name: EXT_ID, stage: "record" }, (input, t) => {
      const st = stateOf(t.session);
      if (!input.blocked && st.prompted(input.text)) changed(st, t.session.info.overrides);
      return input;
    });
    engine.hooks.afterStep.tap({ name: EXT_ID }, (rec) => {
      const s = rec.ctx.session;
      const st = stateOf(s);
      const calls = rec.assistant.toolCalls;
      // a ```todo block in the reply, unless the same step also called the tool (the call comes after the text)
      if (!calls.some((c) => c.name === TODO_TOOL || c.name === TODO_TOOL_CLAUDE_NAME)) {
        const block = parseTodoBlock(rec.assistant.text);
        if (block) {
          st.write(block);
          changed(st, s.info.overrides);
        }
      }
      if (!st.planned) st.callsWithoutPlan += calls.length;
    });
    engine.hooks.afterTurn.tap({ name: EXT_ID, stage: "STAGE_ENRICH" }, (rec) => {
      const st = stateOf(rec.session);
      if (st.settled()) changed(st, rec.session.info.overrides);
    });

    // the window: notes for the model (a person's edits, the reminder), each anchored after the row it came
    // after, so every later request carries it in the same place (the prompt cache keeps hitting)
    engine.hooks.contextBuild.tap({ name: EXT_ID, stage: "notes" }, (win, step) => {
      const s = step.session;
      const st = stateOf(s);
      const lastSeq = s.rows[s.rows.length - 1]?.seq ?? 0;
      const edited = st.takeEditNote();
      if (edited) st.anchor(lastSeq, edited);
      if (planning && s.info.parentId === undefined && !st.planned && st.callsWithoutPlan >= REMINDER_AFTER_CALLS && st.callsWithoutPlan - st.remindedAt >= REMINDER_AFTER_CALLS) {
        st.remindedAt = st.callsWithoutPlan;
        st.anchor(lastSeq, reminderText(st.callsWithoutPlan));
      }
      if (st.notes.length === 0) return win;
      const rows: Row[] = [];
      const notesAfter = new Map<number, string[]>();
      for (const n of st.notes) (notesAfter.get(n.afterSeq) ?? notesAfter.set(n.afterSeq, []).get(n.afterSeq)!).push(n.text);
      for (const r of win.rows) {
        rows.push(r);
        for (const text of notesAfter.get(r.seq) ?? []) rows.push({ role: "note", text, seq: 0, turn: r.turn, step: r.step, at: r.at } as NoteRow);
      }
      return { ...win, rows };
    });

    // the directive: how to keep the list (where the tool is offered)
    engine.hooks.modelRequest.tap({ name: EXT_ID, stage: "enrich" }, (req) => {
      if (!planning || !req.tools.some((t) => t.name === TODO_TOOL)) return req;
      return { ...req, system: [...req.system, DIRECTIVE] };
    });

    // the work-off: a root session that settles with open rows goes on, reporting its progress
    engine.hooks.stop.tap({ name: EXT_ID }, (sc) => {
      if (!planning || sc.session.info.parentId !== undefined) return undefined;
      const st = stateOf(sc.session);
      const c = st.counts();
      if (c.open === 0) return undefined;
      const next = st.next();
      return { continue: true, by: EXT_ID, reason: `${c.open} to-do${c.open === 1 ? " is" : "s are"} still open: ${next?.content ?? "?"}. Work on it, then update the list.`, progress: c };
    });

    ctx.services.tryGet("ledger")?.registerSection?.("Plan", (id) => {
      const st = states.get(id);
      if (!st || st.items.length === 0) return undefined;
      return [...renderTodoLines(st.items), ...(st.floor ? ["(the prompt: the model has not planned yet)"] : [])];
    });

    const routes = ctx.services.tryGet("routes");
    if (routes) for (const r of todosRoutes(service)) routes.add(r, ctx.id);

    ctx.registerSlash("plan", planSlash({ engine, service, planning, planModes }));
  },
};

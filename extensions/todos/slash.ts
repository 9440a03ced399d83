/**
 * `/plan`: `add <text>`, `done <n>`, `drop <n>`, `move <n> <m>`, `list` (or `show`) edit and show the list;
 * a bare `/plan` or `/plan <text>` enters plan mode (the plan-mode extension, when installed).
 */
import type { SlashHandler, SlashHost } from "../../kernel/api.js";
import type { EngineService, Session } from "../engine/api.js";
import type { PagerSlashHost } from "../session-commands/api.js";
import { TODO_EDIT_ERROR, TODO_MARKS, type PlanModeService, type TodoEdit, type TodoList, type TodosService } from "./api.js";

export const PLAN_USAGE = "usage: /plan add <text> | done <n> | drop <n> | move <n> <m> | list   (a bare /plan or /plan <text> enters plan mode)";

const VERBS: Record<string, "add" | "done" | "drop" | "move" | "list"> = {
  add: "add",
  done: "done",
  check: "done",
  complete: "done",
  drop: "drop",
  remove: "drop",
  rm: "drop",
  delete: "drop",
  move: "move",
  mv: "move",
  list: "list",
  show: "list",
  ls: "list",
};

/** The list as the user reads it: numbered rows with their checkboxes. */
export function describeList(list: TodoList): string {
  if (list.items.length === 0) return "no plan yet";
  const rows = list.items.map((i, n) => `${String(n + 1).padStart(2)}. [${TODO_MARKS[i.status]}] ${i.content}${i.by === "user" ? "  (you)" : ""}`);
  const open = list.items.filter((i) => i.by !== "floor" && (i.status === "pending" || i.status === "in_progress")).length;
  const head = list.floor ? "plan (the prompt; the model has not planned yet):" : `plan (${open} open):`;
  return [head, ...rows].join("\n");
}

/** A continuation prompt for a row added while the session was idle. */
export function continuationText(content: string): string {
  return `I added a to-do to the plan: "${content}". Please continue with the plan.`;
}

export function planSlash(deps: { engine: EngineService; service: TodosService; planning: boolean; planModes: readonly PlanModeService[] }): SlashHandler {
  return async (args: string, host: SlashHost) => {
    const session: Session | undefined = host.sessionId ? await deps.engine.openSession(host.sessionId).catch(() => undefined) : undefined;
    const words = args.trim().split(/\s+/).filter(Boolean);
    const verb = words[0] ? VERBS[words[0].toLowerCase()] : undefined;
    if (!verb) {
      // plan mode: a bare /plan, or /plan <description>
      const pm = deps.planModes[deps.planModes.length - 1];
      if (!pm) {
        host.reply(`/plan: plan mode is not installed (the plan-mode extension is not enabled)\n${PLAN_USAGE}`);
        return;
      }
      if (!session) {
        host.reply("/plan: no open session");
        return;
      }
      await pm.enter(session, args.trim() || undefined, host);
      return;
    }
    if (!session) {
      host.reply("/plan: no open session");
      return;
    }
    if (verb === "list") {
      host.reply(describeList(deps.service.get(session)));
      return;
    }
    const num = (w: string | undefined) => (w !== undefined && /^\d+$/.test(w) ? Number(w) : NaN);
    let edit: TodoEdit;
    if (verb === "add") {
      const text = args.trim().slice(words[0]!.length).trim();
      if (!text) return host.reply(`/plan add: what should the row say?\n${PLAN_USAGE}`);
      edit = { op: "add", content: text };
    } else if (verb === "move") {
      edit = { op: "move", from: num(words[1]), to: num(words[2]) };
      if (words.length !== 3 || Number.isNaN(edit.from) || Number.isNaN(edit.to)) return host.reply(`/plan move: two row numbers, e.g. /plan move 3 1\n${PLAN_USAGE}`);
    } else {
      const index = num(words[1]);
      if (words.length !== 2 || Number.isNaN(index)) return host.reply(`/plan ${verb}: one row number, e.g. /plan ${verb} 2\n${PLAN_USAGE}`);
      edit = { op: verb, index };
    }
    let list: TodoList;
    try {
      list = deps.service.edit(session, edit);
    } catch (e) {
      if ((e as { code?: unknown }).code === TODO_EDIT_ERROR) return host.reply(`/plan: ${(e as Error).message}`);
      throw e;
    }
    const p = host as Partial<PagerSlashHost>;
    const idle = typeof p.busy === "function" ? !p.busy() : session.ext.get("engine:busy") !== true;
    host.reply(`${describeList(list)}${idle ? "" : "\n(the model sees this on its next step)"}`);
    // a row added after the run finished is work: the run picks it back up for one more turn
    if (edit.op === "add" && idle && deps.planning && typeof p.prompt === "function") {
      void p.prompt(continuationText(list.items[list.items.length - 1]!.content)).catch(() => undefined);
    }
  };
}

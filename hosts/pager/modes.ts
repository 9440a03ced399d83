/**
 * The pager's modes: shift+tab cycles default → auto (acceptEdits) → plan (the plan agent) → back,
 * stopping at always-approve (bypassPermissions) too only when `pager.cycle_bypass` asks and managed
 * requirements do not lock it; ctrl+o and /always-approve toggle always-approve, /auto toggles auto.
 * A mode is the session's permission_mode override (or the plan agent): the permissions extension turns
 * it into rules layered last, so an always-approved call is allowed by a rule, never by a person's yes, and
 * the shell guard's asks and the dangerous floor still hold. No permissions service: no modes.
 */
import type { Session } from "../../extensions/engine/api.js";
import type { PermissionMode, PermissionsService } from "../../extensions/permissions/api.js";
import { AGENT_KEY, PLAN_AGENT, type PlanModeService } from "../../extensions/plan-mode/api.js";

export type PagerMode = "default" | "acceptEdits" | "plan" | "bypassPermissions";

/** What the status line says of a mode (nothing for default). */
export const MODE_LABEL: Record<PagerMode, string> = {
  default: "",
  acceptEdits: "⏵⏵ auto: edits run without asking",
  plan: "⏸ plan mode: editing is off",
  bypassPermissions: "⏵⏵⏵ always-approve",
};

export const BYPASS_LOCKED = "bypass is locked by managed settings";

export interface ModeSources {
  permissions?: Pick<PermissionsService, "modeOf" | "resolveMode">;
  planMode?: Pick<PlanModeService, "enter" | "active">;
  /** pager.cycle_bypass: shift+tab also stops at always-approve */
  cycleBypass: boolean;
}

/** A change's outcome: the mode in force, and what to tell the user. */
export interface ModeChange {
  mode: PagerMode;
  message: string;
}

export class PagerModes {
  constructor(private readonly src: ModeSources) {}

  get available(): boolean {
    return this.src.permissions !== undefined;
  }

  current(session: Session): PagerMode {
    if (this.src.planMode?.active(session) || session.info.overrides[AGENT_KEY] === PLAN_AGENT) return "plan";
    const m = this.src.permissions?.modeOf(session.info.overrides) ?? "default";
    return m === "acceptEdits" || m === "bypassPermissions" ? m : "default";
  }

  /** Why always-approve cannot be switched on (managed requirements), or undefined when it can. */
  bypassLock(): string | undefined {
    const r = this.src.permissions?.resolveMode("bypassPermissions");
    if (!r || r.mode === "bypassPermissions") return undefined;
    const file = /disabled by (.+); using/.exec(r.note ?? "")?.[1];
    return file ? `${BYPASS_LOCKED} (${file})` : BYPASS_LOCKED;
  }

  /** shift+tab: the next stop of the cycle. */
  async cycle(session: Session): Promise<ModeChange> {
    const now = this.current(session);
    const order: PagerMode[] = ["default", "acceptEdits"];
    if (this.src.planMode) order.push("plan");
    const lock = this.bypassLock();
    if (this.src.cycleBypass && !lock) order.push("bypassPermissions");
    const next = order[(order.indexOf(now) + 1) % order.length] ?? "default";
    const change = await this.set(session, next);
    // the stop the cycle skipped is said where it would have been
    if (lock && next === "default" && now !== "default") return { ...change, message: `${change.message} · ${lock}` };
    return change;
  }

  /** ctrl+o, /always-approve: always-approve on, or back to default when it is on. */
  async toggleAlwaysApprove(session: Session): Promise<ModeChange> {
    if (this.current(session) === "bypassPermissions") return this.set(session, "default");
    const lock = this.bypassLock();
    if (lock) return { mode: this.current(session), message: lock };
    return this.set(session, "bypassPermissions");
  }

  /** /auto: auto on, or back to default when it is on. */
  async toggleAuto(session: Session): Promise<ModeChange> {
    return this.set(session, this.current(session) === "acceptEdits" ? "default" : "acceptEdits");
  }

  async set(session: Session, mode: PagerMode): Promise<ModeChange> {
    const o = session.info.overrides;
    if (mode === "plan" && this.src.planMode) {
      await this.src.planMode.enter(session);
      return { mode: "plan", message: "plan mode: editing is off (shift+tab leaves it)" };
    }
    if (o[AGENT_KEY] === PLAN_AGENT) delete o[AGENT_KEY];
    const want: PermissionMode = mode === "plan" ? "default" : mode;
    const r = this.src.permissions?.resolveMode(want) ?? { mode: "default" as PermissionMode };
    o.permission_mode = r.mode;
    const got = this.current(session);
    return { mode: got, message: got === "default" ? "default mode: asks as your rules say" : MODE_LABEL[got].replace(/^\S+ /, "") };
  }
}

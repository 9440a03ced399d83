/**
 * Bounds: a spend cap (USD, from the model catalogue's prices times the providers' usage, which the engine
 * sums into session.totals.costUsd) and a clock (minutes per prompt). At a step boundary past either one
 * the engine.bound tap answers and the engine stops the run cleanly: a step-limited turn with stopped_by
 * "budget" or "time", not an error. Precedence: the session's value (run flag or /limits) > OC_MAX_USD /
 * OC_MAX_MINUTES > none. The same step three times in a row (text, calls, results) trips the doom-loop
 * stop (stopped_by "doom_loop"). The step cap (--max-steps) is the engine's own (rule 15). A run with a
 * clock ends its background jobs when its prompt ends (the "jobs" service). See docs/bounds.md.
 */
import type { ExtensionContext } from "../../kernel/api.js";
import type { EngineService, Session, StepRecord } from "../engine/api.js";
import type { StorageService } from "../storage/api.js";
import type { JobsService } from "../tools/api.js";
import { MINUTES_KEY, USD_KEY, type Bound, type BoundsService, type SessionLimits } from "./api.js";
import { formatUsd, parseBound } from "./kit/shared.js";

const EXT_ID = "bounds";
/** The same step this many times in a row trips the doom-loop stop. */
export const DOOM_LOOP_REPEATS = 3;

/** Per-session doom-loop state (per prompt): the last step's fingerprint and how many times in a row it came. */
interface LoopState {
  startedAt: number;
  last?: string;
  count: number;
  /** the repeated step's tool names, for the notice */
  tools?: string;
}

/**
 * A step's fingerprint: its text, each tool call (name, input) and each result (text, error flag); call
 * ids are left out. Undefined for a step without tool calls (an answer ends the repeat).
 */
function fingerprint(rec: StepRecord): string | undefined {
  if (rec.assistant.toolCalls.length === 0) return undefined;
  return JSON.stringify([rec.assistant.text, rec.assistant.toolCalls.map((c) => [c.name, c.input]), (rec.tools?.results ?? []).map((r) => [r.name, r.content, r.isError === true])]);
}

/** A bound's session slot. */
type BoundKey = typeof USD_KEY | typeof MINUTES_KEY;

function stored(session: Session, key: BoundKey): number | undefined {
  const v = session.info.overrides[key];
  return typeof v === "number" && Number.isFinite(v) && v > 0 ? v : undefined;
}

export function formatMinutes(m: number): string {
  return m < 1 ? `${Number((m * 60).toFixed(1))}s` : `${Number.isInteger(m) ? m : m.toFixed(2)} min`;
}

export default {
  activate(ctx: ExtensionContext) {
    const engine = ctx.services.get("engine");
    const storage = () => ctx.services.tryGet("storage");
    const warned = new Set<string>();
    const fromEnv = (name: string): number | undefined => {
      const raw = ctx.env[name];
      if (raw === undefined || raw.trim() === "") return undefined;
      const v = parseBound(raw);
      if (v === undefined && !warned.has(name)) {
        warned.add(name);
        ctx.log.warn(`${name}=${raw} is not a number above 0; ignored`);
      }
      return v;
    };
    const pick = (session: Session, key: BoundKey, env: string): Bound | undefined => {
      const s = stored(session, key);
      if (s !== undefined) return { value: s, source: "session" };
      const e = fromEnv(env);
      return e !== undefined ? { value: e, source: "env" } : undefined;
    };
    // A sub-agent (child session) runs within its root's bounds: its spend counts against the root's
    // budget and the root's clock is its clock. Sessions seen at a step boundary, by id, to find the root.
    const seen = new Map<string, Session>();
    /** the spend of a root's sub-agents (their own totals are not added to the root's) */
    const childSpend = new Map<string, number>();
    /** when the root's current prompt started */
    const rootStart = new Map<string, number>();
    const rootOf = (session: Session): Session => {
      let s = session;
      for (let i = 0; i < 32 && s.info.parentId !== undefined; i++) {
        const p = seen.get(s.info.parentId);
        if (!p) break;
        s = p;
      }
      return s;
    };
    const limits = (session: Session): SessionLimits => {
      const root = rootOf(session);
      const usd = pick(root, USD_KEY, "OC_MAX_USD");
      const minutes = pick(root, MINUTES_KEY, "OC_MAX_MINUTES");
      return { ...(usd ? { usd } : {}), ...(minutes ? { minutes } : {}), spentUsd: root.totals.costUsd + (childSpend.get(root.info.id) ?? 0) };
    };
    const loops = new WeakMap<Session, LoopState>();
    engine.hooks.afterStep.tap({ name: EXT_ID }, (rec) => {
      const st = loops.get(rec.ctx.session);
      if (st) {
        const f = fingerprint(rec);
        if (f !== undefined && f === st.last) st.count += 1;
        else {
          st.last = f;
          st.count = f === undefined ? 0 : 1;
          st.tools = rec.assistant.toolCalls.map((c) => c.name).join(", ");
        }
      }
      const s = rec.ctx.session;
      if (s.info.parentId === undefined) return;
      const root = rootOf(s);
      if (root === s) return;
      childSpend.set(root.info.id, (childSpend.get(root.info.id) ?? 0) + engine.models.cost(rec.ctx.model, rec.usage));
    });
    engine.hooks.sessionEnd.tap({ name: EXT_ID }, ({ session }) => {
      seen.delete(session.info.id);
      rootStart.delete(session.info.id);
      if (session.info.parentId === undefined) childSpend.delete(session.info.id);
    });
    // A run with a wall clock ends its background jobs (and its sub-agents') when its prompt ends; without
    // one they run on until they exit or job_kill stops them (a build, a watch, a server).
    engine.hooks.afterTurn.tap({ name: EXT_ID }, async (rec) => {
      const s = rec.session;
      if (s.info.parentId !== undefined) return;
      // a root turn closed at the step cap goes on in a fresh turn: the prompt has not ended
      if (rec.reason === "step_cap" && rec.stoppedBy === "steps") return;
      const clock = limits(s).minutes;
      if (!clock) return;
      const jobs = ctx.services.tryGet("jobs");
      const n = jobs ? await jobs.killSession(s.info.id) : 0;
      if (n > 0) engine.notice(s.info.id, "info", `${n} background job${n === 1 ? "" : "s"} ended with the run (it has a ${formatMinutes(clock.value)} clock)`);
    });
    const service: BoundsService = { limits };
    ctx.provide("bounds", service);

    engine.hooks.bound.tap({ name: EXT_ID }, (b) => {
      seen.set(b.session.info.id, b.session);
      const root = rootOf(b.session);
      if (root === b.session) rootStart.set(root.info.id, b.startedAt);
      // the doom loop: counted per prompt (a new prompt starts afresh)
      let st = loops.get(b.session);
      if (!st || st.startedAt !== b.startedAt) loops.set(b.session, (st = { startedAt: b.startedAt, count: 0 }));
      if (st.count >= DOOM_LOOP_REPEATS) {
        return { stoppedBy: "doom_loop", by: EXT_ID, reason: `the same tool call (${st.tools ?? "?"}) with the same result ${st.count} times in a row (doom loop)` };
      }
      const l = limits(b.session);
      if (l.usd && l.spentUsd >= l.usd.value) {
        return { stoppedBy: "budget", by: EXT_ID, reason: `spend ${formatUsd(l.spentUsd)} reached the ${formatUsd(l.usd.value)} budget (BudgetExceeded)` };
      }
      if (l.minutes) {
        const elapsed = (Date.now() - (rootStart.get(root.info.id) ?? b.startedAt)) / 60_000;
        if (elapsed >= l.minutes.value) {
          return { stoppedBy: "time", by: EXT_ID, reason: `the run reached its ${formatMinutes(l.minutes.value)} clock (TimeExceeded)` };
        }
      }
      return undefined;
    });

    const sessionFor = async (id: string | undefined): Promise<Session | undefined> => (id ? await engine.openSession(id).catch(() => undefined) : undefined);

    ctx.registerSlash("limits", async (args, host) => {
      const usage = "usage: /limits [usd <dollars>|off] [time <minutes>|off]";
      const session = await sessionFor(host.sessionId);
      if (!session) {
        host.reply("/limits: no open session");
        return;
      }
      const words = args.trim().split(/\s+/).filter(Boolean);
      if (words.length % 2 !== 0) {
        host.reply(`/limits: ${usage}`);
        return;
      }
      const changes: Array<[BoundKey, number | undefined]> = [];
      for (let i = 0; i < words.length; i += 2) {
        const what = words[i]!.toLowerCase();
        const raw = words[i + 1]!;
        const key = what === "usd" || what === "budget" || what === "spend" ? USD_KEY : what === "time" || what === "minutes" || what === "clock" ? MINUTES_KEY : undefined;
        if (!key) {
          host.reply(`/limits: unknown bound '${what}'\n${usage}`);
          return;
        }
        const v = raw.toLowerCase() === "off" ? undefined : parseBound(raw);
        if (v === undefined && raw.toLowerCase() !== "off") {
          host.reply(`/limits: ${what} must be a number above 0 or off (got '${raw}')\n${usage}`);
          return;
        }
        changes.push([key, v]);
      }
      for (const [key, v] of changes) {
        if (v === undefined) delete session.info.overrides[key];
        else session.info.overrides[key] = v;
      }
      if (changes.length) storage()?.saveInfo(session.info);
      host.reply(describeLimits(limits(session)));
    });
  },
};

/** The /limits answer: each bound with where it came from, and the spend so far. */
export function describeLimits(l: SessionLimits): string {
  const src = (b: Bound) => (b.source === "env" ? " (from the environment)" : "");
  return [
    `spend     ${formatUsd(l.spentUsd)}${l.usd ? ` / ${formatUsd(l.usd.value)}${src(l.usd)}` : " (no budget)"}`,
    `clock     ${l.minutes ? `${formatMinutes(l.minutes.value)} per run${src(l.minutes)}` : "none"}`,
  ].join("\n");
}

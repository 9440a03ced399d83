/** The host side of a script's `api`: each call checked (shape, limits), counted, and run through the run's engine view. */
import type { BuiltinRunContext, SessionOutcome } from "./api.js";
import type { HostOp } from "./sandbox.js";
import type { LiveRun } from "./run.js";
import { budgetSpent } from "./run.js";
import { checkSpec, newSession, sessionById, turn, type TurnHost } from "./turns.js";
import { PauseRun, WorkflowError } from "./errors.js";

/** A script's host calls per run (a runaway loop of cheap calls ends instead of filling the store). */
export const MAX_HOST_CALLS = 10_000;
/** api.sleep's longest single wait */
export const MAX_SLEEP_MS = 10 * 60_000;
export const MAX_PARALLEL = 16;

export function hostOps(ctx: BuiltinRunContext, run: LiveRun, opts: { defaultModel: string; log(text: string): void }): Record<string, HostOp> {
  const h: TurnHost = { engine: ctx.engine, project: ctx.project, defaultModel: opts.defaultModel, signal: ctx.signal, open: run.open, budgetSpent: () => budgetSpent(run) };
  let calls = 0;
  /** every call: counted, held while the run is paused, refused once it is stopping */
  const guard =
    (fn: HostOp): HostOp =>
    async (arg) => {
      if (++calls > MAX_HOST_CALLS) throw WorkflowError(`more than ${MAX_HOST_CALLS} host calls in one run`);
      if (run.gate) await run.gate.promise;
      if (ctx.signal.aborted) throw WorkflowError("the run was stopped");
      return fn(arg);
    };
  const one = async (raw: unknown, where: string): Promise<SessionOutcome> => {
    const spec = checkSpec(raw, where);
    const s = await newSession(h, spec);
    return turn(h, s, spec.prompt);
  };
  return {
    session: guard((a) => one(a, "api.session")),
    resume: guard(async (a) => {
      const { sessionId, prompt } = (a ?? {}) as { sessionId?: unknown; prompt?: unknown };
      if (typeof sessionId !== "string" || !sessionId) throw WorkflowError("api.resume(sessionId, prompt): sessionId must be a session id string");
      if (typeof prompt !== "string" || !prompt.trim()) throw WorkflowError("api.resume(sessionId, prompt): prompt must be a non-empty string");
      if (!run.sessions.has(sessionId)) throw WorkflowError(`api.resume: session ${sessionId} was not started by this run`);
      return turn(h, await sessionById(h, sessionId), prompt);
    }),
    parallel: guard(async (a) => {
      const { specs, opts: o } = (a ?? {}) as { specs?: unknown; opts?: { concurrency?: unknown } | null };
      if (!Array.isArray(specs)) throw WorkflowError("api.parallel(specs, { concurrency }): specs must be a list of { prompt, … }");
      specs.forEach((s, i) => checkSpec(s, `api.parallel: item ${i}`));
      const c = o?.concurrency === undefined ? 4 : Number(o.concurrency);
      if (!Number.isInteger(c) || c < 1 || c > MAX_PARALLEL) throw WorkflowError(`api.parallel: concurrency must be a whole number from 1 to ${MAX_PARALLEL}`);
      const out: SessionOutcome[] = new Array<SessionOutcome>(specs.length);
      let next = 0;
      const worker = async () => {
        while (next < specs.length) {
          const i = next++;
          out[i] = await one(specs[i], `api.parallel: item ${i}`);
        }
      };
      await Promise.all(Array.from({ length: Math.min(c, specs.length) }, worker));
      return out;
    }),
    progress: guard(async (a) => {
      ctx.emit({ progress: String(a).slice(0, 4000) });
      return undefined;
    }),
    budget: guard(async () => ({ limit: run.limit, spent: run.spent, remaining: run.limit === null ? null : Math.max(0, run.limit - run.spent) })),
    ask: guard(async (a) => {
      // headless: nobody answers; the run pauses with the question in its terminal body (exit 3)
      throw PauseRun("user_paused", { question: String(a).slice(0, 4000) });
    }),
    sleep: guard(async (a) => {
      const ms = Number(a);
      if (!Number.isFinite(ms) || ms < 0 || ms > MAX_SLEEP_MS) throw WorkflowError(`api.sleep(ms): ms must be a number from 0 to ${MAX_SLEEP_MS}`);
      await new Promise<void>((res) => {
        const t = setTimeout(res, ms);
        ctx.signal.addEventListener("abort", () => (clearTimeout(t), res()), { once: true });
      });
      return undefined;
    }),
    log: guard(async (a) => {
      opts.log(String(a).slice(0, 8000));
      return undefined;
    }),
  };
}

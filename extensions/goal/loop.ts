/**
 * The goal loop on the engine service: Plan (one read-only planner session) -> Work (one worker session,
 * resumed each round) -> Verify (a cold panel of read-only skeptic sessions with no worker history). It
 * converges only when no skeptic refutes any deliverable with a verdict that cites evidence.
 */
import type { EngineService, Session, SessionEvent } from "../engine/api.js";
import { isProviderBackOff } from "../workflows/kit.js";
import type { Deliverable, GoalOptions, GoalOutcome, GoalPhase, GoalSessions } from "./api.js";
import { gapKey, gapText, parsePlan, parseVerdict, PLANNER_SYSTEM, plannerPrompt, SKEPTIC_SYSTEM, skepticPrompt, WORKER_SYSTEM, workerFirstPrompt, workerGapsPrompt, type Refutation } from "./prompts.js";
import { GoalStopped } from "./errors.js";

/** What a body shows of the run at one moment (the CLI adds run_id, seq, at, status). */
export interface GoalState {
  phase: GoalPhase;
  round: number;
  deliverables: Deliverable[];
  gaps: string[];
  sessions: GoalSessions;
  budget: { limit: number | null; spent: number };
  progress?: string;
}

/** A stop that ends the loop with this outcome (budget spent, a failed request, an interrupt). */
const Stop = (outcome: GoalOutcome) => GoalStopped({ reason: outcome.error ?? outcome.status }, { data: outcome });

/** A provider error the engine gave up retrying because the provider asks us to back off. */
const backOff = isProviderBackOff;

export class GoalLoop {
  private readonly state: GoalState;
  private readonly ours = new Set<string>();
  private readonly live = new Set<AbortController>();
  private budgetHit = false;

  constructor(
    private readonly engine: EngineService,
    private readonly opts: GoalOptions,
    private readonly emit: (s: GoalState) => void,
  ) {
    this.state = { phase: "plan", round: 0, deliverables: [], gaps: [], sessions: { skeptics: [] }, budget: { limit: opts.budget, spent: 0 } };
  }

  snapshot(): GoalState {
    return { ...this.state, deliverables: [...this.state.deliverables], gaps: [...this.state.gaps], sessions: { ...this.state.sessions, skeptics: [...this.state.sessions.skeptics] }, budget: { ...this.state.budget } };
  }

  async run(): Promise<GoalOutcome> {
    // every model request of a session this run started counts 1 (a step is one request)
    const unsubscribe = this.engine.subscribe((e: SessionEvent) => {
      if (e.type !== "step_end" || !this.ours.has(e.sessionId)) return;
      this.state.budget.spent += 1;
      if (this.opts.budget !== null && this.state.budget.spent >= this.opts.budget) {
        this.budgetHit = true;
        for (const c of this.live) c.abort();
      }
    });
    const open: Session[] = [];
    try {
      return await this.loop(open);
    } catch (e) {
      if (GoalStopped.is(e) && e.data) return e.data;
      return { status: "failed", error: e instanceof Error ? e.message : String(e) };
    } finally {
      unsubscribe();
      for (const s of open) await this.engine.closeSession(s, "exit").catch(() => undefined);
    }
  }

  private update(fields: Partial<GoalState>): void {
    Object.assign(this.state, fields);
    this.emit(this.snapshot());
  }

  private async session(system: string, readOnly: boolean, open: Session[]): Promise<Session> {
    const s = await this.engine.createSession({ cwd: this.opts.project, model: this.opts.model, profile: { system }, ...(readOnly ? { overrides: { agent: "plan" } } : {}) });
    this.ours.add(s.info.id);
    open.push(s);
    this.opts.onSession?.(s);
    return s;
  }

  private spent(): boolean {
    return this.opts.budget !== null && this.state.budget.spent >= this.opts.budget;
  }

  private budgetStop(): Error {
    return Stop({ status: "budget_limited", error: `the budget of ${this.opts.budget} model calls is spent` });
  }

  /** One prompt on a session, within the run's signal and budget; its final text. */
  private async ask(session: Session, text: string): Promise<string> {
    if (this.opts.signal.aborted) throw Stop({ status: "cancelled", error: "interrupted" });
    if (this.spent()) throw this.budgetStop();
    const ctl = new AbortController();
    const onAbort = () => ctl.abort();
    this.opts.signal.addEventListener("abort", onAbort, { once: true });
    this.live.add(ctl);
    try {
      const r = await this.engine.prompt(session, text, { signal: ctl.signal });
      if (r.reason === "error") {
        this.state.budget.spent += 1; // the request that failed for good was made too
        throw Stop({ status: backOff(r.error) ? "back_off_paused" : "failed", error: r.error ?? "the model request failed" });
      }
      if (r.reason === "aborted") throw this.opts.signal.aborted ? Stop({ status: "cancelled", error: "interrupted" }) : this.budgetHit ? this.budgetStop() : Stop({ status: "cancelled", error: "interrupted" });
      if (r.reason === "blocked") throw Stop({ status: "blocked", error: r.error ?? "a hook blocked the prompt" });
      return r.text;
    } finally {
      this.live.delete(ctl);
      this.opts.signal.removeEventListener("abort", onAbort);
    }
  }

  private async plan(open: Session[]): Promise<Deliverable[]> {
    this.update({ phase: "plan", round: 0, progress: "planning deliverables" });
    const planner = await this.session(PLANNER_SYSTEM, true, open);
    this.state.sessions.planner = planner.info.id;
    let parsed = parsePlan(await this.ask(planner, plannerPrompt(this.opts.objective)));
    // a malformed plan gets one retry on the same session, then the run fails
    if ("error" in parsed) parsed = parsePlan(await this.ask(planner, plannerPrompt(this.opts.objective, parsed.error)));
    if ("error" in parsed) throw Stop({ status: "failed", error: `the planner's answer is not a usable plan: ${parsed.error}` });
    return parsed.deliverables;
  }

  private async verify(round: number, deliverables: Deliverable[], open: Session[]): Promise<Refutation[]> {
    // a panel the budget cannot pay for in full is not started (no half-verified round)
    if (this.opts.budget !== null && this.opts.budget - this.state.budget.spent < this.opts.skeptics) throw this.budgetStop();
    // every skeptic is a fresh session: it has seen nothing of the worker's history
    const panel = await Promise.all(Array.from({ length: this.opts.skeptics }, () => this.session(SKEPTIC_SYSTEM, true, open)));
    this.state.sessions.skeptics.push(...panel.map((s) => s.info.id));
    this.update({ phase: "verify", progress: `round ${round}: ${panel.length} skeptics verifying` });
    // one skeptic's stop (a failed request, the budget) stops the others; every prompt has ended before the sessions close
    let first: unknown;
    const settled = await Promise.allSettled(
      panel.map((s) =>
        this.ask(s, skepticPrompt(this.opts.objective, deliverables, round)).catch((e: unknown) => {
          if (first === undefined) {
            first = e;
            for (const c of this.live) c.abort();
          }
          throw e;
        }),
      ),
    );
    if (first !== undefined) throw first;
    const verdicts = settled.map((r) => (r.status === "fulfilled" ? r.value : ""));
    const seen = new Set<string>();
    const out: Refutation[] = [];
    for (const v of verdicts) {
      for (const r of parseVerdict(v, deliverables)) {
        const g = gapText(r);
        if (seen.has(g)) continue;
        seen.add(g);
        out.push(r);
      }
    }
    for (const s of panel) {
      await this.engine.closeSession(s, "exit").catch(() => undefined);
      open.splice(open.indexOf(s), 1);
    }
    return out;
  }

  private async loop(open: Session[]): Promise<GoalOutcome> {
    const deliverables = await this.plan(open);
    this.update({ deliverables, progress: `planned ${deliverables.length} deliverables` });
    const worker = await this.session(WORKER_SYSTEM, false, open);
    this.state.sessions.worker = worker.info.id;
    let previous: string | undefined;
    for (let round = 1; round <= this.opts.maxRounds; round++) {
      this.update({ phase: "work", round, progress: `round ${round}: working` });
      await this.ask(worker, round === 1 ? workerFirstPrompt(this.opts.objective, deliverables) : workerGapsPrompt(round, this.state.gaps));
      const refuted = await this.verify(round, deliverables, open);
      const gaps = refuted.map(gapText);
      if (gaps.length === 0) {
        this.state.gaps = [];
        this.state.progress = `round ${round}: no skeptic refuted any deliverable`;
        return { status: "complete", result: { rounds: round, deliverables: deliverables.map((d) => d.id) } };
      }
      const key = gapKey(gaps);
      this.state.gaps = gaps;
      if (key === previous) {
        this.state.progress = `round ${round}: the same gaps as round ${round - 1}`;
        return { status: "no_progress_paused", error: `two rounds ended with the same ${gaps.length} gap(s)` };
      }
      previous = key;
      this.update({ progress: `round ${round}: ${gaps.length} gap(s) refuted` });
    }
    return { status: "no_progress_paused", error: `${this.opts.maxRounds} rounds without convergence (goal.max_rounds)` };
  }
}

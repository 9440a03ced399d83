/**
 * Point 7, `supervisor` (jev.supervisor), root sessions only:
 *   - engine.stop (a clean finish): is the goal complete? how much progress? In act a finish is continued
 *     at most jev.supervisor_max_continuations times per human prompt, only when clearly not complete and
 *     the progress is real;
 *   - engine.afterStep: every jev.supervisor_every_steps settled steps, the last six steps → a loop
 *     question (in the background); in act a loop without progress sends one steer note per prompt
 *     (the next step's window preface).
 * It never stops a run and never moves a bound. Shadow: records what it would have done, nothing else.
 */
import type { ExtensionContext } from "../../../kernel/api.js";
import type { Session, StepRecord } from "../../engine/api.js";
import type { JevPointModule, JevService } from "../api.js";
import { lastPrompt, rowOf } from "./common.js";
import { finishVerdict, FINISH_QUESTIONS, loopVerdict, LOOP_QUESTIONS, progressMass } from "./supervisor-policy.js";

const POINT = "supervisor" as const;
const clip = (s: string, n: number) => (s.length <= n ? s : `${s.slice(0, n / 2)}…${s.slice(-n / 2)}`);

interface Sup {
  steps: Array<{ text: string; calls: string[]; results: Array<{ content: string; error: boolean }> }>;
  settled: number;
  continued: number;
  steered: boolean;
  pendingSteer?: string;
}

export function install(ctx: ExtensionContext, jev: JevService): void {
  const engine = ctx.services.tryGet("engine");
  if (!engine) return;
  const states = new WeakMap<Session, Sup>();
  const sup = (s: Session): Sup => {
    let v = states.get(s);
    if (!v) states.set(s, (v = { steps: [], settled: 0, continued: 0, steered: false }));
    return v;
  };
  const thr = (n: string, f: number) => jev.threshold(n, f);

  engine.hooks.userPrompt.tap({ name: "jev" }, (p, t) => {
    const s = sup(t.session);
    s.continued = 0;
    s.steered = false;
    s.pendingSteer = undefined;
    return p;
  });

  engine.hooks.afterStep.tap({ name: "jev" }, (rec: StepRecord) => {
    const session = rec.ctx.session;
    const mode = jev.mode(POINT);
    if (mode === "off" || session.info.parentId !== undefined) return;
    const s = sup(session);
    s.steps.push({
      text: clip(rec.assistant.text, 600),
      calls: rec.assistant.toolCalls.map((c) => clip(`${c.name} ${JSON.stringify(c.input)}`, 400)),
      results: (rec.tools?.results ?? []).map((r) => ({ content: clip(r.content, 600), error: r.isError })),
    });
    if (s.steps.length > 6) s.steps.splice(0, s.steps.length - 6);
    if (rec.assistant.toolCalls.length === 0) return;
    s.settled += 1;
    if (s.settled % jev.settings().supervisorEverySteps !== 0) return;
    const sid = session.info.id;
    const state = { goal: lastPrompt(session), steps: s.steps.map((x) => ({ ...x })) };
    // in the background: the answer steers a later step, never this one
    void jev.ask({ point: POINT, sessionId: sid, state, questions: LOOP_QUESTIONS }).then((res) => {
      const v = res.ok ? loopVerdict(res.answers, thr) : "none";
      const act = mode === "act" && v === "steer" && !s.steered;
      jev.record(rowOf(POINT, sid, mode, res, v, "none", res.ok ? (mode === "shadow" ? "shadow" : act ? "acted" : "fallback") : undefined, jev.settings().model));
      if (act) {
        s.steered = true;
        s.pendingSteer = "jev supervisor: the last steps repeat without progress. Step back, re-read the goal and the errors, and try a different approach.";
      }
    });
  });

  engine.hooks.contextBuild.tap({ name: "jev" }, (w, step) => {
    const s = states.get(step.session);
    if (!s?.pendingSteer) return w;
    const note = s.pendingSteer;
    s.pendingSteer = undefined;
    return { ...w, preface: [...w.preface, note] };
  });

  engine.hooks.stop.tap({ name: "jev" }, async (stop) => {
    const session = stop.session;
    const mode = jev.mode(POINT);
    if (mode === "off" || session.info.parentId !== undefined || stop.signal.aborted) return undefined;
    const s = sup(session);
    const sid = session.info.id;
    const state = { goal: lastPrompt(session), final_answer: clip(stop.lastAssistantText, 4000), steps: s.steps.map((x) => ({ ...x })) };
    const ask = { point: POINT, sessionId: sid, state, questions: FINISH_QUESTIONS };
    if (mode === "shadow") {
      void jev.ask(ask).then((res) => jev.record(rowOf(POINT, sid, mode, res, res.ok ? finishVerdict(res.answers, thr) : "finish", "finish", undefined, jev.settings().model)));
      return undefined;
    }
    const res = await jev.ask({ ...ask, signal: stop.signal });
    const v = res.ok ? finishVerdict(res.answers, thr) : "finish";
    const can = s.continued < jev.settings().supervisorMaxContinuations;
    const act = v === "continue" && can;
    jev.record(rowOf(POINT, sid, mode, res, v === "continue" && !can ? "continue (cap reached)" : v, "finish", res.ok ? (act ? "acted" : "fallback") : undefined, jev.settings().model));
    if (!act || !res.ok) return undefined;
    s.continued += 1;
    const c = res.answers.complete?.type === "noul" ? res.answers.complete.noul : 0;
    return {
      continue: true as const,
      by: "jev",
      reason: `jev supervisor: the goal does not look complete yet (complete=${c.toFixed(2)}, progress=${progressMass(res.answers.progress).toFixed(2)}); carry on with what remains of it, or say plainly why it cannot be done.`,
    };
  });
}

export const supervisor: JevPointModule = {
  point: POINT,
  install,
  questions: { ...FINISH_QUESTIONS, ...Object.fromEntries(Object.entries(LOOP_QUESTIONS).map(([k, v]) => [`loop_${k}`, v])) },
  verdict: (answers, thr) => ("loop" in answers ? loopVerdict(answers, thr) : finishVerdict(answers, thr)),
};

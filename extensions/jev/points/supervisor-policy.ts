/** Point 7's questions and policy (pure). Scores are on the three-level scale 0–2. */
import type { JevAnswer, JevQuestion } from "../api.js";

const PROGRESS: JevQuestion = {
  type: "score",
  instructions: "How much real progress towards `goal` do the steps in `steps` show?",
  criteria: ["none: nothing that moves the goal forward", "incremental: some useful work", "substantial: most of the work is done"],
};

export const FINISH_QUESTIONS: Readonly<Record<string, JevQuestion>> = {
  complete: {
    type: "noul",
    instructions: "Does `final_answer`, with the work shown in `steps`, complete everything `goal` asked for?",
    criteria: { true: "every part of the goal is done", false: "some part of the goal is clearly not done yet" },
  },
  progress: PROGRESS,
};

export const LOOP_QUESTIONS: Readonly<Record<string, JevQuestion>> = {
  loop: {
    type: "noul",
    instructions: "Do the steps in `steps` repeat the same actions without getting closer to `goal`?",
    criteria: { true: "the steps repeat without progress", false: "the steps make progress or try new things" },
  },
  progress: PROGRESS,
};

/** 1 − P(level 0): the progress mass (docs/jev.md: supervisor_progress_confidence reads this, not confidence). */
export function progressMass(a: JevAnswer | undefined): number {
  return a?.type === "score" ? 1 - (a.probabilities[0] ?? 1) : 0;
}

/** A clean finish: "continue" only when clearly not complete and progress is real; else "finish". */
export function finishVerdict(answers: Readonly<Record<string, JevAnswer>>, thr: (name: string, fallback: number) => number): "continue" | "finish" {
  const c = answers.complete?.type === "noul" ? answers.complete.noul : 1;
  return c < thr("supervisor_complete", 0.3) && progressMass(answers.progress) >= thr("supervisor_progress_confidence", 0.6) ? "continue" : "finish";
}

/** Every N steps: "steer" when the steps loop without progress; else "none". */
export function loopVerdict(answers: Readonly<Record<string, JevAnswer>>, thr: (name: string, fallback: number) => number): "steer" | "none" {
  const l = answers.loop?.type === "noul" ? answers.loop.noul : 0;
  const p = answers.progress?.type === "score" ? answers.progress.score : 2;
  return l >= thr("supervisor_loop", 0.7) && p < thr("supervisor_loop_progress", 1) ? "steer" : "none";
}

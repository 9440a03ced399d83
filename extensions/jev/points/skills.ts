/**
 * Point 6, `skills`: which skills to list for a prompt. At the first step of a prompt, when more than
 * SKILLS_CODING_CAP skills are model-invocable, Jev is asked a noul (needs_skill) and a wide choice over the
 * catalogue (options "name: description"). The policy lists the skills at or above the floor
 * (jev.thresholds.skills_floor, 0.02), most likely first; on a coding prompt (needs_skill below
 * jev.thresholds.needs_skill, 0.5) at most 3. act: the `<available_skills>` block lists only the kept ones
 * (SkillsService.listing(only)); sticky like point 5 (advise.ts). shadow: every prompt asked in the
 * background and recorded; nothing changes. Taps engine.contextBuild at 150, after the skills extension
 * appended its block (STAGE_ENRICH), and replaces that block.
 */
import type { ExtensionContext } from "../../../kernel/api.js";
import type { ContextWindow, StepContext } from "../../engine/api.js";
import type { Skill } from "../../skills/api.js";
import type { JevAnswer, JevQuestion, JevService, JevState } from "../api.js";
import { clip, decide, promptOfTurn, recordSticky, stickyStep, type KeepSet, type Verdict } from "./advise.js";

export const SKILLS_QUESTIONS: Readonly<Record<string, JevQuestion>> = {
  needs_skill: {
    type: "noul",
    instructions: "Does the user's request in `prompt` call for one of the packaged skills in `catalogue` (a procedure or a domain the agent would load instructions for), rather than ordinary coding?",
    criteria: { true: "the request matches a skill's purpose", false: "an ordinary coding request; no skill is needed" },
  },
  skills: {
    type: "choice",
    instructions: "Which skill (the options, each `name: description`) is most relevant to the user's request in `prompt`?",
    options: ["<name>: <description>, one per model-invocable skill, up to 255"],
  },
};

export const SKILLS_CODING_CAP = 3;
export type SkillsThresholds = {
  /** a skill's probability needed to be listed (default 0.02) */
  skills_floor: number;
  /** the noul under which a prompt is a coding prompt, capped at SKILLS_CODING_CAP (default 0.5) */
  needs_skill: number;
};
export const SKILLS_DEFAULTS: SkillsThresholds = { skills_floor: 0.02, needs_skill: 0.5 };

export function skillOption(s: Pick<Skill, "qualifiedName" | "description">): string {
  const d = s.description.replace(/\s+/g, " ").trim();
  return `${s.qualifiedName}: ${d.length > 150 ? `${d.slice(0, 147)}...` : d}`;
}
const nameOf = (option: string): string => option.slice(0, Math.max(0, option.indexOf(":"))) || option;

/** The policy: skills at or above the floor, most likely first; a coding prompt keeps at most 3. */
export function skillsPolicy(answers: Readonly<Record<string, JevAnswer>>, t: SkillsThresholds = SKILLS_DEFAULTS): Verdict<string[]> {
  const need = answers.needs_skill;
  const choice = answers.skills;
  if (!need || need.type !== "noul" || !choice || choice.type !== "choice") return { verdict: "all" };
  const coding = need.noul < t.needs_skill;
  let picked = Object.entries(choice.probabilities)
    .filter(([, p]) => p >= t.skills_floor)
    .sort((a, b) => b[1] - a[1])
    .map(([o]) => nameOf(o));
  if (coding) picked = picked.slice(0, SKILLS_CODING_CAP);
  return { verdict: `${coding ? "coding" : "skill"};skills:${picked.join(",")}`, value: picked };
}

export function skillsState(prompt: string, catalogue: readonly Skill[]): JevState {
  return { prompt: clip(prompt, 8_000), catalogue: catalogue.map((s) => s.qualifiedName) };
}

interface SkillsSession extends KeepSet {
  turn?: number;
}
const KEY = "jev:skills";
const stateOf = (s: { ext: Map<string, unknown> }): SkillsSession => {
  let st = s.ext.get(KEY) as SkillsSession | undefined;
  if (!st) s.ext.set(KEY, (st = {}));
  return st;
};

const BLOCK_OPEN = "<available_skills>";

export function installSkills(ctx: ExtensionContext, jev: JevService): void {
  const engine = ctx.services.get("engine");
  const skills = () => ctx.services.tryGet("skills");
  engine.hooks.contextBuild.tap({ name: ctx.id, stage: "recall" }, async (win: ContextWindow, step: StepContext): Promise<ContextWindow> => {
    const mode = jev.mode("skills");
    const svc = skills();
    const at = win.system.findIndex((s) => s.startsWith(BLOCK_OPEN));
    if (mode === "off" || !svc || at < 0) return win;
    const st = stateOf(step.session);
    const catalogue = svc.list().filter((s) => s.modelInvocable);
    if (step.step === 1 && st.turn !== step.turn && catalogue.length > SKILLS_CODING_CAP) {
      st.turn = step.turn;
      const prompt = promptOfTurn(step.session.rows, step.turn) ?? "";
      const sid = step.session.info.id;
      const sticky = mode === "act" ? stickyStep(st, prompt) : "decide";
      if (sticky === "reuse") recordSticky(jev, "skills", sid, prompt, st.names ?? []);
      else {
        const offered = catalogue.slice(0, 255);
        const t: SkillsThresholds = { skills_floor: jev.threshold("skills_floor", SKILLS_DEFAULTS.skills_floor), needs_skill: jev.threshold("needs_skill", SKILLS_DEFAULTS.needs_skill) };
        const d = await decide(jev, {
          point: "skills",
          sessionId: sid,
          state: skillsState(prompt, offered),
          questions: { needs_skill: SKILLS_QUESTIONS.needs_skill!, skills: { ...(SKILLS_QUESTIONS.skills as Extract<JevQuestion, { type: "choice" }>), options: offered.map(skillOption) } },
          baseline: "all",
          policy: (a) => skillsPolicy(a, t),
          signal: step.signal,
        });
        if (d.value) {
          st.names ??= new Set();
          for (const n of d.value) st.names.add(n);
        }
      }
    }
    if (mode !== "act" || !st.names) return win;
    const block = svc.listing([...st.names]);
    const system = [...win.system];
    if (block) system[at] = block;
    else system.splice(at, 1);
    return { ...win, system };
  });
}

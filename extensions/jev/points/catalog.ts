/**
 * Points 2, 3, 5 and 6 for `jev questions --json` and `jev verdicts`: each point's questions (choice
 * options are filled per decision: block labels, excerpt labels, tool and skill options), its policy
 * `(answers, thresholds) => verdict` and its default thresholds (jev.thresholds keys).
 */
import type { JevAnswer, JevPoint, JevPointModule, JevQuestion } from "../api.js";
import { installOutput, OUTPUT_DEFAULTS, OUTPUT_QUESTIONS, outputPolicy } from "./output.js";
import { installRecall, RECALL_DEFAULTS, RECALL_QUESTIONS, recallPolicy } from "./recall.js";
import { installSkills, SKILLS_DEFAULTS, SKILLS_QUESTIONS, skillsPolicy } from "./skills.js";
import { installToolTiers, TOOL_TIERS_DEFAULTS, TOOL_TIERS_QUESTIONS, toolTiersPolicy } from "./tool-tiers.js";

export interface PointCatalogEntry {
  questions: Readonly<Record<string, JevQuestion>>;
  thresholds: Readonly<Record<string, number>>;
  /** the verdict string a decision row carries, from recorded answers (missing thresholds take the defaults) */
  verdict(answers: Readonly<Record<string, JevAnswer>>, thresholds?: Readonly<Record<string, number>>): string;
}

export const PART2_POINTS: Readonly<Partial<Record<JevPoint, PointCatalogEntry>>> = {
  output: { questions: OUTPUT_QUESTIONS, thresholds: OUTPUT_DEFAULTS, verdict: (a, t) => outputPolicy(a, { ...OUTPUT_DEFAULTS, ...t }).verdict },
  recall: { questions: RECALL_QUESTIONS, thresholds: RECALL_DEFAULTS, verdict: (a, t) => recallPolicy(a, { ...RECALL_DEFAULTS, ...t }).verdict },
  tool_tiers: { questions: TOOL_TIERS_QUESTIONS, thresholds: TOOL_TIERS_DEFAULTS, verdict: (a, t) => toolTiersPolicy(a, { ...TOOL_TIERS_DEFAULTS, ...t }).verdict },
  skills: { questions: SKILLS_QUESTIONS, thresholds: SKILLS_DEFAULTS, verdict: (a, t) => skillsPolicy(a, { ...SKILLS_DEFAULTS, ...t }).verdict },
};

/** The same four points as the layer installs them (points/all.ts): thresholds read through the service. */
function moduleOf(point: JevPoint, entry: PointCatalogEntry, install: JevPointModule["install"]): JevPointModule {
  return {
    point,
    install,
    questions: entry.questions,
    verdict: (answers, threshold) => entry.verdict(answers, Object.fromEntries(Object.entries(entry.thresholds).map(([k, v]) => [k, threshold(k, v)]))),
  };
}

export const output = moduleOf("output", PART2_POINTS.output!, installOutput);
export const recall = moduleOf("recall", PART2_POINTS.recall!, installRecall);
export const toolTiers = moduleOf("tool_tiers", PART2_POINTS.tool_tiers!, installToolTiers);
export const skills = moduleOf("skills", PART2_POINTS.skills!, installSkills);

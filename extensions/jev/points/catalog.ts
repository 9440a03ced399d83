/**
 * Points 2, 3, 5 and 6 for `jev questions --json` and `jev verdicts`: each point's questions (choice
 * options are filled per decision: block labels, excerpt labels, tool and skill options), its policy
 * `(answers, thresholds) => verdict` and its default thresholds (jev.thresholds keys).
 */
import type { JevAnswer, JevPoint, JevQuestion } from "../api.js";
import { OUTPUT_DEFAULTS, OUTPUT_QUESTIONS, outputPolicy } from "./output.js";
import { RECALL_DEFAULTS, RECALL_QUESTIONS, recallPolicy } from "./recall.js";
import { SKILLS_DEFAULTS, SKILLS_QUESTIONS, skillsPolicy } from "./skills.js";
import { TOOL_TIERS_DEFAULTS, TOOL_TIERS_QUESTIONS, toolTiersPolicy } from "./tool-tiers.js";

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

/** The skills extension's coded errors (each defined once here). */
import { defineError } from "../../kernel/api.js";

export const SkillsTrustMissing = defineError("skills", "OC_ERR_SKILLS_NO_TRUST", "the trust store is not available (is the trust extension disabled?)", { hint: "oceancode inspect shows whether the trust extension is on" });
/** `setEnabled` was given a name no skill has, or one that more than one skill has; `data.candidates` are the near names. */
export const SkillUnknown = defineError("skills", "OC_ERR_SKILL_UNKNOWN", "{message}").withData<{ candidates: string[] }>();
export const SkillAmbiguous = defineError("skills", "OC_ERR_SKILL_AMBIGUOUS", "{message}").withData<{ candidates: string[] }>();

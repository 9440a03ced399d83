/** Implementation published by the kit `oceancode/kit/skills` (moved out of extensions/skills/api.ts, which keeps the types). */
import { ECOSYSTEM_IDS, SKILL_AMBIGUOUS, SKILL_UNKNOWN, type SkillNameError } from "../api.js";

/** `<tier>.<eco>:<name>`, e.g. `user.claude_code:agents-sdk`. */
export function stableId(tier: string, ecosystem: string, name: string): string {
  return `${tier}.${ECOSYSTEM_IDS[ecosystem] ?? ecosystem.replace(/[^A-Za-z0-9]+/g, "_")}:${name}`;
}

/** Is this an error `setEnabled` throws for an unknown or ambiguous name (matched by code)? */
export function isSkillNameError(e: unknown): e is SkillNameError {
  const c = typeof e === "object" && e !== null ? (e as { code?: unknown }).code : undefined;
  return (c === SKILL_AMBIGUOUS || c === SKILL_UNKNOWN) && Array.isArray((e as { candidates?: unknown }).candidates);
}

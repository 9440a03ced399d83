/**
 * The enable fold: whether a skill or command is offered at all (the guide's "Enable is not trust").
 * Four tiers, the first that turns an item off wins, so a project can disable a skill but never
 * re-enable one the user disabled:
 *   1. everything off   the per-project master switch (trust.json `everything_off`)
 *   2. plugin           the item's plugin is disabled
 *   3. user             ~/.oceancode/skill-state.json `disabled` (stable ids; a bare name matches every copy)
 *   4. project          the `skills` config section: `disabled`, then `mode: "allowlist"` + `enabled`
 * An explicit per-project enable (trust.json `enabled_skills`) beats tier 4 only.
 * Pure: the inputs are read by the caller (state.ts), so the fold is tested without files.
 */
import type { SkillDisabledReason } from "./api.js";

/** The `skills` config section (`.oceancode/oceancode.json`). */
export interface SkillsPolicy {
  mode?: "all" | "allowlist";
  /** ids or bare names kept in the allowlist mode */
  enabled?: string[];
  /** ids or bare names the project turns off */
  disabled?: string[];
}

export interface EnableInputs {
  everythingOff: boolean;
  /** skill-state.json `disabled` */
  userDisabled: readonly string[];
  /** trust.json `enabled_skills` for this project */
  explicitEnabled: readonly string[];
  policy: SkillsPolicy;
}

/** What the fold needs of one item. */
export interface EnableSubject {
  id: string;
  /** the bare name */
  name: string;
  plugin?: string;
  /** false when the item's plugin is disabled */
  pluginEnabled?: boolean;
}

export type EnableState = { enabled: true } | { enabled: false; reason: SkillDisabledReason };

/** Does a store or policy entry name this item? An id, the bare name (every copy), or `<plugin>:<name>`. */
export function entryMatches(entry: string, s: EnableSubject): boolean {
  const e = entry.trim().replace(/^\//, "");
  return e === s.id || e === s.name || (s.plugin !== undefined && e === `${s.plugin}:${s.name}`);
}

const named = (list: readonly string[] | undefined, s: EnableSubject): boolean => (list ?? []).some((e) => entryMatches(e, s));

export function foldEnable(s: EnableSubject, inputs: EnableInputs): EnableState {
  if (inputs.everythingOff) return { enabled: false, reason: "everything off" };
  if (s.pluginEnabled === false) return { enabled: false, reason: "disabled (plugin)" };
  if (named(inputs.userDisabled, s)) return { enabled: false, reason: "disabled (user)" };
  if (named(inputs.explicitEnabled, s)) return { enabled: true };
  if (named(inputs.policy.disabled, s)) return { enabled: false, reason: "disabled (project)" };
  if (inputs.policy.mode === "allowlist" && !named(inputs.policy.enabled, s)) return { enabled: false, reason: "not in allowlist" };
  return { enabled: true };
}

/**
 * The user-tier store after enabling `target` (one of `all`): its id is removed, and a legacy bare-name
 * entry that also named it is replaced by the ids of the other copies, so they stay disabled.
 */
export function userEnable(disabled: readonly string[], target: EnableSubject, all: readonly EnableSubject[]): string[] {
  const out: string[] = [];
  for (const e of disabled) {
    if (!entryMatches(e, target)) {
      out.push(e);
      continue;
    }
    if (e === target.id) continue;
    for (const other of all) if (other.id !== target.id && entryMatches(e, other) && !out.includes(other.id)) out.push(other.id);
  }
  return out;
}

/** The user-tier store after disabling `target`: its stable id is added once. */
export function userDisable(disabled: readonly string[], target: EnableSubject): string[] {
  return disabled.includes(target.id) ? [...disabled] : [...disabled, target.id];
}

/**
 * Items a user-typed name picks: an exact stable id; else every item with that bare name (more than one
 * id is the caller's "ambiguous"); else a qualified name (`repo:review`, `<plugin>:<name>`).
 */
export function pick<T extends EnableSubject & { qualifiedName: string }>(items: readonly T[], raw: string): T[] {
  const name = raw.trim().replace(/^\//, "");
  const exact = items.filter((s) => s.id === name);
  if (exact.length) return exact;
  const bare = items.filter((s) => s.name === name);
  if (bare.length) return bare;
  return items.filter((s) => s.qualifiedName === name || (s.plugin !== undefined && `${s.plugin}:${s.name}` === name));
}

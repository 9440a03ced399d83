/**
 * The published contract `oceancode/api/skills`.
 *
 * Skills (`skills/<dir>/SKILL.md`) and commands (`commands/*.md`) found by the discovery walk's reader
 * "skills" at every tier (local, repo, user, plugin) and in every ecosystem's root (.oceancode, .claude,
 * .opencode, .grok). One catalog, resolved with the collision rule: a unique name stays bare; colliding
 * members are qualified `<tier>:<name>` (`<tier>.<eco>:<name>` when one tier has two); the bare name runs
 * the narrowest copy. Plugin items are always `<plugin>:<name>`. Every item also has a stable id
 * `<tier>.<eco>:<name>` (`user.claude_code:agents-sdk`, `local.ocean_code:tdd`, `repo.open_code:deep`),
 * the same whether or not the name collides.
 */

export type SkillKind = "skill" | "command";

/** How the stable ids spell the walk's ecosystems; an ecosystem not listed is spelled as the walk names it. */
export const ECOSYSTEM_IDS: Readonly<Record<string, string>> = {
  oceancode: "ocean_code",
  claude: "claude_code",
  opencode: "open_code",
  grok: "grok_build",
};

/** `<tier>.<eco>:<name>`, e.g. `user.claude_code:agents-sdk`. */
export function stableId(tier: string, ecosystem: string, name: string): string {
  return `${tier}.${ECOSYSTEM_IDS[ecosystem] ?? ecosystem.replace(/[^A-Za-z0-9]+/g, "_")}:${name}`;
}

/** The frontmatter keys the catalog understands (Claude Code's names); others are kept in `extra`. */
export interface SkillFrontmatter {
  name?: string;
  description?: string;
  "disable-model-invocation"?: boolean;
  "user-invocable"?: boolean;
  "allowed-tools"?: string[];
  "argument-hint"?: string;
  extra: Record<string, unknown>;
}

export interface Skill {
  kind: SkillKind;
  /** the bare name (frontmatter `name`, else the directory / file name) */
  name: string;
  /** what the model and the user type: bare when unique, else `<tier>:<name>`; plugin items `<plugin>:<name>` */
  qualifiedName: string;
  /** `<tier>.<eco>:<name>` */
  id: string;
  tier: string;
  ecosystem: string;
  plugin?: string;
  /** the SKILL.md or command file */
  file: string;
  /** the skill's directory (`${CLAUDE_SKILL_DIR}`); for a command, the folder its file is in */
  dir: string;
  description: string;
  argumentHint?: string;
  allowedTools?: string[];
  /** false: the model never sees it (listing and tool); the user can still type it */
  modelInvocable: boolean;
  /** false: for the model only (kept out of the `/` popup) */
  userInvocable: boolean;
  /** a narrower copy with the same bare name won the bare name */
  shadowed: boolean;
  /** why the frontmatter was not used (the item still loads) */
  warning?: string;
}

export interface SkillInvocation {
  skill: Skill;
  /** the body with `$ARGUMENTS`, `$1..$9` and `${CLAUDE_SKILL_DIR}` expanded */
  text: string;
}

/** The `skills` service. */
export interface SkillsService {
  /** every item discovered, walk order (narrowest tier first); cached until `reload()` */
  list(): Skill[];
  /** re-run the walk (files changed) */
  reload(): Skill[];
  /** a qualified name, a stable id, or a bare name (the narrowest copy); undefined when none */
  resolve(name: string, opts?: { by: "model" | "user" }): Skill | undefined;
  /** read the item's body now and expand its arguments */
  invoke(skill: Skill, args: string): SkillInvocation;
  /** the `<available_skills>` block the model sees (empty when nothing is model-invocable) */
  listing(): string;
}

/** The tool's name; its input is Claude Code's `{skill, args}`. */
export const SKILL_TOOL = "skill";

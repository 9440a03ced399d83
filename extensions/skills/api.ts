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

/** Why an item is off: the first tier of the enable fold that turned it off (see docs/skills.md). */
export type SkillDisabledReason = "everything off" | "disabled (plugin)" | "disabled (user)" | "disabled (project)" | "not in allowlist";

/** One discovered item with its effective state. */
export interface SkillState {
  skill: Skill;
  enabled: boolean;
  reason?: SkillDisabledReason;
}

/** `setEnabled` was given a bare name more than one item has; `candidates` are their stable ids. */
export const SKILL_AMBIGUOUS = "OC_ERR_SKILL_AMBIGUOUS" as const;
/** `setEnabled` was given a name no discovered item has. */
export const SKILL_UNKNOWN = "OC_ERR_SKILL_UNKNOWN" as const;

export interface SkillNameError extends Error {
  code: typeof SKILL_AMBIGUOUS | typeof SKILL_UNKNOWN;
  candidates: string[];
}

/**
 * The `skills` service.
 *
 * `list()`, `resolve()` and `listing()` see ENABLED items only, so everything built on them (the listing,
 * the `skill` tool, a host's `/` completion) follows the enable fold without knowing it. Collisions are
 * resolved over the enabled items: a disabled copy does not force a qualified name on the one left
 * (Claude Code's behaviour). `all()` adds the disabled items, qualified over everything discovered.
 * The state is re-read when skill-state.json, trust.json or the project config file changes (a few stats
 * per call), so a toggle made from a shell lands on a running session's next step.
 */
export interface SkillsService {
  /** every ENABLED item, walk order (narrowest tier first); the walk is cached until `reload()` */
  list(): Skill[];
  /** every discovered item (a disabled plugin's too), walk order, with its state and why it is off */
  all(): SkillState[];
  /**
   * Turn one item on or off by stable id, qualified name or bare name. On: clears its user-tier disable
   * and records an explicit enable for this project (trust.json `enabled_skills`, beats the project
   * policy). Off: a user-tier disable by stable id (and the explicit enable is dropped). A bare name
   * more than one item has throws SKILL_AMBIGUOUS; an unknown one SKILL_UNKNOWN. Returns the items changed.
   */
  setEnabled(idOrName: string, on: boolean): Skill[];
  /** On: clear every user-tier disable. Off: disable every discovered item by stable id (user tier). */
  setAll(on: boolean): void;
  /** The per-project master switch (trust.json `everything_off`). */
  setEverythingOff(off: boolean): void;
  /** Is the master switch off for this project? (optional: older implementations lack it) */
  everythingOff?(): boolean;
  /** re-run the walk (files changed) */
  reload(): Skill[];
  /** a qualified name, a stable id, or a bare name (the narrowest copy); undefined when none */
  resolve(name: string, opts?: { by: "model" | "user" }): Skill | undefined;
  /** read the item's body now and expand its arguments */
  invoke(skill: Skill, args: string): SkillInvocation;
  /**
   * the `<available_skills>` block the model sees (empty when nothing is model-invocable). `only`: the
   * block over just these qualified names (walk order kept), for an extension that narrows the listing
   * per prompt (it replaces the block in engine.contextBuild's `system` after this extension's tap, which
   * appends it at STAGE_ENRICH); omitted: every enabled item, as today.
   */
  listing(only?: readonly string[]): string;
  /**
   * Is the item's root trusted (local, user and bundled roots; the repo tier when trust.json says so; a
   * plugin installed with trust)? Read fresh. An untrusted item's text is inert: its `allowed-tools`
   * grant nothing. Optional for older implementations: a caller treats its absence as "not trusted".
   */
  trusted?(skill: Skill): boolean;
}

/** The tool's name; its input is Claude Code's `{skill, args}`. */
export const SKILL_TOOL = "skill";

/** A file's frontmatter as plain data, for any reader (skills, agents, rules: `oceancode/api/skills`). */
export interface FrontmatterData {
  /** the mapping ({} when there is none or it does not parse) */
  data: Record<string, unknown>;
  /** the text after the closing fence (all of it without frontmatter) */
  body: string;
  /** the raw block between the fences; undefined when there is no closed block */
  block?: string;
  /** why the block was not used: no closing fence, not YAML, not a mapping */
  error?: string;
}

/** The services this contract names, typed for `ctx.services.get(name)` and `kernel.service(name)`. */
declare module "../../kernel/api.js" {
  interface ServiceMap {
    skills: SkillsService;
  }
}

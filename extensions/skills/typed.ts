/**
 * Typed slash forms: a prompt that starts with `/<name>` (a bare name, `<plugin>:<name>`, `<tier>:<name>`
 * or a stable id) runs that skill or command as a command turn. The prompt becomes the item's body, its
 * arguments expanded, prefaced by one instruction line. Resolved as the user (`by: "user"`): a
 * `disable-model-invocation` skill can be typed, a `user-invocable: false` one cannot.
 *
 * What counts as a slash form: the first word is `/` then a name of letters, digits and `_ . : -` with no
 * second `/`. So `/usr/bin/x --help` or `/tmp/a.log` is ordinary text (sent unchanged, no warning), while
 * `/nosuch foo` or `/unknownplugin:x` that resolve to nothing are sent unchanged with one warning notice.
 * Hosts run their built-in slash commands before a prompt is sent, so a built-in wins over a skill.
 */
import type { PromptInput, TurnContext } from "../engine/api.js";
import type { Skill, SkillsService } from "./api.js";

/** The first word of a typed slash form and the rest (the arguments). */
export interface TypedSlash {
  name: string;
  args: string;
}

const SLASH_FORM = /^\/([A-Za-z0-9][A-Za-z0-9_.:-]*)(?:[ \t]+([\s\S]*))?$/;
const NEWLINE_ARGS = /^\/([A-Za-z0-9][A-Za-z0-9_.:-]*)(\r?\n[\s\S]*)$/;

/** `/name args…` → its parts; undefined when the text is not a slash form (a path, plain text). */
export function parseTyped(text: string): TypedSlash | undefined {
  const t = text.replace(/^\s+/, "");
  const m = SLASH_FORM.exec(t) ?? NEWLINE_ARGS.exec(t);
  if (!m) return undefined;
  return { name: m[1]!, args: (m[2] ?? "").trim() };
}

export const TIERS: readonly string[] = ["local", "repo", "user", "plugin", "bundled"];

export type TypedResolution = { skill: Skill } | { warning: string };

/**
 * Find what a typed name runs, as the user: the catalog's own rule (qualified name, stable id, bare name),
 * then `<tier>:<name>` for a name that is unique (so stays bare) but is typed qualified anyway.
 */
export function resolveTyped(service: SkillsService, name: string): TypedResolution {
  const hit = service.resolve(name, { by: "user" });
  if (hit) return { skill: hit };
  const items = service.list();
  const colon = name.indexOf(":");
  if (colon > 0 && !name.slice(0, colon).includes(".")) {
    const [prefix, bare] = [name.slice(0, colon), name.slice(colon + 1)];
    const byTier = TIERS.includes(prefix) ? items.find((s) => s.tier === prefix && !s.plugin && s.name === bare) : undefined;
    if (byTier?.userInvocable) return { skill: byTier };
    if (!byTier && !TIERS.includes(prefix) && !items.some((s) => s.plugin === prefix)) {
      return { warning: `/${name}: no enabled plugin named '${prefix}'; sent as text` };
    }
  }
  const modelOnly = items.find((s) => (s.qualifiedName === name || s.id === name || s.name === name) && !s.userInvocable);
  if (modelOnly) return { warning: `/${name} is for the model only (user-invocable: false); sent as text` };
  return { warning: `/${name} is not a skill or command; sent as text` };
}

/** The command turn's prompt: one instruction line, then the body with its arguments expanded. */
export function commandPrompt(service: SkillsService, skill: Skill, args: string): string {
  const { text } = service.invoke(skill, args);
  return `The user ran the /${skill.qualifiedName} ${skill.kind} (file ${skill.file}; base directory ${skill.dir}). Follow these instructions:\n\n${text.trim()}`;
}

/**
 * The `engine.userPrompt` tap. `warn` tells the user once (a notice: run prints it on stderr, the pager
 * shows a notice line); the prompt is then sent as typed.
 */
export function typedSlashTap(service: SkillsService, warn: (sessionId: string, text: string) => void) {
  return (input: PromptInput, tc: TurnContext): PromptInput => {
    if (input.blocked) return input;
    const typed = parseTyped(input.text);
    // `/mcp__<server>__<prompt>` is the mcp extension's (its own tap warns when it resolves to nothing)
    if (!typed || typed.name.startsWith("mcp__")) return input;
    const r = resolveTyped(service, typed.name);
    if ("warning" in r) {
      warn(tc.session.info.id, r.warning);
      return input;
    }
    try {
      return { ...input, text: commandPrompt(service, r.skill, typed.args) };
    } catch (e) {
      warn(tc.session.info.id, `/${typed.name}: cannot read ${r.skill.file} (${e instanceof Error ? e.message : String(e)}); sent as text`);
      return input;
    }
  };
}

/**
 * A skill's `allowed-tools` (Claude Code's frontmatter): once the model loads the skill through the `skill`
 * tool, calls to the listed tools are allowed without asking for the rest of that turn.
 * (Its own extension, not part of `skills`: it needs the permissions service, and `skills` activating
 * permissions and the shell guard would load them for `oceancode inspect` and `oceancode skill`.)
 *
 * The grant is an `authorizeToolCall` tap in the `grants` phase (AUTHORIZE_STAGES), after the hard floors
 * (plan mode, hooks' PreToolUse deny, the shell-guard floor) and just before the permissions rules (`rules`). A bail hook
 * cannot be overruled by a later tap, so the grant asks the permissions service first and answers only
 * when the rules would ASK through a catch-all ask rule (see liftable): a deny rule, the shell guard's
 * asks (secrets, persistence, ...), the external-directory ask, the mode and a narrower `ask` rule all
 * keep their say. With no permissions service, only `read`-kind tools are granted. It never returns deny
 * or ask. Only a trusted skill grants (SkillsService.trusted: local, user, bundled, a trusted repo or
 * plugin); an untrusted one's list is repo text and grants nothing. Known limit: a PreToolUse hook's ask lands in `hook-asks`, after this tap, so a lifted
 * call skips it; its deny (phase `hooks`) still answers first.
 */
import type { AuthorizeResult, ToolCallContext, ToolResult } from "../engine/api.js";
import type { PermissionsService } from "../permissions/api.js";
import { SKILL_TOOL, type Skill, type SkillsService } from "../skills/api.js";

interface Grant {
  turn: number;
  skill: string;
  patterns: string[];
}

/** Characters that would let a granted prefix run a second command (`git status; rm -rf x`). */
const SHELL_META = /[;&|`$<>(){}\n\r\\]/;

/**
 * Does `pattern` (`Read`, `Bash`, `Bash(git status:*)`, `Bash(npm test)`) name this call? A pattern with an
 * argument is honoured for Bash only (a prefix with `:*` or ` *`, else the exact command, never a command
 * with shell operators); path arguments for other tools are not applied (no grant).
 */
export function matchesAllowed(pattern: string, claudeName: string, toolName: string, input: Record<string, unknown>): boolean {
  const m = /^\s*([A-Za-z_][\w-]*)\s*(?:\((.*)\))?\s*$/.exec(pattern);
  if (!m) return false;
  const [, name, arg] = m;
  if (name !== claudeName && name!.toLowerCase() !== toolName) return false;
  if (arg === undefined || arg.trim() === "*" || arg.trim() === "") return true;
  if (claudeName !== "Bash") return false;
  const command = typeof input.command === "string" ? input.command.trim() : "";
  if (!command || SHELL_META.test(command)) return false;
  const a = arg.trim();
  const prefix = a.endsWith(":*") ? a.slice(0, -2) : a.endsWith(" *") ? a.slice(0, -2) : undefined;
  if (prefix === undefined) return command === a;
  return command === prefix || command.startsWith(`${prefix} `);
}

/** Layers whose asks are never lifted: the safety floors and guards, and the session's mode. */
const KEEP_LAYERS = new Set(["floor", "guard", "file-guard", "safe-list", "mode"]);

/**
 * Claude Code asks by default and allowed-tools lifts that default; here the equivalent is a catch-all
 * ask rule (`bash * ask`, `* * ask`) in a config layer. A narrower ask rule (`bash git push * ask`) is the
 * user's explicit wish (it beats an allow in Claude Code too), and the external-directory ask guards a
 * boundary; neither is lifted.
 */
export function liftable(rule: string, layer: string): boolean {
  return !KEEP_LAYERS.has(layer) && /^\S+ \* ask$/.test(rule) && !rule.startsWith("external_directory");
}

/** What the model (and the transcript) is told when an untrusted skill's allowed-tools are not applied. */
export function untrustedNote(skill: Pick<Skill, "qualifiedName" | "tier" | "plugin">): string {
  const where = skill.plugin ? `plugin '${skill.plugin}' is not trusted (oceancode plugin trust ${skill.plugin})` : `the ${skill.tier} tier is not trusted here (oceancode trust repo on)`;
  return `[allowed-tools of skill '${skill.qualifiedName}' not applied: ${where}; its tool calls are asked as usual]`;
}

export class AllowedTools {
  private readonly grants = new Map<string, Grant>();
  constructor(
    private readonly service: SkillsService,
    private readonly permissions: () => PermissionsService | undefined,
    private readonly by: string,
  ) {}

  /** toolResult tap: a successful `skill` call grants its skill's allowed-tools for this turn. */
  observe(result: ToolResult, ctx: ToolCallContext): ToolResult {
    if (result.name !== SKILL_TOOL || result.isError) return result;
    const skill = this.service.resolve(String(ctx.call.input.skill ?? ""), { by: "model" });
    if (!skill?.allowedTools?.length) return result;
    // repo text is inert until trusted: an untrusted skill's allowed-tools grant nothing (its calls are asked as usual)
    if (this.service.trusted?.(skill) !== true) return { ...result, content: `${result.content}\n\n${untrustedNote(skill)}` };
    const id = ctx.session.info.id;
    const prev = this.grants.get(id);
    const patterns = prev && prev.turn === ctx.turn ? [...prev.patterns, ...skill.allowedTools] : [...skill.allowedTools];
    this.grants.set(id, { turn: ctx.turn, skill: skill.qualifiedName, patterns });
    return result;
  }

  /** authorizeToolCall tap (bail): allow or nothing. */
  async authorize(ctx: ToolCallContext): Promise<AuthorizeResult | undefined> {
    const g = this.grants.get(ctx.session.info.id);
    if (!g || g.turn !== ctx.turn || ctx.call.name === SKILL_TOOL) return undefined;
    const hit = g.patterns.find((p) => matchesAllowed(p, ctx.claude.toolName, ctx.call.name, ctx.claude.toolInput));
    if (!hit) return undefined;
    const allow: AuthorizeResult = { action: "allow", by: this.by, source: "skill", reason: `allowed-tools of skill '${g.skill}'`, rule: hit };
    const perms = this.permissions();
    if (!perms) return ctx.tool?.kind === "read" ? allow : undefined;
    const subject = ctx.tool?.ruleSubject?.(ctx.call.input, ctx.cwd) ?? "";
    const d = await perms.check(ctx.call.name, subject, { cwd: ctx.cwd, mode: perms.modeOf(ctx.session.info.overrides) });
    // an allow is left to the later taps (a PreToolUse hook's ask still runs); only a catch-all ask is lifted
    if (d.action !== "ask" || d.autoApprove !== undefined || !liftable(d.rule, d.layer)) return undefined;
    return allow;
  }
}

/**
 * The skills extension: registers the walk reader "skills", provides the `skills` service (the catalog),
 * and, in a session, offers the model ONE `skill` tool plus one `<available_skills>` block at the end of
 * the system prompt. The tools array never changes with the skills found (one tool, whatever the count),
 * so adding or removing a skill costs one listing change, never a new tool schema.
 */
import { skillRoutes } from "./routes.js";
import path from "node:path";
import type { CommandIO, ExtensionContext } from "../../kernel/api.js";
import type { ToolDefinition } from "../engine/api.js";
import { SKILL_TOOL, type SkillsService } from "./api.js";
import { READER_ID, skillsReader, type SkillItem } from "./catalog.js";
import { skillCommand } from "./command.js";
import { LivePolicy } from "./policy.js";
import { createSkillsService } from "./service.js";
import { UserSkillStore } from "./user-store.js";
import { typedSlashTap } from "./typed.js";
import { LivePluginState } from "./plugin-state.js";
import { isPagerSlashHost } from "../session-commands/kit.js";

export function createSkillTool(service: SkillsService): ToolDefinition {
  return {
    name: SKILL_TOOL,
    claudeName: "Skill",
    kind: "read",
    description:
      "Load a skill or command from the <available_skills> list in the system prompt: returns its instructions, with the arguments filled in. Use the name exactly as listed.",
    inputSchema: {
      type: "object",
      properties: {
        skill: { type: "string", description: 'the skill or command name, as listed (e.g. "review" or "user:review")' },
        args: { type: "string", description: "optional arguments, as a user would type them after /name" },
      },
      required: ["skill"],
      additionalProperties: false,
    },
    ruleSubject: (input) => String(input.skill ?? ""),
    toClaudeInput: (input) => ({ skill: String(input.skill ?? ""), ...(input.args !== undefined ? { args: String(input.args) } : {}) }),
    fromClaudeInput: (input) => ({ skill: String(input.skill ?? ""), ...(input.args !== undefined ? { args: String(input.args) } : {}) }),
    async run(input) {
      const name = String(input.skill ?? "");
      const skill = service.resolve(name, { by: "model" });
      if (!skill) {
        const names = service
          .list()
          .filter((s) => s.modelInvocable)
          .map((s) => s.qualifiedName);
        return { content: `no skill named '${name}'${names.length ? `; available: ${names.join(", ")}` : "; no skills are available"}`, isError: true };
      }
      try {
        const { text } = service.invoke(skill, typeof input.args === "string" ? input.args : "");
        return { content: `Base directory for this ${skill.kind}: ${skill.dir}\n\n${text}`, metadata: { id: skill.id, file: skill.file } };
      } catch (e) {
        return { content: `cannot read ${skill.file}: ${e instanceof Error ? e.message : String(e)}`, isError: true };
      }
    },
  };
}

export default {
  activate(ctx: ExtensionContext) {
    ctx.registerReader(skillsReader);
    const trust = ctx.services.tryGet("trust");
    const walk = () => ctx.walk<SkillItem>(READER_ID);
    const policy = new LivePolicy(ctx.config, ctx.paths.project, (m) => ctx.log.warn(m));
    const service = createSkillsService({
      walk,
      project: ctx.paths.project,
      store: new UserSkillStore(path.join(ctx.paths.userOcDir, "skill-state.json"), (m) => ctx.log.warn(m)),
      ...(trust ? { trust } : {}),
      policy: () => policy.get(),
      warn: (m) => ctx.log.warn(m),
      plugins: new LivePluginState(path.join(ctx.paths.userOcDir, "plugins", "installed.json")),
    });
    ctx.provide("skills", service);

    const routes = ctx.services.tryGet("routes");
    if (routes) for (const r of skillRoutes(service, () => ctx.introspect())) routes.add(r, ctx.id);

    ctx.registerCommand("skill", (argv: string[], io: CommandIO) => skillCommand(service, argv, io, (s) => service.trusted!(s)));

    // /skills: the pager opens its capabilities picker; a host without one gets the list as text
    ctx.registerSlash("skills", (_args, host) => {
      if (isPagerSlashHost(host) && host.capabilities) return host.capabilities("skills");
      host.reply(service.all().map((x) => `${x.enabled ? "[x]" : "[ ]"} ${x.skill.id}${x.reason ? ` (${x.reason})` : ""}`).join("\n") || "no skills found");
    });

    // `oceancode inspect`: one row per skill and command found (files are read, nothing runs)
    ctx.services.tryGet("inspect")?.addRows(() => {
      service.reload();
      return service.all().map(({ skill: s, enabled, reason }) => ({
        kind: s.kind,
        id: s.id,
        layer: s.plugin ? `plugin:${s.plugin}` : s.tier,
        source: s.file,
        state: !enabled ? "disabled" : s.shadowed ? "shadowed" : "active",
        ...(!enabled ? { reason } : s.warning ? { reason: s.warning } : !s.modelInvocable ? { reason: "disable-model-invocation: user only" } : !s.userInvocable ? { reason: "user-invocable: false: model only" } : {}),
        value: s.qualifiedName,
      }));
    });

    const engine = ctx.services.tryGet("engine");
    if (!engine) return;
    engine.tools.register(createSkillTool(service), ctx.id);
    // the listing goes last in the system prompt; it is rebuilt before each model call only when the
    // enable state changed on disk (a toggle from a shell lands on the next step)
    engine.hooks.contextBuild.tap({ name: ctx.id, stage: "enrich" }, (win, step) => {
      // a session whose tool allow-list leaves out `skill` (a sub-agent) could not load what is listed
      const allow = step.session.profile?.tools;
      if (allow && !allow.includes(SKILL_TOOL)) return win;
      const block = service.listing();
      return block ? { ...win, system: [...win.system, block] } : win;
    });
    // a prompt typed as `/<skill> args` runs that skill as a command turn (typed.ts); hooks see it as typed
    engine.hooks.userPrompt.tap({ name: ctx.id, stage: "default" }, typedSlashTap(service, (sid, text) => engine.notice(sid, "warn", text)));
  },
};

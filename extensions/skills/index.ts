/**
 * The skills extension: registers the walk reader "skills", provides the `skills` service (the catalog),
 * and, in a session, offers the model ONE `skill` tool plus one `<available_skills>` block at the end of
 * the system prompt. The tools array never changes with the skills found (one tool, whatever the count),
 * so adding or removing a skill costs one listing change, never a new tool schema.
 */
import fs from "node:fs";
import type { ExtensionContext } from "../../kernel/api.js";
import type { EngineService, ToolDefinition } from "../engine/api.js";
import type { InspectService } from "../inspect/api.js";
import { SKILL_TOOL, type Skill, type SkillsService } from "./api.js";
import { buildCatalog, formatListing, READER_ID, resolveIn, skillsReader, type SkillItem } from "./catalog.js";
import { parseFrontmatter } from "./frontmatter.js";
import { expandBody } from "./expand.js";
import { typedSlashTap } from "./typed.js";

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
    const warned = new Set<string>();
    let items: Skill[] | undefined;
    const service: SkillsService = {
      list: () => (items ??= service.reload()),
      reload() {
        items = buildCatalog(ctx.walk<SkillItem>(READER_ID));
        // one warning per file per process, naming it; the item still loads
        for (const s of items) {
          if (!s.warning || warned.has(s.warning)) continue;
          warned.add(s.warning);
          ctx.log.warn(s.warning);
        }
        return items;
      },
      resolve: (name, opts) => resolveIn(service.list(), name, opts?.by ?? "model"),
      invoke(skill, args) {
        const { body } = parseFrontmatter(fs.readFileSync(skill.file, "utf8"));
        return { skill, text: expandBody(body.replace(/^\s*\n/, ""), args, skill.dir) };
      },
      listing: () => formatListing(service.list()),
    };
    ctx.provide("skills", service);

    // `oceancode inspect`: one row per skill and command found (files are read, nothing runs)
    ctx.services.tryGet<InspectService>("inspect")?.addRows(() =>
      service.reload().map((s) => ({
        kind: s.kind,
        id: s.id,
        layer: s.plugin ? `plugin:${s.plugin}` : s.tier,
        source: s.file,
        state: s.shadowed ? "shadowed" : "active",
        ...(s.warning ? { reason: s.warning } : !s.modelInvocable ? { reason: "disable-model-invocation: user only" } : !s.userInvocable ? { reason: "user-invocable: false: model only" } : {}),
        value: s.qualifiedName,
      })),
    );

    const engine = ctx.services.tryGet<EngineService>("engine");
    if (!engine) return;
    engine.tools.register(createSkillTool(service), ctx.id);
    // the listing goes last in the system prompt: it changes only when the skills found change
    engine.hooks.contextBuild.tap({ name: ctx.id, stage: "STAGE_ENRICH" }, (win) => {
      const block = service.listing();
      return block ? { ...win, system: [...win.system, block] } : win;
    });
    // a prompt typed as `/<skill> args` runs that skill as a command turn (typed.ts); hooks see it as typed
    engine.hooks.userPrompt.tap({ name: ctx.id, stage: "STAGE_DEFAULT" }, typedSlashTap(service, (sid, text) => engine.notice(sid, "warn", text)));
  },
};

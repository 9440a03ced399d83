/**
 * The agents extension: registers the walk reader "agents", provides the `agents` service (the catalog),
 * adds `inspect` rows, and in a session offers the model ONE `agent` tool (Claude Code's Task) plus one
 * `<available_agents>` block at the end of the system prompt. The listing is in the system prompt, not in
 * the tool's description, so the tools array never changes with the agents found (as skills do). Child
 * sessions get neither: they cannot start agents (no nesting, as in Claude Code).
 */
import type { ExtensionContext } from "../../kernel/api.js";
import type { ModelNameEntry } from "../engine/api.js";
import type { Agent, AgentsService } from "./api.js";
import { agentsReader, buildCatalog, formatListing, projectConfigRoot, READER_ID, resolveIn, withProjectConfig, type AgentItem } from "./catalog.js";
import { BackgroundChildren, createAgentTool } from "./tool.js";
import { agentRoutes } from "./routes.js";
import { subagentModelId } from "./subagent.js";
import { modelAliases } from "./resolve.js";

export default {
  activate(ctx: ExtensionContext) {
    ctx.registerReader(agentsReader);
    const warned = new Set<string>();
    let items: Agent[] | undefined;
    const service: AgentsService = {
      list: () => (items ??= service.reload()),
      reload() {
        // the project's own opencode.json has no walk root (only .opencode/ has): read as a repo-tier one
        items = buildCatalog(withProjectConfig(ctx.walk<AgentItem>(READER_ID), projectConfigRoot(ctx.paths.project, ctx.paths.home)));
        // one warning per file per process, naming it; the agent still loads
        for (const a of items) {
          if (!a.warning || warned.has(a.warning)) continue;
          warned.add(a.warning);
          ctx.log.warn(a.warning);
        }
        return items;
      },
      resolve: (name) => resolveIn(service.list(), name),
      listing: () => formatListing(service.list()),
      // the trust gate's rule: a root trusted without asking, or the repo tier once `trust repo on`
      trusted: (a) => a.rootTrusted === true || (a.tier === "repo" && ctx.services.tryGet("trust")?.repoTrusted(ctx.paths.project) === true),
    };
    ctx.provide("agents", service);

    // `oceancode inspect`: one row per agent (files are read, nothing runs)
    ctx.services.tryGet("inspect")?.addRows(() =>
      service.reload().map((a) => ({
        kind: "agent",
        id: a.id,
        layer: a.plugin ? `plugin:${a.plugin}` : a.tier,
        source: a.file || "(built in)",
        state: a.shadowed ? "shadowed" : "active",
        ...(a.warning ? { reason: a.warning } : !a.invocable ? { reason: "not a sub-agent (OpenCode mode: primary or disable: true)" } : {}),
        value: a.qualifiedName,
      })),
    );

    const configuredModel = () => ctx.config.get("subagent.model");
    const routes = ctx.services.tryGet("routes");
    const aliases = modelAliases(ctx.contributions<string[]>("providers"), ctx.contributions<ModelNameEntry[]>("models"));
    if (routes) for (const r of agentRoutes(configuredModel, aliases, service)) routes.add(r, ctx.id);

    const engine = ctx.services.tryGet("engine");
    if (!engine) return;
    const background = new BackgroundChildren();
    const configured = (): string[] => [ctx.config.get("model"), configuredModel()].filter((m): m is string => typeof m === "string" && m.trim() !== "");
    engine.tools.register(createAgentTool(engine, service, background, (parent) => subagentModelId(parent, configuredModel(), aliases), { configured, warn: (m) => ctx.log.warn(m), aliases }), ctx.id);
    // the listing goes last in the system prompt: it changes only when the agents found change
    engine.hooks.contextBuild.tap({ name: ctx.id, stage: "enrich" }, (win, step) => {
      if (step.session.info.parentId !== undefined) return win;
      const block = service.listing();
      return block ? { ...win, system: [...win.system, block] } : win;
    });
    // background children stop when a later turn of their parent is interrupted, or the parent closes
    engine.hooks.userPrompt.tap({ name: ctx.id }, (input, turn) => {
      background.follow(turn.session.info.id, turn.signal);
      return input;
    });
    engine.hooks.sessionEnd.tap({ name: ctx.id }, ({ session }) => {
      background.cancel(session.info.id);
    });
  },
};

/**
 * The mcp extension: resolves the servers from every config file (sources/), offers `oceancode mcp`
 * (cli/) and inspect rows, and on the first session starts every
 * ready one in parallel (client/manager.ts), registers their tools as engine tools `mcp__<server>__<tool>`
 * (client/tools.ts), fixes each prompt's MCP tool set at its first request, and closes every server (bounded, process groups killed)
 * when the kernel shuts down.
 */
import type { ExtensionContext } from "../../kernel/api.js";
import type { EngineService } from "../engine/api.js";
import type { McpService } from "./api.js";
import { McpManager } from "./client/manager.js";
import { metaTools } from "./client/meta.js";
import { promptTools, registerTools, waitSeconds, type ToolIndex } from "./client/tools.js";
import { resourceTools } from "./client/resources.js";
import { mcpPromptTap, promptCatalog } from "./client/prompts.js";
import { elicitHandler } from "./client/elicit.js";
import type { InspectService } from "../inspect/api.js";
import type { TrustService } from "../trust/api.js";
import { registerMcpCommand } from "./cli/register.js";
import { inspectRows, resolveServers } from "./sources/index.js";
import { pluginReader, resolveInputFromContext } from "./sources/context.js";

/** one manager per activation (a process may boot more than one kernel, e.g. tests) */
const managers = new Set<McpManager>();
/** the modelRequest stage of the MCP tool set: after the floor (-300), before permissions' tool removal (-200) */
const STAGE_MCP_TOOLS = -250;

function timeoutMs(v: string | undefined, fallback: number): number {
  const n = Number(v);
  return v !== undefined && Number.isFinite(n) && n > 0 ? n : fallback;
}

export default {
  activate(ctx: ExtensionContext) {
    ctx.registerReader(pluginReader);
    const engine = ctx.services.tryGet<EngineService>("engine");
    const trust = ctx.services.tryGet<TrustService>("trust");
    let sessionId = "";
    // the same child env as bash and hooks get: secret names stripped (child-env), sandbox wrapping
    const composeSpawn = engine
      ? async (spec: { command: string; args: string[]; env: NodeJS.ProcessEnv; cwd: string }, server: string) => {
          const out = await engine.hooks.childProcess.call({ ...spec, purpose: `mcp:${server}` }, { sessionId });
          return { command: out.command, args: out.args, cwd: out.cwd, env: out.env };
        }
      : undefined;
    registerMcpCommand(ctx, {
      trust,
      // the probe loads the MCP SDK: only when doctor runs, never for list/add or inspect
      doctor: async (entries) => (await import("./client/doctor.js")).doctor(entries, { env: ctx.env, cwd: ctx.paths.project, timeoutMs: timeoutMs(ctx.env.OC_MCP_DOCTOR_MS, 5000), ...(composeSpawn ? { composeSpawn } : {}) }),
    });
    // resolved on first need (a session, inspect), so `oceancode mcp …` reads the files once, itself
    let resolved: ReturnType<typeof resolveServers> | undefined;
    const entries = () => (resolved ??= resolveServers(resolveInputFromContext(ctx, undefined, undefined, trust)));
    ctx.services.tryGet<InspectService>("inspect")?.addRows(() => inspectRows(entries()));
    const index: ToolIndex = new Map();
    let mgr: McpManager | undefined;
    const register = () => {
      if (engine && mgr) registerTools(engine, mgr, index, ctx.id, (m) => ctx.log.warn(m));
    };
    mgr = new McpManager(entries, {
      env: ctx.env,
      cwd: ctx.paths.project,
      // MCP_TIMEOUT / MCP_TOOL_TIMEOUT: Claude Code's names for the connect and per-call budgets (ms)
      connectTimeoutMs: timeoutMs(ctx.env.MCP_TIMEOUT, 30_000),
      callTimeoutMs: timeoutMs(ctx.env.MCP_TOOL_TIMEOUT, 30 * 60_000),
      ...(ctx.env.OC_MCP_BACKOFF_MS ? { backoffMs: ctx.env.OC_MCP_BACKOFF_MS.split(",").map(Number) } : {}),
      ...(composeSpawn ? { composeSpawn } : {}),
      onToolsChanged: () => register(),
      report: (level, text) => (sessionId && engine ? engine.notice(sessionId, level, text) : ctx.log[level === "error" ? "error" : level === "warn" ? "warn" : "info"](text)),
      elicit: elicitHandler({ ...(engine ? { ask: (q, signal) => engine.ask(q, signal) } : {}), sessionId: () => sessionId, notice: (level, text) => (sessionId && engine ? engine.notice(sessionId, level, text) : ctx.log[level](text)) }),
    });
    const live = mgr;
    managers.add(live);
    // this kernel's shutdown closes this kernel's servers (bounded ~2 s); deactivate is the fallback
    ctx.kernelHooks.shutdown.tap({ name: ctx.id }, async () => {
      managers.delete(live);
      await live.close();
    });

    const service: McpService = {
      servers: () => live.rows(),
      prompts: promptCatalog(live),
      settle: async (ms) => {
        live.start();
        await live.settle(ms);
        return live.rows();
      },
    };
    ctx.provide("mcp", service);

    if (!engine) return;
    for (const t of metaTools(live, (id) => (index.has(id) ? engine.tools.get(id) : undefined))) engine.tools.register(t, ctx.id);
    for (const t of resourceTools(live)) engine.tools.register(t, ctx.id);
    // `/mcp__<server>__<prompt> args`: before skills' typed slash forms (STAGE_DEFAULT)
    engine.hooks.userPrompt.tap({ name: ctx.id, stage: -50 }, mcpPromptTap(live, { waitMs: () => waitSeconds(ctx.env) * 1000, warn: (sid, text) => engine.notice(sid, "warn", text) }));
    // lazy: nothing is spawned or dialed until a session opens
    engine.hooks.sessionStart.tap({ name: ctx.id }, ({ session }) => {
      if (!sessionId) sessionId = session.info.id;
      live.start();
    });
    // before permissions (STAGE_POLICY, -200) removes the tools a deny rule names: it must see the MCP ones
    engine.hooks.modelRequest.tap({ name: ctx.id, stage: STAGE_MCP_TOOLS }, promptTools({ engine, manager: live, index, env: ctx.env, register }));
  },
  async deactivate() {
    const all = [...managers];
    managers.clear();
    await Promise.all(all.map((m) => m.close()));
  },
};

/**
 * The mcp extension: resolves the servers from every config file (sources/), offers `oceancode mcp`
 * (cli/) and inspect rows, and on the first session (or when a serve host starts) starts every
 * ready one in parallel (client/manager.ts), registers their tools as engine tools `mcp__<server>__<tool>`
 * (client/tools.ts), fixes each prompt's MCP tool set at its first request, applies live switches
 * (trust.json, installed.json, the config files: client/live.ts) on the very next step, opens the pager's
 * MCP tab (/mcps), and closes every server (bounded, process groups killed) when the kernel shuts down.
 */
import path from "node:path";
import type { ExtensionContext } from "../../kernel/api.js";
import type { McpService } from "./api.js";
import { DEFAULT_TOOL_TIMEOUT_MS, McpManager } from "./client/manager.js";
import { metaTools } from "./client/meta.js";
import { promptTools, registerTools, waitSeconds, type ToolIndex } from "./client/tools.js";
import { resourceTools } from "./client/resources.js";
import { mcpPromptTap, promptCatalog } from "./client/prompts.js";
import { elicitHandler } from "./client/elicit.js";
import type { ProjectTrust } from "../trust/api.js";
import type { RegisterDeps } from "./cli/register.js";
import { inspectRows, readTrust, resolveServers } from "./sources/index.js";
import { pluginReader, resolveInputFromContext } from "./sources/context.js";
import { LiveSwitches } from "./client/live.js";
import { printable, SERVER_NAME } from "./sources/shapes.js";
import type { ServerEntry } from "./api.js";
import { isPagerSlashHost } from "../session-commands/kit.js";
import { mcpErrorCounts } from "./client/error-count.js";
import { McpTrustMissing } from "./errors.js";

/**
 * The resolved entries with the handed-over servers put in: a handed server replaces a ready copy of its
 * name (that copy reads shadowed), and is kept even when no file declares the name.
 */
function withHanded(entries: ServerEntry[], handed: ReadonlyMap<string, ServerEntry>): ServerEntry[] {
  if (!handed.size) return entries;
  const out = entries.map((e) => (handed.has(e.name) && e.hold !== "shadowed" ? { ...e, hold: "shadowed" as const, reason: `shadowed: ${handed.get(e.name)!.source} runs` } : e));
  return [...[...handed.values()], ...out];
}

/** one manager per activation (a process may boot more than one kernel, e.g. tests) */
const managers = new Set<McpManager>();

/** a config value in seconds (> 0) as ms, else the fallback */
function configSeconds(v: unknown, fallback: number): number {
  return typeof v === "number" && Number.isFinite(v) && v > 0 ? Math.round(v * 1000) : fallback;
}

function timeoutMs(v: string | undefined, fallback: number): number {
  const n = Number(v);
  return v !== undefined && Number.isFinite(n) && n > 0 ? n : fallback;
}

export default {
  async activate(ctx: ExtensionContext) {
    ctx.registerReader(pluginReader);
    const engine = ctx.services.tryGet("engine");
    const trust = ctx.services.tryGet("trust");
    const credentials = ctx.services.tryGet("credentials");
    let sessionId = "";
    // the same child env as bash and hooks get: secret names stripped (child-env), sandbox wrapping
    const composeSpawn = engine
      ? async (spec: { command: string; args: string[]; env: NodeJS.ProcessEnv; cwd: string }, server: string) => {
          const out = await engine.hooks.childProcess.call({ ...spec, purpose: `mcp:${server}` }, { sessionId, external: true });
          return { command: out.command, args: out.args, cwd: out.cwd, env: out.env };
        }
      : undefined;
    const cliDeps: RegisterDeps = {
      trust,
      ...(credentials ? { credentials } : {}),
      // the probe loads the MCP SDK: only when doctor runs, never for list/add or inspect
      doctor: async (entries) => (await import("./client/doctor.js")).doctor(entries, { env: ctx.env, cwd: ctx.paths.project, timeoutMs: timeoutMs(ctx.env.OC_MCP_DOCTOR_MS, 5000), ...(composeSpawn ? { composeSpawn } : {}), ...(credentials ? { oauth: credentials } : {}) }),
    };
    // the CLI's code (and the HTTP routes' below) load when used: a session never compiles them
    ctx.registerCommand("mcp", async (argv, io) => (await import("./cli/register.js")).runMcpCommand(ctx, cliDeps, argv, io));
    // resolved on first need (a session, inspect), so `oceancode mcp …` reads the files once, itself
    let resolved: ReturnType<typeof resolveServers> | undefined;
    // servers a host's client handed over (ACP session/new): local tier, trusted, over a file's copy
    const handed = new Map<string, ServerEntry>();
    const resolveNow = () => withHanded(resolveServers(resolveInputFromContext(ctx, undefined, undefined, trust)), handed);
    const trustFile = trust?.file ?? path.join(ctx.paths.userOcDir, "trust.json");
    const watched = () => [trustFile, path.join(ctx.paths.userOcDir, "plugins", "installed.json"), path.join(ctx.paths.home, ".claude.json"), path.join(ctx.paths.project, ".mcp.json")];
    const entries = () => {
      if (!resolved) {
        switches?.baseline();
        resolved = resolveNow();
      }
      return resolved;
    };
    ctx.services.tryGet("inspect")?.addRows(() => inspectRows(entries(), mgr?.isStarted ? mgr.rows() : undefined));
    const index: ToolIndex = new Map();
    let mgr: McpManager | undefined;
    const register = () => {
      if (engine && mgr) registerTools(engine, mgr, index, ctx.id, (m) => ctx.log.warn(m));
    };
    mgr = new McpManager(entries, {
      env: ctx.env,
      cwd: ctx.paths.project,
      // MCP_TIMEOUT / MCP_TOOL_TIMEOUT: Claude Code's names for the connect and per-call budgets (ms);
      // mcp.tool_timeout_s under the env; a server's own tool_timeout_s over both (manager.ts)
      connectTimeoutMs: timeoutMs(ctx.env.MCP_TIMEOUT, 30_000),
      callTimeoutMs: timeoutMs(ctx.env.MCP_TOOL_TIMEOUT, configSeconds(ctx.config.get("mcp.tool_timeout_s"), DEFAULT_TOOL_TIMEOUT_MS)),
      ...(ctx.env.OC_MCP_BACKOFF_MS ? { backoffMs: ctx.env.OC_MCP_BACKOFF_MS.split(",").map(Number) } : {}),
      ...(composeSpawn ? { composeSpawn } : {}),
      ...(credentials ? { oauth: credentials } : {}),
      onToolsChanged: () => register(),
      report: (level, text) => (sessionId && engine ? engine.notice(sessionId, level, text) : ctx.log[level === "error" ? "error" : level === "warn" ? "warn" : "info"](text)),
      elicit: elicitHandler({ ...(engine ? { ask: (q, signal) => engine.ask(q, signal) } : {}), sessionId: () => sessionId, notice: (level, text) => (sessionId && engine ? engine.notice(sessionId, level, text) : ctx.log[level](text)) }),
    });
    const live = mgr;
    managers.add(live);
    // trust.json / config changes reach the servers before the next model request (client/live.ts)
    const switches: LiveSwitches = new LiveSwitches({
      files: watched,
      resolve: () => (resolved = resolveNow()),
      everythingOff: () => (trust ? trust.get(ctx.paths.project) : readTrust(ctx.paths.userOcDir, ctx.paths.project)).everything_off,
      manager: live,
    });
    const change = (edit: (t: ProjectTrust) => void) => {
      if (!trust) throw McpTrustMissing();
      trust.update(ctx.paths.project, edit);
      switches.apply();
    };
    // this kernel's shutdown closes this kernel's servers (bounded ~2 s); deactivate is the fallback
    ctx.kernelHooks.shutdown.tap({ name: ctx.id }, async () => {
      managers.delete(live);
      await live.close();
    });

    const service: McpService = {
      // a change made from a shell shows at once (a stat; re-resolved only when a file changed)
      servers: () => {
        switches.check();
        return live.rows();
      },
      prompts: promptCatalog(live),
      settle: async (ms) => {
        live.start();
        await live.settle(ms);
        return live.rows();
      },
      // the same records as `oceancode mcp enable|disable` and `oceancode trust mcp <name> on|off`
      setEnabled: (name, on) =>
        change((t) => {
          t.disabled_mcp = t.disabled_mcp.filter((n) => n !== name);
          t.enabled_mcp = t.enabled_mcp.filter((n) => n !== name);
          (on ? t.enabled_mcp : t.disabled_mcp).push(name);
        }),
      setTrusted: (name, on) => change((t) => void (t.mcp[name] = on)),
      everythingOff: () => {
        switches.check();
        return switches.everythingOff();
      },
      addServers: (servers, source) => {
        const taken: string[] = [];
        for (const { name, config } of servers) {
          if (!SERVER_NAME.test(name)) {
            ctx.log.warn(`MCP server from ${source} skipped: '${printable(name, 80)}' is not a server name`);
            continue;
          }
          handed.set(name, { name, qualifiedName: name, tier: "local", source, config, trusted: true, enabled: true, hold: "ready" });
          taken.push(name);
        }
        if (taken.length && resolved) {
          resolved = resolveNow();
          if (live.isStarted) live.reconcile(resolved);
        }
        return taken;
      },
      errorCounts: () => ({ ...mcpErrorCounts }),
    };
    ctx.provide("mcp", service);
    // GET /mcp and the per-server routes, when a serve host runs (the serve extension's registry)
    const routes = ctx.services.tryGet("routes");
    if (routes) for (const r of (await import("./routes.js")).mcpRoutes({ service, manager: live, env: ctx.env, ...(credentials ? { credentials } : {}) })) routes.add(r, ctx.id);
    // a server (serve, the pager's --listen) starts the servers with itself, so GET /mcp reads their live
    // status from the start rather than `connecting` until a client opens a session (finding 49)
    ctx.services.tryGet("serve")?.onStart?.(() => live.start());
    // /mcps: the pager opens the MCP tab of its capabilities picker; another host gets the rows as text
    ctx.registerSlash("mcps", (_args, host) => {
      if (isPagerSlashHost(host) && host.capabilities) return host.capabilities("mcp");
      switches.check();
      host.reply(live.rows().map((r) => `${r.enabled === false ? "[ ]" : "[x]"} ${r.name}  ${r.status}${r.status === "connected" ? ` (${r.tools} tools)` : ""}  ${r.tier ?? ""}`).join("\n") || "no MCP servers configured");
    });

    if (!engine) return;
    for (const t of metaTools(live, (id) => (index.has(id) ? engine.tools.get(id) : undefined))) engine.tools.register(t, ctx.id);
    for (const t of resourceTools(live)) engine.tools.register(t, ctx.id);
    // `/mcp__<server>__<prompt> args`: before skills' typed slash forms (STAGE_DEFAULT)
    engine.hooks.userPrompt.tap({ name: ctx.id, stage: "connect" }, mcpPromptTap(live, { waitMs: () => waitSeconds(ctx.env) * 1000, warn: (sid, text) => engine.notice(sid, "warn", text) }));
    // lazy: nothing is spawned or dialed until a session opens
    engine.hooks.sessionStart.tap({ name: ctx.id }, ({ session }) => {
      // servers held for trust are said at the prompt's first request, to the user and the model (client/tools.ts)
      if (!sessionId) sessionId = session.info.id;
      live.start();
    });
    // before permissions (STAGE_POLICY, -200) removes the tools a deny rule names: it must see the MCP ones
    engine.hooks.modelRequest.tap({ name: ctx.id, stage: "tools" }, promptTools({ engine, manager: live, index, env: ctx.env, register, live: switches }));
  },
  async deactivate() {
    const all = [...managers];
    managers.clear();
    await Promise.all(all.map((m) => m.close()));
  },
};

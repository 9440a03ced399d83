/**
 * The serve extension: the route registry (service "routes"), the server (service "serve": `start`), and
 * the `oceancode serve` command. Activation only builds the registry: Fastify loads when a server starts.
 */
import { oceancodeVersion, type ExtensionContext } from "../../kernel/api.js";
import { DEFAULT_MODEL_ID } from "../engine/api.js";
import crypto from "node:crypto";
import { FLEET_EVENT, ROUTES_EVENT, WEB_EVENT, type FleetService, type ServeOptions, type ServeService, type ServeStats } from "./api.js";
import type { LiveServer } from "./server.js";
import { serveCommand } from "./command.js";
import { Routes } from "./registry.js";
import { PendingStore } from "./pending.js";
import { logRoute } from "./log-route.js";
import { ServeNoEngine } from "./errors.js";

export { HttpError, isRouteReply } from "./kit/shared.js";

function positiveInt(v: string | undefined): number | undefined {
  const n = Number(v);
  return v && Number.isInteger(n) && n > 0 ? n : undefined;
}

/** serve.shutdown_timeout_s in ms (0: no drain; unset: the default) */
function drainMs(s: number | undefined): number | undefined {
  return typeof s === "number" && Number.isFinite(s) && s >= 0 ? Math.round(s * 1000) : undefined;
}

export default {
  activate(ctx: ExtensionContext) {
    const routes = new Routes();
    ctx.provide("routes", routes);
    routes.add(logRoute(() => ctx.services.tryGet("obs")), ctx.id);
    const boot = async (web: boolean): Promise<ServeService | string> => {
      // the session extensions (engine, storage, providers, tools, and the ones contributing routes)
      await ctx.activate("onSession");
      // --web: the web client's extension adds its page and assets to the routes
      if (web) await ctx.activate(WEB_EVENT);
      return ctx.services.has("engine") ? service : "no enabled extension provides the session engine; see oceancode inspect";
    };
    const service: ServeService = {
      command: (argv, io, opts = {}) => serveCommand(opts.web ? [...argv, "--web"] : argv, io, boot, opts.name),
      useFleet(f) {
        fleet = f;
      },
      async start(opts: ServeOptions) {
        const engine = ctx.services.tryGet("engine");
        if (!engine) throw ServeNoEngine();
        const { startServer } = await import("./server.js");
        await ctx.activate(ROUTES_EVENT); // extensions that contribute routes but are not session extensions
        await ctx.activate(FLEET_EVENT); // a fleet extension hands its service over (useFleet) or stands aside
        for (const fn of starting) await fn();
        const server = await startServer(
          {
            engine,
            storage: ctx.services.tryGet("storage"),
            routes,
            version: oceancodeVersion(),
            project: ctx.paths.project,
            defaultModel: () => {
              const m = ctx.config.get("model");
              return typeof m === "string" && m ? m : DEFAULT_MODEL_ID;
            },
            log: ctx.log,
            fleet,
            instanceId: fleet?.instanceId ?? (ctx.env.OC_INSTANCE_ID || `oc-${crypto.randomBytes(4).toString("hex")}`),
            // tuning for tests and benches: how many bytes a slow SSE client may fall behind, how long shutdown waits
            events: { clientBufferBytes: positiveInt(ctx.env.OC_SERVE_CLIENT_BUFFER_BYTES) },
            shutdownWaitMs: positiveInt(ctx.env.OC_SERVE_SHUTDOWN_MS),
            drainMs: drainMs(ctx.config.section<{ shutdown_timeout_s?: number }>("serve").shutdown_timeout_s),
            pending: new PendingStore(ctx.paths.dataDir),
            runSlash: (name, args, host) => ctx.runSlash(name, args, host),
          },
          opts,
        );
        live = server; // the last server started (after its close, its counts are 0)
        return server;
      },
      onStart(fn) {
        starting.push(fn);
      },
      stats(): ServeStats | undefined {
        if (!live) return undefined;
        const takeovers = fleet?.takeovers?.();
        return { openSessions: live.hub.openCount, sseClients: live.events.clientCount, queuedPrompts: live.hub.queuedCount, ...(fleet ? { fleet: { takeovers: takeovers ?? 0 } } : {}) };
      },
    };
    let live: LiveServer | undefined;
    const starting: Array<() => void | Promise<void>> = [];
    let fleet: FleetService | undefined;
    ctx.provide("serve", service);
    ctx.registerCommand("serve", (argv, io) => serveCommand(argv, io, boot));
  },
};

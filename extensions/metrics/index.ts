/**
 * metrics: the process's Prometheus metrics (service "metrics", `oceancode/api/metrics`).
 *
 * Off costs nothing: activation reads the `metrics` section and, unless metrics are on, only waits for a
 * server to start. On (metrics.enabled, metrics.out / run --metrics-out, or a server starting with
 * metrics.enabled unset) it loads prom-client and the registry (prom-metrics.ts), taps the engine's observer
 * hooks (taps.ts), and reads the other extensions' levels at scrape time. A server gets GET /metrics;
 * metrics.out gets the final text at exit (the kernel's shutdown, so also after an error or a bound).
 */
import path from "node:path";
import { writeFileAtomic, type ExtensionContext, type ServiceName } from "../../kernel/api.js";
import type { MetricsService } from "./api.js";
import type { Metrics, Sources } from "./prom-metrics.js";
import { metricsRoute } from "./route.js";
import { tapEngine } from "./taps.js";

interface MetricsConfig {
  enabled?: boolean;
  out?: string;
}

/** prom-client's Registry.PROMETHEUS_CONTENT_TYPE, known before prom-client loads */
export const PROMETHEUS_CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

export default {
  activate(ctx: ExtensionContext) {
    const cfg = ctx.config.section<MetricsConfig>("metrics") ?? {};
    const svc = <K extends ServiceName>(name: K) => ctx.services.tryGet(name);

    let open: { openSessions(): number } | undefined;
    const hookErrors = (): ReadonlyMap<string, number> => {
      const by = new Map<string, number>();
      for (const f of ctx.introspect().hookErrors ?? []) by.set(f.hook, (by.get(f.hook) ?? 0) + f.count);
      return by;
    };
    const sources: Sources = {
      writer: () => svc("storage")?.stats?.(),
      serve: () => svc("serve")?.stats?.(),
      hookErrors,
      mcp: () => svc("mcp")?.errorCounts?.(),
      openSessions: () => open?.openSessions() ?? 0,
    };
    let live: Promise<Metrics> | undefined;
    /** load prom-client and tap the engine, once */
    const start = (): Promise<Metrics> =>
      (live ??= (async () => {
        const { createMetrics } = await import("./prom-metrics.js");
        const metrics = createMetrics(sources);
        const engine = svc("engine");
        if (engine) open = tapEngine(engine, metrics.record);
        return metrics;
      })());

    // asked for without being on (e.g. by the OTLP exporter): it starts collecting from the first ask
    const service: MetricsService = {
      snapshot: async () => (await start()).snapshot(),
      text: async () => (await start()).text(),
      contentType: PROMETHEUS_CONTENT_TYPE,
    };
    ctx.provide("metrics", service);
    if (cfg.enabled === false) return;

    const out = cfg.out ? path.resolve(ctx.paths.project, cfg.out) : undefined;
    if (out) {
      ctx.kernelHooks.shutdown.tap({ name: ctx.id, stage: "default" }, async () => {
        try {
          writeFileAtomic(out, await service.text());
        } catch (e) {
          ctx.log.error(`metrics: cannot write ${out} (metrics.out): ${(e as Error).message}`);
        }
      });
    }
    // a server (serve, the pager's --listen): metrics on unless turned off, and GET /metrics among its routes
    let routed = false;
    svc("serve")?.onStart?.(async () => {
      await start();
      const routes = svc("routes");
      if (routes && !routed) {
        routed = true;
        routes.add(metricsRoute(service), ctx.id);
      }
    });
    if (cfg.enabled === true || out) return start().then(() => undefined);
    return undefined;
  },
};

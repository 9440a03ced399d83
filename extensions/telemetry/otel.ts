/**
 * The OpenTelemetry SDK parts, started: a tracer provider with a batching OTLP/HTTP (JSON) span exporter,
 * and, when the metrics service is there, a meter provider whose periodic reader exports the service's
 * families through a MetricProducer. Imported dynamically by index.ts only once telemetry is on.
 */
import type { Tracer } from "@opentelemetry/api";
import { ExportResultCode, type ExportResult } from "@opentelemetry/core";
import { defaultResource, resourceFromAttributes } from "@opentelemetry/resources";
import { BasicTracerProvider, BatchSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { MeterProvider, PeriodicExportingMetricReader } from "@opentelemetry/sdk-metrics";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { OTLPMetricExporter } from "@opentelemetry/exporter-metrics-otlp-http";
import type { MetricsService } from "../metrics/api.js";
import { metricsProducer } from "./metrics-otlp.js";
import { shownUrl, type TelemetrySettings } from "./settings.js";
import { SpanTracker } from "./spans.js";

export interface Started {
  tracker?: SpanTracker;
  /** export what is buffered, within `boundMs`; resolves false when the bound passed first */
  flush(boundMs: number): Promise<boolean>;
  /** flush and stop, within `boundMs` (the final metrics export included) */
  shutdown(boundMs: number): Promise<boolean>;
}

export interface StartDeps {
  version: string;
  redact: () => (text: string) => string;
  metrics?: MetricsService;
  /** said once per distinct reason (an unreachable collector is one warning, not one per batch) */
  warnOnce(key: string, message: string): void;
}

/** Settle within `ms` (true) or give up waiting (false); the timer never holds the process. */
export function within(p: Promise<unknown>, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const t = setTimeout(() => resolve(false), ms);
    t.unref();
    p.then(
      () => {
        clearTimeout(t);
        resolve(true);
      },
      () => {
        clearTimeout(t);
        resolve(true);
      },
    );
  });
}

/** Make an exporter say its failures (once per signal) instead of the SDK's silent diag channel. */
function reporting<T extends { export(items: never, cb: (r: ExportResult) => void): void }>(exporter: T, what: string, url: string, deps: StartDeps): T {
  const inner = exporter.export.bind(exporter) as (items: unknown, cb: (r: ExportResult) => void) => void;
  (exporter as unknown as { export: (items: unknown, cb: (r: ExportResult) => void) => void }).export = (items, cb) =>
    inner(items, (r) => {
      if (r.code !== ExportResultCode.SUCCESS) deps.warnOnce(`export-${what}`, deps.redact()(`telemetry: could not export ${what} to ${shownUrl(url)}: ${r.error?.message ?? "failed"} (the run goes on; nothing more is said about it)`));
      cb(r);
    });
  return exporter;
}

export function startTelemetry(s: TelemetrySettings, deps: StartDeps): Started {
  const resource = defaultResource().merge(resourceFromAttributes({ ...s.resource, "service.name": s.serviceName, "service.version": deps.version }));
  const startedAt = Date.now();
  let tracer: Tracer | undefined;
  let traces: BasicTracerProvider | undefined;
  if (s.traces) {
    const exporter = reporting(new OTLPTraceExporter({ url: s.tracesUrl, headers: s.headers }), "spans", s.tracesUrl, deps);
    traces = new BasicTracerProvider({ resource, spanProcessors: [new BatchSpanProcessor(exporter)] });
    tracer = traces.getTracer("oceancode", deps.version);
  }
  let meters: MeterProvider | undefined;
  if (s.metricsUrl && deps.metrics) {
    const exporter = reporting(new OTLPMetricExporter({ url: s.metricsUrl, headers: s.headers }), "metrics", s.metricsUrl, deps);
    const reader = new PeriodicExportingMetricReader({
      exporter,
      exportIntervalMillis: s.metricIntervalMs,
      exportTimeoutMillis: Math.min(30_000, s.metricIntervalMs),
      metricProducers: [metricsProducer(deps.metrics, resource, startedAt)],
    });
    meters = new MeterProvider({ resource, readers: [reader] });
  }
  const flushAll = () => Promise.all([traces?.forceFlush(), meters?.forceFlush()]);
  return {
    ...(tracer ? { tracker: new SpanTracker(tracer, deps.redact, s.logContent) } : {}),
    flush: (ms) => within(flushAll(), ms),
    shutdown: (ms) => within(Promise.all([traces?.shutdown(), meters?.shutdown()]), ms),
  };
}

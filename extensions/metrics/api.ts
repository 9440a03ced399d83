/**
 * The published contract `oceancode/api/metrics`: the process's metrics (one registry, prom-client),
 * read by serve's GET /metrics, `run --metrics-out` and the OpenTelemetry exporter. Types only here.
 */

export type MetricType = "counter" | "gauge" | "histogram";

/** One sample of a metric family (a histogram has `_bucket` / `_sum` / `_count` samples, named in metricName). */
export interface MetricSample {
  value: number;
  labels: Readonly<Record<string, string | number>>;
  /** the sample's own name where it differs from the family's (histograms) */
  metricName?: string;
}

/** One metric family as prom-client's getMetricsAsJSON() gives it. */
export interface MetricFamily {
  name: string;
  help: string;
  type: MetricType;
  values: MetricSample[];
}

/** Service "metrics". */
export interface MetricsService {
  /** every family now, with its samples */
  snapshot(): Promise<MetricFamily[]>;
  /** the Prometheus text exposition format (version 0.0.4) */
  text(): Promise<string>;
  /** the content type of text() */
  readonly contentType: string;
}

export const METRICS_SERVICE = "metrics";

/** The services this contract names, typed for `ctx.services.get(name)` and `kernel.service(name)`. */
declare module "../../kernel/api.js" {
  interface ServiceMap {
    metrics: MetricsService;
  }
}

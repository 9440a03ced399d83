/**
 * The metrics service's families (prom-client's JSON shape) as OTLP metric data, for a MetricProducer:
 * counters as cumulative monotonic sums, gauges as gauges, histograms as explicit-bucket histograms
 * (Prometheus' cumulative `le` buckets turned into per-bucket counts). Loaded only when telemetry is on.
 */
import { ValueType, type Attributes, type HrTime } from "@opentelemetry/api";
import { AggregationTemporality, DataPointType, type MetricData, type MetricProducer, type CollectionResult } from "@opentelemetry/sdk-metrics";
import type { Resource } from "@opentelemetry/resources";
import type { MetricFamily, MetricSample, MetricsService } from "../metrics/api.js";

const hr = (ms: number): HrTime => [Math.floor(ms / 1000), Math.round((ms % 1000) * 1e6)];

function attrs(labels: MetricSample["labels"], drop?: string): Attributes {
  const out: Attributes = {};
  for (const [k, v] of Object.entries(labels)) if (k !== drop) out[k] = v;
  return out;
}

const labelKey = (a: Attributes) =>
  JSON.stringify(
    Object.entries(a)
      .map(([k, v]) => [k, String(v)])
      .sort(),
  );

function histogramPoints(f: MetricFamily, start: HrTime, end: HrTime): MetricData {
  interface Acc {
    attributes: Attributes;
    buckets: Array<[number, number]>;
    sum: number;
    count: number;
  }
  const by = new Map<string, Acc>();
  const acc = (a: Attributes) => {
    const k = labelKey(a);
    let x = by.get(k);
    if (!x) by.set(k, (x = { attributes: a, buckets: [], sum: 0, count: 0 }));
    return x;
  };
  for (const s of f.values) {
    const name = s.metricName ?? f.name;
    if (name.endsWith("_bucket")) {
      const le = s.labels.le;
      const bound = le === "+Inf" ? Infinity : Number(le);
      if (Number.isNaN(bound)) continue;
      acc(attrs(s.labels, "le")).buckets.push([bound, s.value]);
    } else if (name.endsWith("_sum")) acc(attrs(s.labels)).sum = s.value;
    else if (name.endsWith("_count")) acc(attrs(s.labels)).count = s.value;
  }
  const dataPoints = [...by.values()].map((x) => {
    const sorted = x.buckets.sort((a, b) => a[0] - b[0]);
    const boundaries = sorted.filter(([b]) => Number.isFinite(b)).map(([b]) => b);
    // cumulative (le) counts to per-bucket counts; the last bucket is (last boundary, +Inf)
    const counts: number[] = [];
    let prev = 0;
    for (const [, c] of sorted.filter(([b]) => Number.isFinite(b))) {
      counts.push(Math.max(0, c - prev));
      prev = c;
    }
    counts.push(Math.max(0, x.count - prev));
    return { startTime: start, endTime: end, attributes: x.attributes, value: { buckets: { boundaries, counts }, sum: x.sum, count: x.count } };
  });
  return { descriptor: { name: f.name, description: f.help, unit: "", valueType: ValueType.DOUBLE }, aggregationTemporality: AggregationTemporality.CUMULATIVE, dataPointType: DataPointType.HISTOGRAM, dataPoints };
}

/** One family as OTLP metric data (undefined for a type it does not map). */
export function toMetricData(f: MetricFamily, startMs: number, nowMs: number): MetricData | undefined {
  const start = hr(startMs);
  const end = hr(nowMs);
  const descriptor = { name: f.name, description: f.help, unit: "", valueType: ValueType.DOUBLE };
  const points = () => f.values.map((s) => ({ startTime: start, endTime: end, attributes: attrs(s.labels), value: s.value }));
  switch (f.type) {
    case "counter":
      return { descriptor, aggregationTemporality: AggregationTemporality.CUMULATIVE, dataPointType: DataPointType.SUM, isMonotonic: true, dataPoints: points() };
    case "gauge":
      return { descriptor, aggregationTemporality: AggregationTemporality.CUMULATIVE, dataPointType: DataPointType.GAUGE, dataPoints: points() };
    case "histogram":
      return histogramPoints(f, start, end);
    default:
      return undefined;
  }
}

/** A MetricProducer over the metrics service: each collection reads its snapshot. */
export function metricsProducer(metrics: MetricsService, resource: Resource, startMs: number): MetricProducer {
  return {
    async collect(): Promise<CollectionResult> {
      const now = Date.now();
      const errors: unknown[] = [];
      let families: MetricFamily[] = [];
      try {
        families = await metrics.snapshot();
      } catch (e) {
        errors.push(e);
      }
      const data = families.map((f) => toMetricData(f, startMs, now)).filter((m): m is MetricData => m !== undefined);
      return { resourceMetrics: { resource, scopeMetrics: [{ scope: { name: "oceancode" }, metrics: data }] }, errors };
    },
  };
}

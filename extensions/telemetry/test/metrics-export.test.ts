/**
 * The metrics service's families exported over OTLP/HTTP: a real prom-client registry stands in for the
 * metrics service (its snapshot is prom-client's getMetricsAsJSON, the contract's shape), the real SDK
 * reader and exporter post to the collector stand-in. Counters arrive as monotonic cumulative sums, gauges
 * as gauges, histograms with per-bucket counts; periodic at the interval, and a final export at shutdown.
 */
import { afterEach, describe, expect, it } from "vitest";
import client from "prom-client";
import { startTelemetry } from "../otel.js";
import type { MetricFamily, MetricsService } from "../../metrics/api.js";
import { decide } from "../settings.js";
import { attrs, startOtlpCollector, type OtlpCollector, type OtlpMetric } from "../../../test/kit/fakes/otlp-collector.js";

let col: OtlpCollector | undefined;
afterEach(async () => {
  await col?.close();
  col = undefined;
});

function registry() {
  const reg = new client.Registry();
  const tools = new client.Counter({ name: "oceancode_tool_calls_total", help: "tool calls", labelNames: ["tool", "outcome"], registers: [reg] });
  const lag = new client.Gauge({ name: "oceancode_writer_lag_ms", help: "writer lag", registers: [reg] });
  const latency = new client.Histogram({ name: "oceancode_tool_duration_ms", help: "tool latency", labelNames: ["tool"], buckets: [10, 100], registers: [reg] });
  const service: MetricsService = { snapshot: async () => (await reg.getMetricsAsJSON()) as unknown as MetricFamily[], text: () => reg.metrics(), contentType: reg.contentType };
  return { service, tools, lag, latency };
}

async function until(what: string, ok: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const last = (ms: OtlpMetric[], name: string) => ms.filter((m) => m.name === name).at(-1);

describe("metrics over OTLP", () => {
  it("exports counters, gauges and histograms periodically, and once more at shutdown", async () => {
    col = await startOtlpCollector();
    const m = registry();
    m.tools.inc({ tool: "read", outcome: "ok" }, 3);
    m.lag.set(42);
    m.latency.observe({ tool: "read" }, 5);
    m.latency.observe({ tool: "read" }, 50);
    m.latency.observe({ tool: "read" }, 500);
    const d = decide({ OTEL_EXPORTER_OTLP_ENDPOINT: col.url, OTEL_METRIC_EXPORT_INTERVAL: "200" }, { otel: true });
    if (!d.on) throw new Error(d.status.reason);
    const warnings: string[] = [];
    const t = startTelemetry(d.settings, { version: "0.0.0", redact: () => (s) => s, metrics: m.service, warnOnce: (_k, msg) => warnings.push(msg) });
    await until("a periodic metrics export", () => col!.requests.some((r) => r.path === "/v1/metrics"));
    const first = col.metrics();
    const counter = last(first, "oceancode_tool_calls_total")!;
    expect(counter.sum?.isMonotonic).toBe(true);
    expect(counter.sum?.dataPoints[0]).toMatchObject({ asDouble: 3 });
    expect(attrs(counter.sum?.dataPoints[0]?.attributes as never)).toEqual({ tool: "read", outcome: "ok" });
    expect(last(first, "oceancode_writer_lag_ms")?.gauge?.dataPoints[0]).toMatchObject({ asDouble: 42 });
    const h = last(first, "oceancode_tool_duration_ms")?.histogram?.dataPoints[0] as { count: string | number; sum: number; bucketCounts: Array<string | number>; explicitBounds: number[] };
    expect(Number(h.count)).toBe(3);
    expect(h.sum).toBe(555);
    expect(h.explicitBounds).toEqual([10, 100]);
    expect(h.bucketCounts.map(Number)).toEqual([1, 1, 1]);
    // the final export at shutdown carries what changed since
    m.tools.inc({ tool: "read", outcome: "ok" }, 2);
    const before = col.requests.length;
    expect(await t.shutdown(2_000)).toBe(true);
    expect(col.requests.length).toBeGreaterThan(before);
    expect(last(col.metrics(), "oceancode_tool_calls_total")?.sum?.dataPoints[0]).toMatchObject({ asDouble: 5 });
    expect(warnings).toEqual([]);
  });

  it("with no metrics service, sends no metrics (traces only)", async () => {
    col = await startOtlpCollector();
    const d = decide({ OTEL_EXPORTER_OTLP_ENDPOINT: col.url, OTEL_METRIC_EXPORT_INTERVAL: "50" }, { otel: true });
    if (!d.on) throw new Error(d.status.reason);
    const t = startTelemetry(d.settings, { version: "0.0.0", redact: () => (s) => s, warnOnce: () => undefined });
    expect(t.tracker).toBeDefined();
    expect(await t.shutdown(2_000)).toBe(true);
    expect(col.requests.filter((r) => r.path === "/v1/metrics")).toEqual([]);
  });
});

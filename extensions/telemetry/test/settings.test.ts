/** extensions/telemetry/settings.ts: when telemetry is on, and what the standard OTEL_* variables set. */
import { describe, expect, it } from "vitest";
import { decide, parsePairs } from "../settings.js";

const EP = { OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:4318/" };

describe("telemetry settings", () => {
  it("is off by default and needs both an endpoint and a request for it", () => {
    expect(decide({}, {}).on).toBe(false);
    expect(decide(EP, {}).on).toBe(false);
    expect(decide({ OC_ENABLE_TELEMETRY: "1" }, {}).status.reason).toMatch(/no OTEL_EXPORTER_OTLP_ENDPOINT/);
    expect(decide({ ...EP, OC_ENABLE_TELEMETRY: "0" }, {}).on).toBe(false);
    for (const on of [{ OC_ENABLE_TELEMETRY: "1" }, { CLAUDE_CODE_ENABLE_TELEMETRY: "1" }, { OC_ENABLE_TELEMETRY: "true" }]) expect(decide({ ...EP, ...on }, {}).on).toBe(true);
    expect(decide(EP, { otel: true }).on).toBe(true);
    expect(decide({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "http://h/t" }, { otel: true }).on).toBe(true);
    expect(decide({ ...EP, OTEL_SDK_DISABLED: "true" }, { otel: true }).on).toBe(false);
  });

  it("joins the signal paths to the base endpoint; a signal endpoint is used as written", () => {
    const d = decide(EP, { otel: true });
    expect(d.on && d.settings).toMatchObject({ tracesUrl: "http://127.0.0.1:4318/v1/traces", metricsUrl: "http://127.0.0.1:4318/v1/metrics", traces: true, serviceName: "oceancode", metricIntervalMs: 60_000, logContent: false });
    const s = decide({ ...EP, OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "http://t/x", OTEL_EXPORTER_OTLP_METRICS_ENDPOINT: "http://m/y" }, { otel: true });
    expect(s.on && [s.settings.tracesUrl, s.settings.metricsUrl]).toEqual(["http://t/x", "http://m/y"]);
    const only = decide({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "http://t/x" }, { otel: true });
    expect(only.on && only.settings.metricsUrl).toBeUndefined();
    const none = decide({ ...EP, OTEL_METRICS_EXPORTER: "none", OTEL_TRACES_EXPORTER: "none" }, { otel: true });
    expect(none.on && [none.settings.metricsUrl, none.settings.traces]).toEqual([undefined, false]);
  });

  it("reads the service name, resource attributes, headers, the metric interval and the content switch", () => {
    const d = decide({ ...EP, OTEL_SERVICE_NAME: "svc", OTEL_RESOURCE_ATTRIBUTES: "service.name=ignored,a=b%20c", OTEL_EXPORTER_OTLP_HEADERS: "k=v,bad,x=1=2", OTEL_METRIC_EXPORT_INTERVAL: "5000" }, { otel: true, otel_log_content: true });
    expect(d.on && d.settings).toMatchObject({ serviceName: "svc", resource: { a: "b c" }, headers: { k: "v", x: "1=2" }, metricIntervalMs: 5000, logContent: true });
    const r = decide({ ...EP, OTEL_RESOURCE_ATTRIBUTES: "service.name=from-resource", OTEL_METRIC_EXPORT_INTERVAL: "soon" }, { otel: true });
    expect(r.on && [r.settings.serviceName, r.settings.metricIntervalMs]).toEqual(["from-resource", 60_000]);
    expect(parsePairs("a=%E0%A4%A,b=2")).toEqual({ a: "%E0%A4%A", b: "2" });
  });

  it("speaks http/json only: another protocol turns it off with one warning naming the variable", () => {
    expect(decide({ ...EP, OTEL_EXPORTER_OTLP_PROTOCOL: "http/json" }, { otel: true }).on).toBe(true);
    for (const [name, value] of [["OTEL_EXPORTER_OTLP_PROTOCOL", "grpc"], ["OTEL_EXPORTER_OTLP_TRACES_PROTOCOL", "http/protobuf"]] as const) {
      const d = decide({ ...EP, [name]: value }, { otel: true });
      expect(d.on).toBe(false);
      expect(!d.on && d.warning).toBe(`${name}=${value}: oceancode exports OTLP over http/json only; telemetry is off (set ${name}=http/json; an OTLP/HTTP receiver accepts JSON on the same port)`);
    }
    // not asked for: no warning about the protocol at all
    expect(decide({ ...EP, OTEL_EXPORTER_OTLP_PROTOCOL: "grpc" }, {})).not.toHaveProperty("warning");
  });
});

describe("shown URLs", () => {
  it("a password in the collector URL is never shown", async () => {
    const { shownUrl } = await import("../settings.js");
    expect(shownUrl("https://ops:s3cretpw@collector.example:4318/v1/traces")).toBe("https://ops:***@collector.example:4318/v1/traces");
    expect(shownUrl("not a url")).toBe("(the configured endpoint)");
    const d = decide({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://u:s3cretpw@h:4318" }, { otel: true });
    expect(JSON.stringify(d.status)).not.toContain("s3cretpw");
  });
});

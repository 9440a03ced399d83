/**
 * An OTLP/HTTP collector stand-in on 127.0.0.1: records the JSON bodies POSTed to /v1/traces and
 * /v1/metrics and answers 200 `{}` (an OTLP/HTTP receiver's success). Helpers flatten the spans and the
 * metrics out of the OTLP JSON shape for assertions.
 */
import { startServer, type BaseServer, type FakeServerOptions, type RecordedRequest } from "./common.js";

export interface OtlpAttribute {
  key: string;
  value: { stringValue?: string; intValue?: string | number; doubleValue?: number; boolValue?: boolean; arrayValue?: { values: OtlpAttribute["value"][] } };
}
export interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind?: number;
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  attributes?: OtlpAttribute[];
  status?: { code?: number; message?: string };
}
export interface OtlpMetric {
  name: string;
  description?: string;
  sum?: { dataPoints: Array<Record<string, unknown>>; isMonotonic?: boolean };
  gauge?: { dataPoints: Array<Record<string, unknown>> };
  histogram?: { dataPoints: Array<Record<string, unknown>> };
}
interface TracesBody {
  resourceSpans?: Array<{ resource?: { attributes?: OtlpAttribute[] }; scopeSpans?: Array<{ spans?: OtlpSpan[] }> }>;
}
interface MetricsBody {
  resourceMetrics?: Array<{ resource?: { attributes?: OtlpAttribute[] }; scopeMetrics?: Array<{ metrics?: OtlpMetric[] }> }>;
}

export interface OtlpCollector extends BaseServer<Record<string, unknown>> {
  /** every span received so far, in arrival order */
  spans(): OtlpSpan[];
  metrics(): OtlpMetric[];
  /** the resource attributes of the first traces body */
  resource(): Record<string, unknown>;
  /** the raw bodies of every request (for canary checks) */
  bodies(): string[];
}

/** An attribute's value as a plain JS value. */
export function attrValue(v: OtlpAttribute["value"]): unknown {
  if (v.stringValue !== undefined) return v.stringValue;
  if (v.intValue !== undefined) return Number(v.intValue);
  if (v.doubleValue !== undefined) return v.doubleValue;
  if (v.boolValue !== undefined) return v.boolValue;
  if (v.arrayValue) return v.arrayValue.values.map(attrValue);
  return undefined;
}
export function attrs(list: OtlpAttribute[] | undefined): Record<string, unknown> {
  return Object.fromEntries((list ?? []).map((a) => [a.key, attrValue(a.value)]));
}

export async function startOtlpCollector(opts: FakeServerOptions & { status?: number } = {}): Promise<OtlpCollector> {
  const base = await startServer<Record<string, unknown>>(opts, (req, res) => {
    const known = req.method === "POST" && (req.path === "/v1/traces" || req.path === "/v1/metrics");
    res.writeHead(known ? (opts.status ?? 200) : 404, { "content-type": "application/json" });
    res.end(known ? "{}" : JSON.stringify({ error: "not an OTLP path" }));
  });
  const of = (p: string) => base.requests.filter((r: RecordedRequest<Record<string, unknown>>) => r.path === p);
  return {
    ...base,
    get count() {
      return base.count;
    },
    spans: () => of("/v1/traces").flatMap((r) => ((r.body as TracesBody).resourceSpans ?? []).flatMap((rs) => (rs.scopeSpans ?? []).flatMap((ss) => ss.spans ?? []))),
    metrics: () => of("/v1/metrics").flatMap((r) => ((r.body as MetricsBody).resourceMetrics ?? []).flatMap((rm) => (rm.scopeMetrics ?? []).flatMap((sm) => sm.metrics ?? []))),
    resource: () => attrs(((of("/v1/traces")[0]?.body as TracesBody | undefined)?.resourceSpans ?? [])[0]?.resource?.attributes),
    bodies: () => base.requests.map((r) => r.raw),
  };
}

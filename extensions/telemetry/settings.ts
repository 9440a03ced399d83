/**
 * Whether telemetry is on, and with what: read from the environment (the standard OTEL_* variables) and
 * the obs config section. Pure and free of any @opentelemetry import: this is all that runs when it is off.
 */
import type { TelemetryStatus } from "./api.js";

export interface ObsOtelConfig {
  otel?: boolean;
  otel_log_content?: boolean;
}

export interface TelemetrySettings {
  tracesUrl: string;
  /** absent: metrics are not exported (OTEL_METRICS_EXPORTER=none) */
  metricsUrl?: string;
  /** absent: traces are not exported (OTEL_TRACES_EXPORTER=none) */
  traces: boolean;
  headers: Record<string, string>;
  serviceName: string;
  resource: Record<string, string>;
  metricIntervalMs: number;
  logContent: boolean;
}

export type Decision = { on: true; settings: TelemetrySettings; status: TelemetryStatus } | { on: false; status: TelemetryStatus; warning?: string };

const DEFAULT_METRIC_INTERVAL_MS = 60_000;
const truthy = (v: string | undefined) => v !== undefined && /^(1|true|yes|on)$/i.test(v.trim());
const set = (v: string | undefined): string | undefined => (v !== undefined && v.trim() !== "" ? v.trim() : undefined);

/** `k1=v1,k2=v2` with percent-encoded values (OTEL_EXPORTER_OTLP_HEADERS, OTEL_RESOURCE_ATTRIBUTES). Bad pairs are skipped. */
export function parsePairs(raw: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of (raw ?? "").split(",")) {
    const eq = part.indexOf("=");
    if (eq <= 0) continue;
    const key = part.slice(0, eq).trim();
    let value = part.slice(eq + 1).trim();
    try {
      value = decodeURIComponent(value);
    } catch {
      /* not percent-encoded: taken as written */
    }
    if (key) out[key] = value;
  }
  return out;
}

/** A URL as it may be shown: a password in it becomes *** (the collector's URL may carry credentials). */
export function shownUrl(u: string): string {
  try {
    const url = new URL(u);
    if (url.password) url.password = "***";
    return url.href;
  } catch {
    return "(the configured endpoint)";
  }
}

/** The base endpoint plus the signal's path, as the OTLP spec joins them (`<endpoint>/v1/traces`). */
function signalUrl(base: string, signal: "traces" | "metrics"): string {
  return `${base.replace(/\/+$/, "")}/v1/${signal}`;
}

/** http/json is what the bundled exporters speak; anything else is refused (with one warning). */
function badProtocol(env: NodeJS.ProcessEnv): string | undefined {
  for (const name of ["OTEL_EXPORTER_OTLP_PROTOCOL", "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL", "OTEL_EXPORTER_OTLP_METRICS_PROTOCOL"]) {
    const v = set(env[name]);
    if (v !== undefined && v !== "http/json") return `${name}=${v}: oceancode exports OTLP over http/json only; telemetry is off (set ${name}=http/json; an OTLP/HTTP receiver accepts JSON on the same port)`;
  }
  return undefined;
}

/**
 * Is telemetry on? Both an endpoint (OTEL_EXPORTER_OTLP_ENDPOINT or _TRACES_ENDPOINT) and a request for it
 * (obs.otel: true, OC_ENABLE_TELEMETRY=1 or Claude Code's CLAUDE_CODE_ENABLE_TELEMETRY=1); never by default.
 */
export function decide(env: NodeJS.ProcessEnv, cfg: ObsOtelConfig): Decision {
  const asked = cfg.otel === true || truthy(env.OC_ENABLE_TELEMETRY) || truthy(env.CLAUDE_CODE_ENABLE_TELEMETRY);
  const base = set(env.OTEL_EXPORTER_OTLP_ENDPOINT);
  const tracesEndpoint = set(env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT);
  const metricsEndpoint = set(env.OTEL_EXPORTER_OTLP_METRICS_ENDPOINT);
  if (!asked) return { on: false, status: { enabled: false, reason: "not enabled (obs.otel, OC_ENABLE_TELEMETRY=1 or CLAUDE_CODE_ENABLE_TELEMETRY=1)" } };
  if (base === undefined && tracesEndpoint === undefined) return { on: false, status: { enabled: false, reason: "enabled but no OTEL_EXPORTER_OTLP_ENDPOINT (or _TRACES_ENDPOINT) is set" } };
  if (truthy(env.OTEL_SDK_DISABLED)) return { on: false, status: { enabled: false, reason: "OTEL_SDK_DISABLED=true" } };
  const protocol = badProtocol(env);
  if (protocol) return { on: false, status: { enabled: false, reason: protocol }, warning: protocol };
  const tracesUrl = tracesEndpoint ?? signalUrl(base!, "traces");
  const metricsOff = set(env.OTEL_METRICS_EXPORTER) === "none";
  const metricsUrl = metricsOff ? undefined : (metricsEndpoint ?? (base !== undefined ? signalUrl(base, "metrics") : undefined));
  const traces = set(env.OTEL_TRACES_EXPORTER) !== "none";
  const interval = Number(set(env.OTEL_METRIC_EXPORT_INTERVAL));
  const resource = parsePairs(env.OTEL_RESOURCE_ATTRIBUTES);
  const serviceName = set(env.OTEL_SERVICE_NAME) ?? resource["service.name"] ?? "oceancode";
  const settings: TelemetrySettings = {
    tracesUrl,
    ...(metricsUrl !== undefined ? { metricsUrl } : {}),
    traces,
    headers: parsePairs(env.OTEL_EXPORTER_OTLP_HEADERS),
    serviceName,
    resource,
    metricIntervalMs: Number.isFinite(interval) && interval > 0 ? interval : DEFAULT_METRIC_INTERVAL_MS,
    logContent: cfg.otel_log_content === true,
  };
  return {
    on: true,
    settings,
    status: { enabled: true, reason: "on", tracesUrl: traces ? shownUrl(tracesUrl) : undefined, metricsUrl: metricsUrl !== undefined ? shownUrl(metricsUrl) : undefined, serviceName, logContent: settings.logContent },
  };
}

/**
 * The published contract `oceancode/api/telemetry`: whether OpenTelemetry export is on in this process,
 * and why (doctor and inspect show it). Types only here; the implementation is the telemetry extension's.
 */

export interface TelemetryStatus {
  enabled: boolean;
  /** "on", or why it is off (not asked for, no endpoint, a protocol it does not speak, ...) */
  reason: string;
  /** where spans go (absent: traces off; a password in the URL shown as ***) */
  tracesUrl?: string;
  /** where metrics go (absent: metrics off) */
  metricsUrl?: string;
  serviceName?: string;
  /** prompts, model text and tool input/output are exported (obs.otel_log_content) */
  logContent?: boolean;
}

/** Service "telemetry". */
export interface TelemetryService {
  status(): TelemetryStatus;
  /** export what is buffered now, bounded (ms, default 2000); never throws */
  flush(boundMs?: number): Promise<void>;
}

export const TELEMETRY_SERVICE = "telemetry";

/** Span names, as exported. */
export const SPAN_NAMES = Object.freeze({
  turn: "oceancode.turn",
  step: "oceancode.step",
  modelCall: "oceancode.model_call",
  toolCall: "oceancode.tool_call",
  hook: "oceancode.hook",
});

/** The services this contract names, typed for `ctx.services.get(name)` and `kernel.service(name)`. */
declare module "../../kernel/api.js" {
  interface ServiceMap {
    telemetry: TelemetryService;
  }
}

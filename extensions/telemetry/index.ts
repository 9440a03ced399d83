/**
 * telemetry: OpenTelemetry traces (turn > step > model call / tool call, and hook calls) and the metrics
 * service's families, exported over OTLP/HTTP (JSON) when an endpoint is set and telemetry is asked for
 * (obs.otel, OC_ENABLE_TELEMETRY=1, CLAUDE_CODE_ENABLE_TELEMETRY=1). Off, it imports no @opentelemetry
 * module: the SDK is loaded by a dynamic import after the check. At kernel shutdown it flushes within a
 * bound, so a run's spans leave before exit and an unreachable collector never holds the exit. See
 * docs/operations-telemetry.md.
 */
import { observeHookCalls, type ExtensionContext } from "../../kernel/api.js";
import { KERNEL_VERSION } from "../../kernel/api.js";
import type { StructuredLogger } from "../obs/api.js";
import type { TelemetryService, TelemetryStatus } from "./api.js";
import { decide, type ObsOtelConfig } from "./settings.js";

/** How long shutdown waits for the last export (ms): a run never exits later than this for telemetry. */
export const SHUTDOWN_BOUND_MS = 2_000;
const identity = (t: string) => t;

export default {
  async activate(ctx: ExtensionContext) {
    const obs = () => ctx.services.tryGet("obs");
    const log: Pick<StructuredLogger, "debug" | "warn"> = obs()?.logger(ctx.id) ?? ctx.log;
    const d = decide(ctx.env, ctx.config.section<ObsOtelConfig>("obs") ?? {});
    let status: TelemetryStatus = d.status;
    let flush: (ms: number) => Promise<boolean> = async () => true;
    const service: TelemetryService = { status: () => ({ ...status }), flush: async (ms = SHUTDOWN_BOUND_MS) => void (await flush(ms)) };
    ctx.provide("telemetry", service);
    if (!d.on) {
      if (d.warning) log.warn(`telemetry: ${d.warning}`);
      return;
    }
    const said = new Set<string>();
    const warnOnce = (key: string, message: string) => {
      if (said.has(key)) return;
      said.add(key);
      log.warn(message);
    };
    const metrics = ctx.services.tryGet("metrics");
    if (!metrics) log.debug("telemetry: no metrics service in this build; no metrics are exported (traces only)");
    let started: import("./otel.js").Started;
    try {
      const { startTelemetry } = await import("./otel.js");
      // the obs service starts first (onStartup): its redactor is taken once
      const o = obs();
      const redact = o ? (t: string) => o.redact(t) : identity;
      started = startTelemetry(d.settings, { version: KERNEL_VERSION, redact: () => redact, metrics, warnOnce });
    } catch (e) {
      status = { enabled: false, reason: `could not start: ${e instanceof Error ? e.message : String(e)}` };
      log.warn(`telemetry: ${status.reason}; the run goes on without it`);
      return;
    }
    flush = (ms) => started.flush(ms);
    const tracker = started.tracker;
    if (tracker) {
      const engine = ctx.services.get("engine");
      const h = engine.hooks;
      h.userPrompt.tap({ name: ctx.id, stage: "trace" }, (input, turn) => {
        tracker.prompt(turn.session, turn.turn, input.text);
        return input;
      });
      h.contextBuild.tap({ name: ctx.id, stage: "trace" }, (window, step) => {
        tracker.step(step);
        return window;
      });
      h.afterModelCall.tap({ name: ctx.id }, (rec) => tracker.modelCall(rec));
      h.executeTool.tap({ name: ctx.id, stage: "measure" }, (next) => (c) => tracker.toolCall(c, next));
      h.afterStep.tap({ name: ctx.id, stage: "STAGE_AUDIT" }, (rec) => tracker.stepEnded(rec));
      h.afterTurn.tap({ name: ctx.id, stage: "STAGE_AUDIT" }, (rec) => tracker.turnEnded(rec));
      h.sessionEnd.tap({ name: ctx.id }, ({ session }) => tracker.closeAll("session_end", session.info.id));
      const unobserve = observeHookCalls(tracker.observer);
      ctx.kernelHooks.shutdown.tap({ name: ctx.id, stage: "close", timeoutMs: SHUTDOWN_BOUND_MS + 1_000 }, () => unobserve());
    }
    // last: after the other shutdown taps (their hook spans end first), bounded
    ctx.kernelHooks.shutdown.tap({ name: ctx.id, stage: "flush", timeoutMs: SHUTDOWN_BOUND_MS + 1_000 }, async () => {
      tracker?.closeAll("shutdown");
      if (!(await started.shutdown(SHUTDOWN_BOUND_MS))) warnOnce("shutdown", `telemetry: the collector did not take the last export within ${SHUTDOWN_BOUND_MS} ms; it was dropped (the run is not affected)`);
    });
    log.debug(`telemetry: on (traces ${status.tracesUrl ?? "off"}, metrics ${metrics ? (status.metricsUrl ?? "off") : "absent"})`);
  },
};

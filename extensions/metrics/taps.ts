/**
 * The engine taps that feed the Recorder: each does O(1) work per event (a counter increment, one
 * histogram observation), so collection cost per step stays flat however long a session runs.
 */
import type { EngineService, ToolCallContext, ToolOutput } from "../engine/api.js";
import type { Recorder } from "./prom-metrics.js";

const NAME = "metrics";

/** Taps the engine's observer hooks; returns the live open-session count. */
export function tapEngine(engine: EngineService, record: Recorder): { openSessions(): number } {
  const h = engine.hooks;
  let open = 0;
  h.sessionStart.tap({ name: NAME, stage: "observe" }, () => {
    open++;
  });
  h.sessionEnd.tap({ name: NAME, stage: "STAGE_AUDIT" }, () => {
    if (open > 0) open--;
  });
  h.afterStep.tap({ name: NAME, stage: "STAGE_AUDIT" }, (rec) => record.step(rec.durationMs));
  h.afterTurn.tap({ name: NAME, stage: "STAGE_AUDIT" }, (rec) => record.turn(rec.reason));
  h.afterModelCall.tap({ name: NAME, stage: "STAGE_AUDIT" }, (rec) => {
    record.modelCall(rec.provider, rec.outcome, (rec.endedAt - rec.startedAt) / 1000, rec.firstTokenAt !== undefined ? (rec.firstTokenAt - rec.startedAt) / 1000 : undefined);
    const u = rec.usage;
    if (u) record.tokens(rec.provider, u.inputTokens, u.outputTokens, u.cacheReadTokens, u.cacheWriteTokens);
    if (typeof rec.costUsd === "number" && Number.isFinite(rec.costUsd) && rec.costUsd >= 0) record.cost(rec.provider, rec.costUsd);
  });
  h.permissionDecided.tap({ name: NAME, stage: "STAGE_AUDIT" }, (rec) => record.permission(rec.decided, rec.final, rec.answeredBy));
  h.permissionDenied.tap({ name: NAME, stage: "STAGE_AUDIT" }, ({ ctx }) => record.toolCall(ctx.call.name, "denied"));
  // outermost (below every named stage): the latency is the whole run, sandbox and hooks included
  h.executeTool.tap({ name: NAME, stage: "measure" }, (next) => async (ctx: ToolCallContext): Promise<ToolOutput> => {
    const started = performance.now();
    const tool = ctx.call.name;
    try {
      const out = await next(ctx);
      record.toolCall(tool, out.isError === true ? "error" : "ok", (performance.now() - started) / 1000);
      return out;
    } catch (e) {
      record.toolCall(tool, "error", (performance.now() - started) / 1000);
      throw e;
    }
  });
  return { openSessions: () => open };
}

/**
 * The status bar's data. The tideline extension's service ("tideline", meter(session)) is the source
 * when present; without it the pager shows the context from the last step's gauge and "tideline off".
 */
import { type ModelInfo, type SessionTotals } from "../../extensions/engine/api.js";
import { isClaudeCliRoute } from "../../extensions/engine/kit.js";
import type { SessionMeter, TidelineService } from "../../extensions/tideline/api.js";
import type { MeterView } from "./format.js";
import { visibleLine } from "../terminal/sanitize.js";

export type { TidelineService };

/** The status bar's data; the model id and the tideline's own text are made safe to display here. */
export function buildMeter(opts: { model: ModelInfo; totals: SessionTotals; gaugeTokens: number; meter?: SessionMeter; capUsd?: number }): MeterView {
  const m = opts.meter;
  const model = visibleLine(opts.model.id);
  if (m) {
    const line = m.enabled ? m.line : undefined;
    return {
      model,
      contextUsed: m.used,
      contextWindow: m.contextWindow,
      tideline: line
        ? { on: true, percent: line.mode === "percent" ? line.percent : undefined, lineTokens: line.line, toGo: m.toGo ?? Math.max(0, line.line - m.used), text: m.status === undefined ? undefined : visibleLine(m.status) }
        : { on: false },
      inputTokens: m.inputTokens + m.cacheReadTokens + m.cacheWriteTokens,
      outputTokens: m.outputTokens,
      spentUsd: m.costUsd,
      capUsd: opts.capUsd,
      ...(isClaudeCliRoute(opts.model.id) ? { subscription: true } : {}),
    };
  }
  const u = opts.totals.usage;
  return {
    model,
    contextUsed: opts.gaugeTokens,
    contextWindow: opts.model.contextWindow,
    tideline: { on: false },
    inputTokens: u.inputTokens + u.cacheReadTokens + u.cacheWriteTokens,
    outputTokens: u.outputTokens,
    spentUsd: opts.totals.costUsd,
    capUsd: opts.capUsd,
    ...(isClaudeCliRoute(opts.model.id) ? { subscription: true } : {}),
  };
}

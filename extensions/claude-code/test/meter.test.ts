/** The pager's status bar on the Claude Code route: the spend is an estimate, "≈$x list · subscription". */
import { describe, expect, test } from "vitest";
import { buildMeter } from "../../../hosts/pager/meter.js";
import { statusParts } from "../../../hosts/pager/format.js";
import type { ModelInfo, SessionTotals } from "../../engine/api.js";

const totals: SessionTotals = { usage: { inputTokens: 10, outputTokens: 5, cacheReadTokens: 28_000, cacheWriteTokens: 100 }, costUsd: 0.1166, turns: 1, steps: 1 };
const model = (id: string): ModelInfo => ({ id, provider: id.split("/")[0]!, name: id.split("/")[1]!, contextWindow: 200_000, maxOutputTokens: 32_000, price: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 }, known: true });

describe("the meter's spend by route", () => {
  test("claude-code/…: ≈$spent list · subscription; a metered route keeps $spent / $cap", () => {
    expect(statusParts(buildMeter({ model: model("claude-code/sonnet"), totals, gaugeTokens: 28_115, capUsd: 5 })).at(-1)).toBe("≈$0.12 list · subscription");
    expect(statusParts(buildMeter({ model: model("anthropic/claude-sonnet-4-6"), totals, gaugeTokens: 28_115, capUsd: 5 })).at(-1)).toBe("$0.12 / $5.00");
  });
});

/**
 * claude-code/<model> catalogue entries. The names are what `claude --model` takes (an alias or a full
 * name); claude-code/mirror passes none of its own: the Claude Code settings mirror's model, else claude's
 * choice. Prices are list prices: on a subscription the meter's figure is an estimate (claude's own
 * total_cost_usd), never a bill.
 */
import type { ModelInfo } from "../engine/api.js";

/** claude-code/mirror: the settings mirror's model (a bare `default` stays the catalogue's default model) */
export const DEFAULT_MODEL_NAME = "mirror";

type Entry = [name: string, contextWindow: number, maxOutputTokens: number, input: number, output: number];

const ENTRIES: Entry[] = [
  [DEFAULT_MODEL_NAME, 200_000, 32_000, 3, 15],
  ["sonnet", 200_000, 32_000, 3, 15],
  ["opus", 200_000, 32_000, 5, 25],
  ["haiku", 200_000, 32_000, 1, 5],
  ["claude-sonnet-4-6", 200_000, 32_000, 3, 15],
  ["claude-opus-4-8", 200_000, 32_000, 5, 25],
  ["claude-opus-4-7", 200_000, 32_000, 5, 25],
  ["claude-haiku-4-5", 200_000, 32_000, 1, 5],
];

export function claudeCodeModels(): Array<Omit<ModelInfo, "known">> {
  return ENTRIES.map(([name, contextWindow, maxOutputTokens, input, output]) => ({
    id: `claude-code/${name}`,
    provider: "claude-code",
    name,
    contextWindow,
    maxOutputTokens,
    price: { input, output, cacheRead: input / 10, cacheWrite: input * 1.25 },
  }));
}

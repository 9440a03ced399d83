/**
 * Catalogue entries for Anthropic models. Prices in USD per million tokens. Our cache markers use the
 * one-hour TTL, so cacheWrite is the 1h write price (2x input); cache reads are 0.1x input.
 */
import type { ModelInfo } from "../engine/api.js";

type Entry = [name: string, contextWindow: number, maxOutputTokens: number, input: number, output: number, aliases?: string[]];

const ENTRIES: Entry[] = [
  ["claude-fable-5-2", 1_000_000, 128_000, 10, 50],
  ["claude-fable-5-1", 1_000_000, 128_000, 10, 50],
  ["claude-fable-5", 1_000_000, 128_000, 10, 50],
  ["claude-opus-4-8", 1_000_000, 128_000, 5, 25],
  ["claude-opus-4-7", 1_000_000, 128_000, 5, 25],
  ["claude-opus-4-6", 200_000, 128_000, 5, 25],
  ["claude-sonnet-4-6", 1_000_000, 64_000, 3, 15],
  ["claude-opus-4-5", 200_000, 64_000, 5, 25, ["claude-opus-4-5-20251101"]],
  ["claude-sonnet-4-5", 200_000, 64_000, 3, 15, ["claude-sonnet-4-5-20250929"]],
  ["claude-haiku-4-5", 200_000, 64_000, 1, 5, ["claude-haiku-4-5-20251001"]],
  ["claude-opus-4-1", 200_000, 32_000, 15, 75, ["claude-opus-4-1-20250805"]],
  ["claude-opus-4-0", 200_000, 32_000, 15, 75, ["claude-opus-4-20250514"]],
  ["claude-sonnet-4-0", 200_000, 64_000, 3, 15, ["claude-sonnet-4-20250514"]],
  ["claude-3-7-sonnet-latest", 200_000, 64_000, 3, 15, ["claude-3-7-sonnet-20250219"]],
  ["claude-3-5-haiku-latest", 200_000, 8_192, 0.8, 4, ["claude-3-5-haiku-20241022"]],
];

export function anthropicModels(): Array<Omit<ModelInfo, "known">> {
  const out: Array<Omit<ModelInfo, "known">> = [];
  for (const [name, contextWindow, maxOutputTokens, input, output, aliases] of ENTRIES) {
    const price = { input, output, cacheRead: input / 10, cacheWrite: input * 2 };
    for (const n of [name, ...(aliases ?? [])]) {
      out.push({ id: `anthropic/${n}`, provider: "anthropic", name: n, contextWindow, maxOutputTokens, price });
    }
  }
  return out;
}

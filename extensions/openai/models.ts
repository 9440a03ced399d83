/**
 * Catalogue entries for OpenAI models. Prices in USD per million tokens; cacheRead is the cached-input
 * price. OpenAI caches automatically and never reports cache writes, so cacheWrite is the input price.
 */
import type { ModelInfo } from "../engine/api.js";

type Entry = [name: string, contextWindow: number, maxOutputTokens: number, input: number, output: number, cachedInput: number];

const ENTRIES: Entry[] = [
  ["gpt-5", 400_000, 128_000, 1.25, 10, 0.125],
  ["gpt-5-mini", 400_000, 128_000, 0.25, 2, 0.025],
  ["gpt-5-nano", 400_000, 128_000, 0.05, 0.4, 0.005],
  ["gpt-4.1", 1_047_576, 32_768, 2, 8, 0.5],
  ["gpt-4.1-mini", 1_047_576, 32_768, 0.4, 1.6, 0.1],
  ["gpt-4.1-nano", 1_047_576, 32_768, 0.1, 0.4, 0.025],
  ["gpt-4o", 128_000, 16_384, 2.5, 10, 1.25],
  ["gpt-4o-mini", 128_000, 16_384, 0.15, 0.6, 0.075],
  ["o3", 200_000, 100_000, 2, 8, 0.5],
  ["o4-mini", 200_000, 100_000, 1.1, 4.4, 0.275],
];

export function openaiModels(): Array<Omit<ModelInfo, "known">> {
  return ENTRIES.map(([name, contextWindow, maxOutputTokens, input, output, cachedInput]) => ({
    id: `openai/${name}`,
    provider: "openai",
    name,
    contextWindow,
    maxOutputTokens,
    price: { input, output, cacheRead: cachedInput, cacheWrite: input },
  }));
}

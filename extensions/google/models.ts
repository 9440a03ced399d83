/**
 * Catalogue entries for Gemini models (until the catalogue reads figures from manifests). Prices in USD
 * per million tokens for prompts up to 200k tokens; cacheRead is the implicit-cache read price. Implicit
 * caching has no write charge, so cacheWrite is the input price.
 */
import type { ModelInfo } from "../engine/api.js";

type Entry = [name: string, contextWindow: number, maxOutputTokens: number, input: number, output: number, cachedInput: number];

const ENTRIES: Entry[] = [
  ["gemini-3-pro-preview", 1_048_576, 65_536, 2, 12, 0.2],
  ["gemini-3-flash-preview", 1_048_576, 65_536, 0.5, 3, 0.05],
  ["gemini-2.5-pro", 1_048_576, 65_536, 1.25, 10, 0.125],
  ["gemini-2.5-flash", 1_048_576, 65_536, 0.3, 2.5, 0.03],
  ["gemini-2.5-flash-lite", 1_048_576, 65_536, 0.1, 0.4, 0.01],
  ["gemini-2.0-flash", 1_048_576, 8_192, 0.1, 0.4, 0.025],
];

export function googleModels(): Array<Omit<ModelInfo, "known">> {
  return ENTRIES.map(([name, contextWindow, maxOutputTokens, input, output, cachedInput]) => ({
    id: `google/${name}`,
    provider: "google",
    name,
    contextWindow,
    maxOutputTokens,
    price: { input, output, cacheRead: cachedInput, cacheWrite: input },
  }));
}

/** Gemini 3 models validate thought signatures on function calls. */
export function validatesSignatures(name: string): boolean {
  return /^gemini-([3-9]|\d\d)/.test(name);
}

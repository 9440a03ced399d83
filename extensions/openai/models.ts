/**
 * The OpenAI catalogue entries as ModelInfo, read from this extension's manifest (contributes.models is the
 * catalogue: figures live there, never in code). cacheRead is the cached-input price; OpenAI never reports
 * cache writes, so cacheWrite is the input price.
 */
import { type ModelInfo, type ModelNameEntry } from "../engine/api.js";
import { modelInfoFromEntry } from "../engine/kit.js";
import manifest from "./manifest.json" with { type: "json" };

export function openaiModels(): Array<Omit<ModelInfo, "known">> {
  return (manifest.contributes.models as ModelNameEntry[]).map(modelInfoFromEntry);
}

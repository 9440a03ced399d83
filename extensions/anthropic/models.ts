/**
 * The Anthropic catalogue entries as ModelInfo, read from this extension's manifest (contributes.models is
 * the catalogue: figures live there, never in code). For routes to the same models (Bedrock, Vertex) that
 * take their windows and prices from Anthropic's.
 */
import { type ModelInfo, type ModelNameEntry } from "../engine/api.js";
import { modelInfoFromEntry } from "../engine/kit.js";
import manifest from "./manifest.json" with { type: "json" };

export function anthropicModels(): Array<Omit<ModelInfo, "known">> {
  return (manifest.contributes.models as ModelNameEntry[]).map(modelInfoFromEntry);
}

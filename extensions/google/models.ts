/**
 * The Gemini catalogue entries as ModelInfo, read from this extension's manifest (contributes.models is the
 * catalogue: figures live there, never in code). Prices in USD per million tokens for prompts up to 200k
 * tokens; cacheRead is the implicit-cache read price. Implicit caching has no write charge, so cacheWrite
 * is the input price.
 */
import { type ModelInfo, type ModelNameEntry } from "../engine/api.js";
import { modelInfoFromEntry } from "../engine/kit.js";
import manifest from "./manifest.json" with { type: "json" };

export function googleModels(): Array<Omit<ModelInfo, "known">> {
  return (manifest.contributes.models as ModelNameEntry[]).map(modelInfoFromEntry);
}

/** Gemini 3 models validate thought signatures on function calls. */
export function validatesSignatures(name: string): boolean {
  return /^gemini-([3-9]|\d\d)/.test(name);
}

/**
 * Bedrock model ids: `anthropic.<model>-<date>-v1:0`, or an inference profile `us.` / `eu.` / `apac.` /
 * `global.` plus that id. Their windows, limits and prices are the Anthropic catalogue's (Bedrock's
 * on-demand prices for Claude are the API's), read through the anthropic contract.
 */
import { anthropicModels } from "../anthropic/kit.js";
import type { ModelInfo } from "../engine/api.js";

type Entry = Omit<ModelInfo, "known">;

/** The base ids listed in the catalogue; any other Bedrock id of a known model is described on demand. */
const BASE_IDS = [
  "anthropic.claude-opus-4-5-20251101-v1:0",
  "anthropic.claude-sonnet-4-5-20250929-v1:0",
  "anthropic.claude-haiku-4-5-20251001-v1:0",
  "anthropic.claude-opus-4-1-20250805-v1:0",
  "anthropic.claude-opus-4-20250514-v1:0",
  "anthropic.claude-sonnet-4-20250514-v1:0",
  "anthropic.claude-3-7-sonnet-20250219-v1:0",
  "anthropic.claude-3-5-haiku-20241022-v1:0",
];
const PROFILES = ["", "us.", "eu.", "global."];
const PROFILE = /^(us|eu|apac|global|jp|au|ca|us-gov)\./;

/** `us.anthropic.claude-sonnet-4-5-20250929-v1:0` -> `claude-sonnet-4-5-20250929`. */
export function anthropicName(bedrockId: string): string {
  return bedrockId.replace(PROFILE, "").replace(/^anthropic\./, "").replace(/-v\d+(:\d+)?$/, "");
}

export function describeBedrock(name: string): Entry | undefined {
  const base = anthropicName(name);
  const known = anthropicModels().find((m) => m.name === base || m.name === `${base}-0`);
  if (!known) return undefined;
  return { ...known, id: `bedrock/${name}`, provider: "bedrock", name };
}

export function bedrockModels(): Entry[] {
  const out: Entry[] = [];
  for (const id of BASE_IDS) for (const p of PROFILES) {
    const e = describeBedrock(p + id);
    if (e) out.push(e);
  }
  return out;
}

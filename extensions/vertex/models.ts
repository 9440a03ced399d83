/**
 * Vertex AI model names: `claude-sonnet-4-5@20250929` (the date after `@`), newer ones without a date.
 * Windows, limits and prices are the Anthropic catalogue's, read through the anthropic contract.
 */
import { anthropicModels } from "../anthropic/kit.js";
import type { ModelInfo } from "../engine/api.js";

type Entry = Omit<ModelInfo, "known">;

const NAMES = [
  "claude-opus-4-6",
  "claude-sonnet-4-6",
  "claude-opus-4-5@20251101",
  "claude-sonnet-4-5@20250929",
  "claude-haiku-4-5@20251001",
  "claude-opus-4-1@20250805",
  "claude-opus-4@20250514",
  "claude-sonnet-4@20250514",
  "claude-3-7-sonnet@20250219",
  "claude-3-5-haiku@20241022",
];

export function describeVertex(name: string): Entry | undefined {
  const [base, date] = name.split("@");
  const candidates = [date ? `${base}-${date}` : "", base!, `${base}-0`].filter(Boolean);
  const all = anthropicModels();
  const known = candidates.map((c) => all.find((m) => m.name === c)).find(Boolean);
  if (!known) return undefined;
  return { ...known, id: `vertex/${name}`, provider: "vertex", name };
}

export function vertexModels(): Entry[] {
  return NAMES.map(describeVertex).filter((e): e is Entry => e !== undefined);
}

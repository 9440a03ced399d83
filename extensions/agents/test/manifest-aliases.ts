/** The aliases the bundled provider manifests list, read as the agents extension reads them (one source). */
import fs from "node:fs";
import { modelAliases, type ModelAliases } from "../resolve.js";
import type { ModelNameEntry } from "../../engine/api.js";

export function bundledAliases(): ModelAliases {
  const read = (id: string) => JSON.parse(fs.readFileSync(new URL(`../../${id}/manifest.json`, import.meta.url), "utf8")) as { contributes: { providers: string[]; models: ModelNameEntry[] } };
  const ids = ["anthropic", "openai", "scripted"];
  const ms = ids.map((id) => ({ id, m: read(id) }));
  return modelAliases(
    ms.map(({ id, m }) => ({ extension: id, tier: "bundled" as const, value: m.contributes.providers })),
    ms.map(({ id, m }) => ({ extension: id, tier: "bundled" as const, value: m.contributes.models })),
  );
}

/**
 * The model catalogue: provider/model ids with context window, output limit, prices (USD per 1M tokens) and
 * tool/image support. Seeded from every provider manifest's `contributes.models` (the data ships with the
 * provider), plus what a loaded provider adds at run time (a scripted file's models).
 */
import type { ModelCatalog, ModelInfo, Usage } from "./api.js";
import { CATALOGUE_DEFAULTS, type ModelNameEntry } from "./contract/model-names.js";
import { modelInfoFromEntry } from "./kit/model-names.js";

export const DEFAULT_MODEL: Omit<ModelInfo, "id" | "provider" | "name" | "known"> = {
  contextWindow: CATALOGUE_DEFAULTS.contextWindow,
  maxOutputTokens: CATALOGUE_DEFAULTS.maxOutputTokens,
  price: { ...CATALOGUE_DEFAULTS.price },
  tools: CATALOGUE_DEFAULTS.tools,
  images: CATALOGUE_DEFAULTS.images,
};

export class Catalogue implements ModelCatalog {
  private readonly byId = new Map<string, Omit<ModelInfo, "known">>();
  private readonly warned = new Set<string>();
  /** listed without a context window (a local model sized by how it was pulled): defaults, known: false, no notice */
  private readonly unsized = new Set<string>();
  /**
   * `describe`: a loaded provider's own entry for an id the catalogue does not list (a scripted file's
   * context window), so such a model is known and no "using defaults" notice is queued for it.
   * `entries`: the manifests' catalogue entries.
   */
  constructor(
    private readonly onUnknown: (id: string) => void,
    private readonly describe?: (id: string) => Omit<ModelInfo, "known"> | undefined,
    entries: readonly ModelNameEntry[] = [],
  ) {
    for (const e of entries) {
      if (this.byId.has(e.id)) continue;
      this.byId.set(e.id, modelInfoFromEntry(e));
      if (e.contextWindow === undefined) this.unsized.add(e.id);
    }
  }

  add(info: Omit<ModelInfo, "known">): void {
    this.byId.set(info.id, info);
    this.unsized.delete(info.id);
  }

  resolve(id: string): ModelInfo {
    const known = this.lookup(id);
    if (known?.known) return known;
    // a loaded provider may know what the manifest could not (a local server's context size)
    const described = this.describe?.(id);
    if (described) return { ...described, known: true };
    if (known) return known;
    const slash = id.indexOf("/");
    const provider = slash > 0 ? id.slice(0, slash) : id;
    const name = slash > 0 ? id.slice(slash + 1) : id;
    // once per process per model (the catalogue lives as long as the engine)
    if (!this.warned.has(id)) {
      this.warned.add(id);
      this.onUnknown(id);
    }
    return { id, provider, name, ...DEFAULT_MODEL, price: { ...DEFAULT_MODEL.price }, known: false };
  }

  /** The catalogued entry for an id, or undefined (no notice, no defaults). */
  lookup(id: string): ModelInfo | undefined {
    const known = this.byId.get(id);
    return known ? { ...known, known: !this.unsized.has(id) } : undefined;
  }

  list(): ModelInfo[] {
    return [...this.byId.values()].map((m) => ({ ...m, known: !this.unsized.has(m.id) }));
  }

  cost(model: ModelInfo, u: Usage): number {
    const p = model.price;
    return (u.inputTokens * p.input + u.outputTokens * p.output + u.cacheReadTokens * p.cacheRead + u.cacheWriteTokens * p.cacheWrite) / 1_000_000;
  }
}

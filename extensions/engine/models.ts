/** The model catalogue: provider/model ids with context window, output limit and prices (USD per 1M tokens). */
import type { ModelCatalog, ModelInfo, Usage } from "./api.js";

export const DEFAULT_MODEL: Omit<ModelInfo, "id" | "provider" | "name" | "known"> = {
  contextWindow: 200_000,
  maxOutputTokens: 8_192,
  price: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
};

export class Catalogue implements ModelCatalog {
  private readonly byId = new Map<string, Omit<ModelInfo, "known">>();
  private readonly warned = new Set<string>();
  /**
   * `describe`: a loaded provider's own entry for an id the catalogue does not list (a scripted file's
   * context window), so such a model is known and no "using defaults" notice is queued for it.
   */
  constructor(
    private readonly onUnknown: (id: string) => void,
    private readonly describe?: (id: string) => Omit<ModelInfo, "known"> | undefined,
  ) {}

  add(info: Omit<ModelInfo, "known">): void {
    this.byId.set(info.id, info);
  }

  resolve(id: string): ModelInfo {
    const known = this.byId.get(id);
    if (known) return { ...known, known: true };
    const described = this.describe?.(id);
    if (described) return { ...described, known: true };
    const slash = id.indexOf("/");
    const provider = slash > 0 ? id.slice(0, slash) : id;
    const name = slash > 0 ? id.slice(slash + 1) : id;
    if (!this.warned.has(id)) {
      this.warned.add(id);
      this.onUnknown(id);
    }
    return { id, provider, name, ...DEFAULT_MODEL, known: false };
  }

  list(): ModelInfo[] {
    return [...this.byId.values()].map((m) => ({ ...m, known: true }));
  }

  cost(model: ModelInfo, u: Usage): number {
    const p = model.price;
    return (u.inputTokens * p.input + u.outputTokens * p.output + u.cacheReadTokens * p.cacheRead + u.cacheWriteTokens * p.cacheWrite) / 1_000_000;
  }
}

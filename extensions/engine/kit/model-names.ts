/** Implementation published by the kit `oceancode/kit/engine` (moved out of extensions/engine/contract/model-names.ts, which keeps the types). */
import type { PointContribution } from "../../../kernel/api.js";
import { nearestMany } from "../../../kernel/api.js";
import { DEFAULT_MODEL_ID, type ModelInfo } from "../contract/provider.js";
import { ProviderError } from "./provider.js";
import { type ModelNameEntry, CATALOGUE_DEFAULTS, type ResolvedModelName } from "../contract/model-names.js";

const FIGURES = ["contextWindow", "maxOutputTokens", "price", "tools", "images"] as const;

/** `e` with each figure it leaves out taken from its `sameAs` entry (followed through a chain, cycles cut). */
function withFiguresOf(e: ModelNameEntry, byId: ReadonlyMap<string, ModelNameEntry>): ModelNameEntry {
  const out: ModelNameEntry = { ...e };
  const seen = new Set([e.id]);
  for (let next = e.sameAs; next && !seen.has(next); ) {
    seen.add(next);
    const from = byId.get(next);
    if (!from) break;
    for (const f of FIGURES) if (out[f] === undefined && from[f] !== undefined) Object.assign(out, { [f]: from[f] });
    next = from.sameAs;
  }
  return out;
}

/** A manifest entry read as the engine's ModelInfo, defaults filled in. */
export function modelInfoFromEntry(e: ModelNameEntry): Omit<ModelInfo, "known"> {
  const slash = e.id.indexOf("/");
  const d = CATALOGUE_DEFAULTS;
  const p = e.price;
  return {
    id: e.id,
    provider: e.id.slice(0, slash),
    name: e.name ?? e.id.slice(slash + 1),
    contextWindow: e.contextWindow ?? d.contextWindow,
    maxOutputTokens: e.maxOutputTokens ?? d.maxOutputTokens,
    price: p ? { input: p.input, output: p.output, cacheRead: p.cacheRead ?? p.input, cacheWrite: p.cacheWrite ?? p.input } : { ...d.price },
    tools: e.tools ?? d.tools,
    images: e.images ?? d.images,
  };
}

/** Claude Code's `default`: the model a session gets when none is configured. */
const DEFAULT_ALIAS = "default";

export class ModelNames {
  private readonly providerIds: string[];
  private readonly ids: string[];
  private readonly aliasMap = new Map<string, string>();
  /** the entries as given (first one per id), figures included */
  private readonly byId = new Map<string, ModelNameEntry>();

  constructor(providers: readonly string[], models: readonly ModelNameEntry[]) {
    // "*" (an extension registering the providers users declare) is no name a person types
    this.providerIds = [...new Set(providers)].filter((p) => p !== "*");
    for (const m of models) if (!this.byId.has(m.id)) this.byId.set(m.id, m);
    for (const [id, m] of this.byId) if (m.sameAs) this.byId.set(id, withFiguresOf(m, this.byId));
    this.ids = [...new Set(models.map((m) => m.id))];
    for (const m of models) for (const a of m.aliases ?? []) if (!this.aliasMap.has(a.toLowerCase())) this.aliasMap.set(a.toLowerCase(), m.id);
  }

  /** From the engine's contribution points (`providers`, `models`), as manifests declare them. */
  static fromContributions(providers: ReadonlyArray<PointContribution<string[]>>, models: ReadonlyArray<PointContribution<ModelNameEntry[]>>): ModelNames {
    return new ModelNames(
      providers.flatMap((c) => c.value),
      models.flatMap((c) => c.value),
    );
  }

  /** These names plus more (a loaded provider's catalogue, a provider registered without a manifest entry). */
  with(providers: readonly string[], ids: readonly string[]): ModelNames {
    const aliases = [...this.aliasMap].map(([a, id]) => ({ id, aliases: [a] }));
    return new ModelNames([...this.providerIds, ...providers], [...this.byId.values(), ...ids.map((id) => ({ id })), ...aliases]);
  }

  /** The catalogue entries (one per listed id, manifest order) with their figures. */
  entries(): ModelNameEntry[] {
    return [...this.byId.values()];
  }

  providers(): string[] {
    return [...this.providerIds];
  }

  /** Every listed full id, in manifest order. */
  listed(): string[] {
    return [...this.ids];
  }

  /** alias -> full id */
  aliases(): Array<[alias: string, id: string]> {
    return [...this.aliasMap];
  }

  /** The name as typed, read as a full id; throws a usage error (bad_request) naming the nearest known names. */
  resolve(typed: string): ResolvedModelName {
    const name = typed.trim();
    if (!name) throw new ProviderError("bad_request", "the model name is empty (e.g. sonnet, gpt-5, anthropic/claude-sonnet-4-6)");
    const slash = name.indexOf("/");
    if (slash === 0) throw new ProviderError("bad_request", `model '${typed}' names no provider (write provider/model, e.g. anthropic/claude-sonnet-4-6)`);
    if (slash > 0) {
      const provider = name.slice(0, slash);
      const rest = name.slice(slash + 1);
      if (!this.providerIds.includes(provider)) return { id: name, via: "full", unknownProvider: true };
      // `anthropic/sonnet`: an alias under its own provider
      const aliased = this.aliasMap.get(rest.toLowerCase());
      if (aliased?.startsWith(`${provider}/`) && !this.ids.includes(name)) return { id: aliased, via: "alias" };
      return { id: name, via: "full" };
    }
    const lower = name.toLowerCase();
    const alias = this.aliasMap.get(lower);
    if (alias) return { id: alias, via: "alias" };
    const bare = this.ids.filter((id) => id.slice(id.indexOf("/") + 1).toLowerCase() === lower);
    if (bare.length === 1) return { id: bare[0]!, via: "bare" };
    // a cloud route's copy of a model (an entry with sameAs: vertex/claude-sonnet-4-6) does not make the
    // model's own provider's bare name ambiguous: `-m claude-sonnet-4-6` is Anthropic's, as in Claude Code
    const own = bare.filter((id) => !this.byId.get(id)?.sameAs);
    if (own.length === 1) return { id: own[0]!, via: "bare" };
    if (bare.length > 1) throw new ProviderError("bad_request", `model '${typed}' is served by more than one provider: write one of ${bare.join(", ")}`);
    if (lower === DEFAULT_ALIAS) return { id: DEFAULT_MODEL_ID, via: "alias" };
    throw new ProviderError("bad_request", `unknown model '${typed}'${this.hint(name)}; write provider/model for one the catalogue does not list (oceancode completion lists the known names)`);
  }

  /** " (did you mean a, b?)" for a mistyped bare name, or "". */
  hint(name: string): string {
    const near = this.nearestIds(name);
    return near.length ? ` (did you mean ${near.join(", ")}?)` : "";
  }

  /** The listed full ids nearest a mistyped name (bare, alias or full), nearest first. */
  nearestIds(name: string, max = 3): string[] {
    const byName = new Map<string, string>();
    for (const id of this.ids) {
      byName.set(id, id);
      if (!byName.has(id.slice(id.indexOf("/") + 1))) byName.set(id.slice(id.indexOf("/") + 1), id);
    }
    for (const [a, id] of this.aliasMap) if (!byName.has(a)) byName.set(a, id);
    const ids = nearestMany(name, [...byName.keys()], max * 2).map((n) => byName.get(n)!);
    return [...new Set(ids)].slice(0, max);
  }

  /**
   * For `provider/model` with a provider nobody serves: " (did you mean anthropic/claude-x?)" with the nearest
   * provider (the model part kept, or read as that provider's alias or listed id), or "".
   */
  providerHint(id: string): string {
    const slash = id.indexOf("/");
    if (slash <= 0) return "";
    const provider = id.slice(0, slash);
    const rest = id.slice(slash + 1);
    const near = nearestMany(provider, this.providerIds, 2);
    if (!near.length) return "";
    return ` (did you mean ${near.map((p) => `${p}/${rest}`).join(", ")}?)`;
  }
}

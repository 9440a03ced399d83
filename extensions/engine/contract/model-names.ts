/**
 * Model names as people type them: `provider/model`, a bare id (`claude-sonnet-4-6`, `gpt-5`) or an alias
 * (`sonnet`, `opus`, `haiku`, Claude Code's), resolved over what the provider manifests list in
 * `contributes.models` (read without activating a provider) plus what loaded providers catalogue. Pure: the
 * engine resolves session models with it, the CLI host completes and checks names with it.
 */

/**
 * One entry of a provider manifest's `contributes.models` (schema: extensions/engine/models.point.schema.json):
 * a full id, the short names that mean it, and its catalogue figures. The manifest is the catalogue: the
 * engine, the meter, `oceancode models` and GET /model read these without loading the provider.
 */
export interface ModelNameEntry {
  /** `provider/model`, as the provider's catalogue lists it */
  id: string;
  /** other names a person may type for it (`sonnet`): unique across every provider */
  aliases?: string[];
  /** another catalogue id whose figures this one shares: each figure not given here comes from it */
  sameAs?: string;
  /** the name the provider's API expects when it is not the part after `provider/` */
  name?: string;
  /** tokens; unset: CATALOGUE_DEFAULTS.contextWindow */
  contextWindow?: number;
  /** tokens; unset: CATALOGUE_DEFAULTS.maxOutputTokens */
  maxOutputTokens?: number;
  /** USD per million tokens; unset: no prices; cacheRead / cacheWrite unset: the input price */
  price?: { input: number; output: number; cacheRead?: number; cacheWrite?: number };
  /** unset: true */
  tools?: boolean;
  /** unset: false */
  images?: boolean;
}

/** What a model the catalogue lists without figures (or does not list at all) is taken to have. */
export const CATALOGUE_DEFAULTS = {
  contextWindow: 200_000,
  maxOutputTokens: 8_192,
  price: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
  tools: true,
  images: false,
} as const;

/** How a typed name was read. */
export interface ResolvedModelName {
  /** the full `provider/model` id */
  id: string;
  /** full: written provider/model; bare: a listed id without its provider; alias: a short name */
  via: "full" | "bare" | "alias";
  /** provider/model spelled with a provider no manifest or loaded provider names (the engine still tries it) */
  unknownProvider?: boolean;
}

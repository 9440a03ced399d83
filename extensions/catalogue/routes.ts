/**
 * The catalogue extension's routes (mounted by serve through service "routes"): the providers and the model catalogue.
 *   GET /provider   every provider id the manifests declare, which extension serves it, and whether it is loaded
 *   GET /model      every model id the manifests list (with its aliases and figures) and every model a loaded
 *                   provider adds, with context window, output limit, prices, tool and image support
 * Nothing here loads a provider (their SDKs load on a session's first use); keys: GET /auth.
 */
import type { JsonSchema, RouteDefinition } from "../serve/api.js";
import type { EngineService, ModelInfo } from "../engine/api.js";
import type { ModelNames } from "../engine/kit.js";

const price: JsonSchema = {
  type: "object",
  required: ["input", "output", "cacheRead", "cacheWrite"],
  description: "USD per million tokens",
  properties: { input: { type: "number" }, output: { type: "number" }, cacheRead: { type: "number" }, cacheWrite: { type: "number" } },
};
const modelRow: JsonSchema = {
  type: "object",
  required: ["id", "provider", "aliases", "catalogued"],
  properties: {
    id: { type: "string", description: "provider/model" },
    provider: { type: "string" },
    aliases: { type: "array", items: { type: "string" }, description: "short names a person may type (sonnet, opus, ...)" },
    catalogued: { type: "boolean", description: "the catalogue has it (a manifest's contributes.models entry or a loaded provider's own): the limits and prices below are set" },
    contextWindow: { type: "integer" },
    maxOutputTokens: { type: "integer" },
    price,
    tools: { type: "boolean", description: "takes tool definitions" },
    images: { type: "boolean", description: "reads image input" },
  },
};

export function catalogueRoutes(engine: EngineService, names: ModelNames, declared: ReadonlyMap<string, string>, defaultModel: () => string): RouteDefinition[] {
  return [
    {
      method: "GET",
      url: "/provider",
      operationId: "providerList",
      summary: "the model providers: each id, the extension that serves it, whether it is loaded in this server, and how many models it lists",
      schema: {
        response: {
          200: {
            type: "object",
            required: ["providers"],
            properties: {
              providers: {
                type: "array",
                items: { type: "object", required: ["id", "loaded", "models"], properties: { id: { type: "string" }, extension: { type: "string" }, loaded: { type: "boolean" }, models: { type: "integer", minimum: 0 } } },
              },
            },
          },
        },
      },
      handler: () => {
        const ids = new Set([...names.providers(), ...engine.models.list().map((m) => m.provider)]);
        const listed = new Set([...names.listed(), ...engine.models.list().map((m) => m.id)]);
        const count = (p: string) => [...listed].filter((id) => id.startsWith(`${p}/`)).length;
        return { providers: [...ids].map((id) => ({ id, ...(declared.get(id) ? { extension: declared.get(id) } : {}), loaded: engine.providers.get(id) !== undefined, models: count(id) })) };
      },
    },
    {
      method: "GET",
      url: "/model",
      operationId: "modelList",
      summary: "the model catalogue: every listed model with its aliases, and limits and prices for those a loaded provider catalogues; `default` is the configured model",
      schema: { response: { 200: { type: "object", required: ["models", "default"], properties: { default: { type: "string" }, models: { type: "array", items: modelRow } } } } },
      handler: () => {
        const catalogued = new Map<string, ModelInfo>(engine.models.list().map((m) => [m.id, m]));
        const aliases = new Map<string, string[]>();
        for (const [a, id] of names.aliases()) aliases.set(id, [...(aliases.get(id) ?? []), a]);
        const ids = [...new Set([...names.listed(), ...catalogued.keys()])];
        const models = ids.map((id) => {
          const m = catalogued.get(id);
          const provider = m?.provider ?? id.slice(0, Math.max(0, id.indexOf("/")));
          return { id, provider, aliases: aliases.get(id) ?? [], catalogued: m !== undefined, ...(m ? { contextWindow: m.contextWindow, maxOutputTokens: m.maxOutputTokens, price: m.price, tools: m.tools ?? true, images: m.images ?? false } : {}) };
        });
        return { default: defaultModel(), models };
      },
    },
  ];
}

/**
 * The auth extension's routes (mounted by serve through service "routes"): which providers have an API
 * key and from where (never the key), and storing one (write-only: no route reads a key back).
 *   GET  /auth                     {providers: [{provider, configured, source?: "env"|"auth.json", variable}]}
 *   POST /auth/:provider {key}     store the key in auth.json, as `oceancode key <provider> <key>`
 *   DELETE /auth/:provider         forget the key auth.json holds (an env var is the environment's: untouched)
 */
import { type JsonSchema, type RouteDefinition } from "../serve/api.js";
import { HttpError } from "../serve/kit.js";
import type { CredentialsService } from "./api.js";
import { checkKey } from "./commands.js";
import { noKeyReason } from "./providers.js";

const errorBody: JsonSchema = {
  type: "object",
  required: ["error"],
  properties: { error: { type: "object", required: ["code", "message"], properties: { code: { type: "string" }, message: { type: "string" } } } },
};
const status: JsonSchema = {
  type: "object",
  required: ["provider", "configured", "variable"],
  additionalProperties: false,
  properties: {
    provider: { type: "string" },
    configured: { type: "boolean", description: "a key is there (the env var or auth.json)" },
    source: { type: "string", enum: ["env", "auth.json"], description: "where the key in use comes from (the env var wins)" },
    variable: { type: "string", description: "the env var that holds this provider's key" },
  },
};

interface ProviderStatus {
  provider: string;
  configured: boolean;
  source?: "env" | "auth.json";
  variable: string;
}

export function authRoutes(credentials: CredentialsService, providers: () => string[]): RouteDefinition[] {
  const statusOf = (provider: string): ProviderStatus => {
    const src = credentials.source(provider);
    const variable = credentials.envVar(provider);
    return { provider, configured: src !== undefined, ...(src ? { source: src.kind === "env" ? "env" : "auth.json" } : {}), variable };
  };
  return [
    {
      method: "GET",
      url: "/auth",
      operationId: "authStatus",
      summary: "which providers have an API key and where it comes from (the env var or auth.json); keys are never answered",
      schema: { response: { 200: { type: "object", required: ["providers", "file"], properties: { providers: { type: "array", items: status }, file: { type: "string", description: "the auth.json path" } } } } },
      handler: () => ({ providers: providers().map(statusOf), file: credentials.file }),
    },
    {
      method: "POST",
      url: "/auth/:provider",
      operationId: "authSetKey",
      summary: "store a provider's API key in auth.json (mode 0600), as `oceancode key <provider> <key>`; write-only: no route answers it back",
      schema: {
        params: { type: "object", required: ["provider"], properties: { provider: { type: "string", pattern: "^[a-z][a-z0-9-]{0,63}$" } } },
        body: { type: "object", required: ["key"], additionalProperties: false, properties: { key: { type: "string", minLength: 1, maxLength: 4096, writeOnly: true } } },
        response: { 200: { ...status, properties: { ...(status.properties as object), note: { type: "string" } } }, 400: errorBody, 404: errorBody },
      },
      handler: (req) => {
        const provider = (req.params as { provider: string }).provider;
        const known = providers();
        const refused = noKeyReason(provider);
        if (refused) throw new HttpError(400, "no_key_taken", refused);
        if (!known.includes(provider)) throw new HttpError(404, "unknown_provider", `unknown provider '${provider}' (known: ${known.join(", ")})`);
        const key = (req.body as { key: string }).key.trim();
        const bad = checkKey(key);
        if (bad) throw new HttpError(400, "invalid_key", bad);
        credentials.set(provider, key);
        const s = statusOf(provider);
        return s.source === "env" ? { ...s, note: `${s.variable} is set in the server's environment and wins over auth.json` } : s;
      },
    },
    {
      method: "DELETE",
      url: "/auth/:provider",
      operationId: "authRemoveKey",
      summary: "forget the provider's key stored in auth.json (a key in the server's environment stays: it is the environment's)",
      schema: {
        params: { type: "object", required: ["provider"], properties: { provider: { type: "string", pattern: "^[a-z][a-z0-9-]{0,63}$" } } },
        response: { 200: { ...status, properties: { ...(status.properties as object), removed: { type: "boolean", description: "auth.json held a key for it" } } }, 404: errorBody },
      },
      handler: (req) => {
        const provider = (req.params as { provider: string }).provider;
        if (!providers().includes(provider)) throw new HttpError(404, "unknown_provider", `unknown provider '${provider}' (known: ${providers().join(", ")})`);
        const removed = credentials.remove(provider);
        return { ...statusOf(provider), removed };
      },
    },
  ];
}


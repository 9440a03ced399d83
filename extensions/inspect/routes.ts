/**
 * The inspect extension's routes (mounted by serve through service "routes"):
 *   GET   /config   the effective config with provenance, as `oceancode inspect` shows it (config rows,
 *                   the keys an untrusted project file had held back, the files each scope writes)
 *   PATCH /config   {scope: "user"|"project", set: {"dotted.key": value|null}}: change one file, held to
 *                   the rules of hand-editing (config-patch.ts); the running server reads it at its next start
 */
import { type JsonSchema, type RouteDefinition } from "../serve/api.js";
import { HttpError } from "../serve/kit.js";
import type { KernelIntrospection } from "../../kernel/api.js";
import { inspectRows } from "./index.js";
import { ConfigPatchError, patchConfig, scopeFile, type ConfigScope } from "./config-patch.js";

const errorBody: JsonSchema = {
  type: "object",
  required: ["error"],
  properties: { error: { type: "object", required: ["code", "message"], properties: { code: { type: "string" }, message: { type: "string" }, path: { type: "string", description: "the dotted config key the error is about" } } } },
};

/**
 * A key whose name says it holds a secret is never answered, whatever its value; nor is anything under
 * an `env` or `headers` map (an MCP server's GITHUB_TOKEN, an Authorization header).
 */
const SECRET_KEY = /(^|[._-])(api[_-]?key|key|token|secret|password|passwd|credentials?|authorization|cookie)$|(^|\.)(env|headers)\./i;

const keyRow: JsonSchema = {
  type: "object",
  required: ["key", "layer", "source"],
  properties: {
    key: { type: "string", description: "dotted" },
    value: { description: "the effective value (URL passwords and secret-named keys shown as ***)" },
    layer: { type: "string", description: "default, global, project, env, managed, host or requirements" },
    source: { type: "string", description: "the file, $VARIABLE, --flag or (built-in) it came from" },
  },
};

export function configRoutes(introspect: () => KernelIntrospection, project: string): RouteDefinition[] {
  return [
    {
      method: "GET",
      url: "/config",
      operationId: "configGet",
      summary: "the effective config with provenance (the winning layer and file of every key), as `oceancode inspect` shows it",
      schema: {
        response: {
          200: {
            type: "object",
            required: ["keys", "held", "files"],
            properties: {
              keys: { type: "array", items: keyRow },
              held: { type: "array", items: { type: "object", required: ["key", "file"], properties: { key: { type: "string" }, file: { type: "string" } } }, description: "keys an untrusted project file set and that were held back" },
              files: { type: "object", required: ["user", "project"], properties: { user: { type: "string" }, project: { type: "string" } }, description: "the file PATCH /config writes for each scope" },
            },
          },
        },
      },
      handler: () => {
        const info = introspect();
        const rows = inspectRows(info, project);
        const keys = rows.filter((r) => r.kind === "config" && r.state === undefined).map((r) => ({ key: r.id, value: SECRET_KEY.test(r.id) && r.value !== undefined && r.value !== "" ? "***" : r.value, layer: r.layer, source: r.source }));
        const held = info.config.held.flatMap((h) => h.keys.map((key) => ({ key, file: h.file })));
        return { keys, held, files: { user: scopeFile(info, "user"), project: scopeFile(info, "project") } };
      },
    },
    {
      method: "PATCH",
      url: "/config",
      operationId: "configPatch",
      summary: "change the user or the project config file (validated against the sections' schemas; a project file git tracks may not widen what the user's config allows); read at the server's next start",
      schema: {
        body: {
          type: "object",
          required: ["scope", "set"],
          additionalProperties: false,
          properties: {
            scope: { type: "string", enum: ["user", "project"] },
            set: { type: "object", minProperties: 1, maxProperties: 100, additionalProperties: true, description: "dotted key -> JSON value; null removes the key" },
          },
        },
        response: {
          200: { type: "object", required: ["scope", "file", "keys", "applies"], properties: { scope: { type: "string" }, file: { type: "string" }, keys: { type: "array", items: { type: "string" } }, applies: { type: "string", enum: ["next_start"] } } },
          400: errorBody,
          403: errorBody,
          409: errorBody,
        },
      },
      handler: (req) => {
        const body = req.body as { scope: ConfigScope; set: Record<string, unknown> };
        try {
          const file = patchConfig(introspect(), project, body.scope, body.set);
          return { scope: body.scope, file, keys: Object.keys(body.set), applies: "next_start" };
        } catch (e) {
          // the message names the key path (the validation problems name it as `file: key.path: expected ...`)
          if (e instanceof ConfigPatchError) {
            const http = new HttpError(e.status, e.code, e.keyPath && !e.message.includes(e.keyPath) ? `${e.keyPath}: ${e.message}` : e.message);
            throw e.keyPath ? Object.assign(http, { path: e.keyPath }) : http;
          }
          throw e;
        }
      },
    },
  ];
}

/**
 * The plugins extension's routes (mounted by serve through service "routes"):
 *   GET  /plugin                     every plugin that applies to the project (oceancode's store and Claude Code's)
 *   POST /plugin/:name/enable {on}   as `oceancode plugin enable|disable <name>`
 * Trust is not granted over HTTP here: a plugin's hooks and MCP servers run code, so trusting one stays
 * `oceancode plugin trust <name>` at the machine.
 */
import { type JsonSchema, type RouteDefinition } from "../serve/api.js";
import { HttpError } from "../serve/kit.js";
import { PLUGIN_INVALID, type PluginsService } from "./api.js";
import { isPluginError, isValidName } from "./kit/shared.js";

const errorBody: JsonSchema = {
  type: "object",
  required: ["error"],
  properties: { error: { type: "object", required: ["code", "message"], properties: { code: { type: "string" }, message: { type: "string" } } } },
};
const pluginRow: JsonSchema = {
  type: "object",
  required: ["name", "version", "enabled", "trusted", "source", "path"],
  properties: {
    name: { type: "string" },
    version: { type: "string" },
    marketplace: { type: "string" },
    enabled: { type: "boolean" },
    trusted: { type: "boolean", description: "its hooks and MCP servers may run" },
    source: { type: "string", enum: ["oceancode", "claude-code"] },
    path: { type: "string" },
  },
};

export function pluginRoutes(service: PluginsService, project: string): RouteDefinition[] {
  return [
    {
      method: "GET",
      url: "/plugin",
      operationId: "pluginList",
      summary: "every plugin that applies to this project (oceancode's store and Claude Code's), with enabled and trusted",
      schema: { response: { 200: { type: "object", required: ["plugins"], properties: { plugins: { type: "array", items: pluginRow } } } } },
      handler: () => ({ plugins: service.list(project) }),
    },
    {
      method: "POST",
      url: "/plugin/:name/enable",
      operationId: "pluginEnable",
      summary: "enable or disable a plugin by name (as `oceancode plugin enable|disable`); sessions started from now on see it",
      schema: {
        params: { type: "object", required: ["name"], properties: { name: { type: "string", minLength: 1, maxLength: 128 } } },
        body: { type: "object", required: ["on"], additionalProperties: false, properties: { on: { type: "boolean" } } },
        response: { 200: pluginRow, 404: errorBody, 409: errorBody },
      },
      handler: (req) => {
        const name = (req.params as { name: string }).name;
        if (!isValidName(name)) throw new HttpError(404, "plugin_not_found", `'${String(name).slice(0, 100)}' is not a plugin name`);
        try {
          return service.setEnabled(project, name, (req.body as { on: boolean }).on);
        } catch (e) {
          if (isPluginError(e)) throw new HttpError(e.code === PLUGIN_INVALID ? 404 : 409, e.code === PLUGIN_INVALID ? "plugin_not_found" : "plugin_store_unavailable", e.message);
          throw e;
        }
      },
    },
  ];
}

/**
 * The export extension's HTTP route (mounted by the serve host through service "routes"):
 * GET /session/:id/export?format=md|atif -> the Markdown document (text/markdown) or the ATIF trajectory
 * (JSON), the same text `oceancode export` writes. It reads storage, as the command does, rather than
 * opening the session: exporting claims nothing, so a session another process holds exports too.
 */
import { ERROR_SCHEMA, type JsonSchema, type RouteDefinition, type RouteReply } from "../serve/api.js";
import { HttpError } from "../serve/kit.js";
import type { AtifTrajectory } from "./atif.js";
import { renderExport, type ExportSources } from "./render.js";

export const MARKDOWN_TYPE = "text/markdown; charset=utf-8";

const sessionParams: JsonSchema = { type: "object", properties: { id: { type: "string", minLength: 1 } }, required: ["id"] };
const query: JsonSchema = { type: "object", properties: { format: { type: "string", enum: ["md", "atif"], default: "md" } }, additionalProperties: false };

const count = { type: "integer", minimum: 0 };
const metrics: JsonSchema = {
  type: "object",
  properties: { prompt_tokens: count, completion_tokens: count, cached_tokens: count, cost_usd: { type: "number" } },
  required: ["prompt_tokens", "completion_tokens", "cached_tokens"],
  additionalProperties: false,
};
const step: JsonSchema = {
  type: "object",
  properties: {
    step_id: count,
    source: { type: "string", enum: ["system", "user", "agent"] },
    message: { type: "string" },
    timestamp: { type: "string" },
    model_name: { type: "string" },
    tool_calls: {
      type: "array",
      items: {
        type: "object",
        properties: { tool_call_id: { type: "string" }, function_name: { type: "string" }, arguments: { type: "object", additionalProperties: true } },
        required: ["tool_call_id", "function_name", "arguments"],
        additionalProperties: false,
      },
    },
    observation: {
      type: "object",
      properties: {
        results: {
          type: "array",
          items: { type: "object", properties: { source_call_id: { type: "string" }, content: { type: "string" } }, required: ["source_call_id", "content"], additionalProperties: false },
        },
      },
      required: ["results"],
      additionalProperties: false,
    },
    metrics,
  },
  required: ["step_id", "source", "message"],
  additionalProperties: false,
};
/** The ATIF trajectory as exportAtif builds it (atif.ts). */
export const atifSchema: JsonSchema = {
  type: "object",
  properties: {
    schema_version: { type: "string" },
    session_id: { type: "string" },
    agent: {
      type: "object",
      properties: { name: { type: "string" }, version: { type: "string" }, model_name: { type: "string" } },
      required: ["name", "version"],
      additionalProperties: false,
    },
    steps: { type: "array", items: step },
    final_metrics: {
      type: "object",
      properties: { total_prompt_tokens: count, total_completion_tokens: count, total_cached_tokens: count, total_cost_usd: { type: "number" }, total_steps: count },
      required: ["total_prompt_tokens", "total_completion_tokens", "total_cached_tokens", "total_steps"],
      additionalProperties: false,
    },
    notes: { type: "string" },
    extra: { type: "object", additionalProperties: true },
  },
  required: ["schema_version", "session_id", "agent", "steps", "final_metrics"],
  additionalProperties: false,
};

/** `sources` is called per request: the ledger and engine are looked up when the export runs. */
export function exportRoutes(sources: () => ExportSources): RouteDefinition[] {
  return [
    {
      method: "GET",
      url: "/session/:id/export",
      operationId: "sessionExport",
      summary: "The whole stored session as Markdown (format=md, text/markdown) or an ATIF-v1.8 trajectory (format=atif, JSON), as `oceancode export` writes it",
      schema: {
        params: sessionParams,
        querystring: query,
        // one schema per media type (Fastify and OpenAPI 3.1 both read this form)
        response: { 200: { content: { "text/markdown": { schema: { type: "string" } }, "application/json": { schema: atifSchema } } }, 404: ERROR_SCHEMA },
      },
      handler: async (req): Promise<RouteReply | AtifTrajectory> => {
        const id = req.params.id!;
        const format = req.query.format === "atif" ? "atif" : "md";
        const r = await renderExport(id, format, sources());
        if (!r) throw new HttpError(404, "session_not_found", `no stored session '${id}'`);
        return r.format === "md" ? { status: 200, body: r.text, headers: { "content-type": MARKDOWN_TYPE } } : r.trajectory;
      },
    },
  ];
}

/**
 * The agents extension's HTTP route (mounted by the serve host through service "routes"):
 * GET /session/:id/subagent -> {"model": ModelRef | null}, the session's effective sub-agent model (a
 * client shows it as the identity row's "sub-agents <name>"; null: nothing to show).
 */
import type { JsonSchema, RouteDefinition } from "../serve/api.js";
import type { ModelRef } from "./api.js";
import { modelRef, subagentModelId } from "./subagent.js";
import type { ModelAliases } from "./resolve.js";

const sessionParams: JsonSchema = { type: "object", properties: { id: { type: "string", minLength: 1 } }, required: ["id"] };
const modelRefSchema: JsonSchema = {
  type: "object",
  properties: { provider: { type: "string" }, model: { type: "string" }, id: { type: "string", description: "provider/model" } },
  required: ["provider", "model", "id"],
  additionalProperties: false,
};
const answer: JsonSchema = { type: "object", properties: { model: { anyOf: [modelRefSchema, { type: "null" }] } }, required: ["model"], additionalProperties: false };

/** `configured`: the `subagent.model` config value, read at each request (config may be reloaded). */
export function agentRoutes(configured: () => unknown, aliases?: ModelAliases): RouteDefinition[] {
  return [
    {
      method: "GET",
      url: "/session/:id/subagent",
      operationId: "sessionSubagentModel",
      summary: "The session's effective sub-agent model: its override, else subagent.model config, else the session's own model",
      schema: { params: sessionParams, response: { 200: answer } },
      handler: async (req): Promise<{ model: ModelRef | null }> => {
        const session = await req.session(req.params.id!);
        return { model: modelRef(subagentModelId(session.info, configured(), aliases)) };
      },
    },
  ];
}

/**
 * The agents extension's HTTP route (mounted by the serve host through service "routes"):
 * GET /session/:id/subagent -> {"model": ModelRef | null}, the session's effective sub-agent model (a
 * client shows it as the identity row's "sub-agents <name>"; null: nothing to show).
 */
import type { JsonSchema, RouteDefinition } from "../serve/api.js";
import type { AgentsService, ModelRef } from "./api.js";
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

const agentRow: JsonSchema = {
  type: "object",
  required: ["name", "qualifiedName", "id", "tier", "ecosystem", "file", "description", "invocable", "shadowed", "trusted", "tools"],
  properties: {
    name: { type: "string" },
    qualifiedName: { type: "string", description: "what the model passes as subagent_type" },
    id: { type: "string" },
    tier: { type: "string" },
    ecosystem: { type: "string" },
    plugin: { type: "string" },
    file: { type: "string", description: "the agent file; empty for the built-in" },
    description: { type: "string" },
    model: { type: "string", description: "as written in the file" },
    invocable: { type: "boolean", description: "the model may start it" },
    shadowed: { type: "boolean" },
    trusted: { type: "boolean", description: "its file is trusted (an untrusted agent cannot pick a model)" },
    tools: { type: "object", required: ["mode"], properties: { mode: { type: "string", enum: ["all", "allow", "deny"] }, names: { type: "array", items: { type: "string" } } } },
    warning: { type: "string" },
  },
};

/** `configured`: the `subagent.model` config value, read at each request (config may be reloaded). */
export function agentRoutes(configured: () => unknown, aliases?: ModelAliases, service?: AgentsService): RouteDefinition[] {
  const list: RouteDefinition[] = !service
    ? []
    : [
        {
          method: "GET",
          url: "/agent",
          operationId: "agentList",
          summary: "every agent found (every tier and ecosystem, then the built-in), as the agent tool offers them",
          schema: { response: { 200: { type: "object", required: ["agents"], properties: { agents: { type: "array", items: agentRow } } } } },
          handler: () => ({
            agents: service.reload().map((a) => ({
              name: a.name,
              qualifiedName: a.qualifiedName,
              id: a.id,
              tier: a.tier,
              ecosystem: a.ecosystem,
              ...(a.plugin ? { plugin: a.plugin } : {}),
              file: a.file,
              description: a.description,
              ...(a.model ? { model: a.model } : {}),
              invocable: a.invocable,
              shadowed: a.shadowed,
              trusted: service.trusted?.(a) === true,
              tools: a.tools,
              ...(a.warning ? { warning: a.warning } : {}),
            })),
          }),
        },
      ];
  return [
    ...list,
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

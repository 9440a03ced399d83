/** The JSON Schemas the built-in routes share (they also make the OpenAPI document). */
import { ERROR_SCHEMA, type JsonSchema } from "./api.js";

export const ErrorBody: JsonSchema = ERROR_SCHEMA;

/** the error answers every route may give, for the document */
export const errorResponses = (...codes: number[]): Record<number, JsonSchema> => Object.fromEntries(codes.map((c) => [c, ErrorBody]));

export const SessionIdParams: JsonSchema = {
  type: "object",
  required: ["id"],
  properties: { id: { type: "string", minLength: 1, maxLength: 200 } },
};

export const SessionInfoSchema: JsonSchema = {
  type: "object",
  required: ["id", "cwd", "model", "createdAt"],
  properties: {
    id: { type: "string" },
    parentId: { type: "string" },
    cwd: { type: "string" },
    model: { type: "string" },
    createdAt: { type: "number" },
    title: { type: "string" },
    overrides: { type: "object", additionalProperties: true },
    open: { type: "boolean", description: "held open by this server" },
    running: { type: "string", description: "the running turn's id" },
    queued: { type: "integer", description: "turns waiting behind it" },
  },
};

export const SessionSummarySchema: JsonSchema = {
  type: "object",
  required: ["id", "cwd", "model", "createdAt"],
  properties: {
    id: { type: "string" },
    parentId: { type: "string" },
    cwd: { type: "string" },
    model: { type: "string" },
    title: { type: "string" },
    createdAt: { type: "number" },
    updatedAt: { type: "number" },
    turns: { type: "integer" },
    steps: { type: "integer" },
    pinned: { type: "boolean", description: "kept by the retention sweep (POST /session/{id}/pin)" },
    open: { type: "boolean" },
  },
};

/** a stored row as the engine keeps it (user, assistant, tool, note): open-ended, keyed by role */
export const RowSchema: JsonSchema = {
  type: "object",
  required: ["seq", "role"],
  properties: { seq: { type: "integer" }, role: { type: "string", enum: ["user", "assistant", "tool", "note"] }, turn: { type: "integer" }, step: { type: "integer" }, at: { type: "number" } },
  additionalProperties: true,
};

export const QuestionSchema: JsonSchema = {
  type: "object",
  required: ["id", "sessionId", "question", "askedAt"],
  properties: {
    id: { type: "string" },
    sessionId: { type: "string" },
    askedAt: { type: "number" },
    question: {
      type: "object",
      required: ["tool", "subject", "reason"],
      properties: {
        sessionId: { type: "string" },
        tool: { type: "string" },
        subject: { type: "string" },
        reason: { type: "string" },
        rule: { type: "string" },
        always: { type: "string" },
        autoApprove: { type: "boolean" },
        fields: {
          type: "array",
          description: "a form question (an MCP elicitation): answer with `values` by field name",
          items: {
            type: "object",
            required: ["name", "type", "required"],
            properties: {
              name: { type: "string" },
              type: { type: "string", enum: ["string", "number", "integer", "boolean"] },
              title: { type: "string" },
              description: { type: "string" },
              required: { type: "boolean" },
              default: { type: ["string", "number", "boolean"] },
              options: { type: "array", items: { type: "string" } },
            },
          },
        },
      },
    },
  },
};

/**
 * The tideline extension's HTTP routes (mounted by the serve host through service "routes"): the session's
 * tideline (the line, the window gauge, the cuts) and the session meter (the numbers the pager's status
 * bar shows, plus turns and steps). Both read the tideline service's meter(), the one source the pager
 * and /context use, so a client and the pager never disagree.
 */
import type { Session } from "../engine/api.js";
import { ERROR_SCHEMA, type JsonSchema, type RouteDefinition, type RouteRequest } from "../serve/api.js";
import type { SessionMeter, TidelineLine, TidelineService } from "./api.js";

const sessionParams: JsonSchema = { type: "object", properties: { id: { type: "string", minLength: 1 } }, required: ["id"] };
const count = { type: "integer", minimum: 0 };

const lineSchema: JsonSchema = {
  type: "object",
  properties: {
    line: { ...count, description: "the line in tokens" },
    block: { ...count, description: "a block closes when the gauge grew this much since it opened" },
    mode: { type: "string", enum: ["percent", "tokens"] },
    percent: { type: "number", description: "the share of the model's context (mode percent)" },
    clamped: { type: "boolean", description: "the configured line was above what the model can hold" },
  },
  required: ["line", "block", "mode", "clamped"],
  additionalProperties: false,
};

const windowProps = {
  sessionId: { type: "string" },
  model: { type: "string" },
  contextWindow: { ...count, description: "the model's context window" },
  used: { ...count, description: "the window's size after the last step's cuts, in tokens" },
  status: { type: "string", description: '"tideline @40% (80k): 38k to go" | "tideline off"' },
};

export interface TidelineAnswer {
  sessionId: string;
  model: string;
  /** false when the ledger is disabled: no line, no cuts */
  enabled: boolean;
  line: TidelineLine | null;
  contextWindow: number;
  used: number;
  toGo: number | null;
  status: string;
  cuts: number;
  cutSeq: number;
}

const tidelineAnswer: JsonSchema = {
  type: "object",
  properties: {
    ...windowProps,
    enabled: { type: "boolean" },
    line: { anyOf: [lineSchema, { type: "null" }] },
    toGo: { type: ["integer", "null"], minimum: 0, description: "tokens until the line (null: tideline off)" },
    cuts: count,
    cutSeq: { ...count, description: "every row up to this seq left the window (0 before the first cut)" },
  },
  required: ["sessionId", "model", "enabled", "line", "contextWindow", "used", "toGo", "status", "cuts", "cutSeq"],
  additionalProperties: false,
};

export interface MeterAnswer extends Omit<SessionMeter, "line" | "toGo" | "enabled" | "cuts" | "cutSeq"> {
  turns: number;
  steps: number;
}

const meterAnswer: JsonSchema = {
  type: "object",
  properties: {
    ...windowProps,
    inputTokens: count,
    outputTokens: count,
    cacheReadTokens: count,
    cacheWriteTokens: count,
    costUsd: { type: "number", minimum: 0 },
    turns: count,
    steps: count,
  },
  required: ["sessionId", "model", "contextWindow", "used", "status", "inputTokens", "outputTokens", "cacheReadTokens", "cacheWriteTokens", "costUsd", "turns", "steps"],
  additionalProperties: false,
};

export function tidelineOf(tideline: TidelineService, session: Session): TidelineAnswer {
  const m = tideline.meter(session);
  return {
    sessionId: m.sessionId,
    model: m.model,
    enabled: m.enabled,
    line: m.line ?? null,
    contextWindow: m.contextWindow,
    used: m.used,
    toGo: m.toGo ?? null,
    status: m.status,
    cuts: m.cuts,
    cutSeq: m.cutSeq,
  };
}

export function meterOf(tideline: TidelineService, session: Session): MeterAnswer {
  const m = tideline.meter(session);
  return {
    sessionId: m.sessionId,
    model: m.model,
    contextWindow: m.contextWindow,
    used: m.used,
    status: m.status,
    inputTokens: m.inputTokens,
    outputTokens: m.outputTokens,
    cacheReadTokens: m.cacheReadTokens,
    cacheWriteTokens: m.cacheWriteTokens,
    costUsd: m.costUsd,
    turns: session.totals.turns,
    steps: session.totals.steps,
  };
}

export function tidelineRoutes(tideline: TidelineService): RouteDefinition[] {
  const open = (req: RouteRequest) => req.session(req.params.id!);
  return [
    {
      method: "GET",
      url: "/session/:id/tideline",
      operationId: "sessionTideline",
      summary: "The session's tideline: the line, the window gauge and the cuts so far",
      schema: { params: sessionParams, response: { 200: tidelineAnswer, 404: ERROR_SCHEMA, 409: ERROR_SCHEMA } },
      handler: async (req) => tidelineOf(tideline, await open(req)),
    },
    {
      method: "GET",
      url: "/session/:id/meter",
      operationId: "sessionMeter",
      summary: "The session meter: context used, tideline status, tokens, spend, turns and steps (what the pager's status bar shows)",
      schema: { params: sessionParams, response: { 200: meterAnswer, 404: ERROR_SCHEMA, 409: ERROR_SCHEMA } },
      handler: async (req) => meterOf(tideline, await open(req)),
    },
  ];
}

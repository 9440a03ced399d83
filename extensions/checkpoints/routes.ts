/**
 * The checkpoints extension's HTTP routes (mounted by serve through service "routes"): undo, redo and
 * rewind a session's user turns, files and conversation. No person is asked over HTTP: a file changed
 * outside the agent since the checkpoint is refused (409, naming the files) unless the client sends
 * `force: true` after its own person confirmed.
 */
import { ERROR_SCHEMA, type JsonSchema, type RouteDefinition, type RouteReply, type RouteRequest } from "../serve/api.js";
import { HttpError } from "../serve/kit.js";
import type { CheckpointsService, MoveResult } from "./api.js";
import { sessionChanges } from "./changes.js";

const sessionParams: JsonSchema = { type: "object", properties: { id: { type: "string", minLength: 1 } }, required: ["id"] };
const paths: JsonSchema = { type: "array", items: { type: "string" } };
const moved: JsonSchema = {
  type: "object",
  properties: { ok: { const: true }, from: { type: "integer" }, to: { type: "integer" }, restored: paths, removed: paths },
  required: ["ok", "from", "to", "restored", "removed"],
};
const refused: JsonSchema = {
  type: "object",
  properties: { ok: { const: false }, reason: { type: "string", enum: ["nothing", "busy", "changed"] }, message: { type: "string" }, files: paths },
  required: ["ok", "reason", "message"],
};
const forceBody: JsonSchema = { type: "object", additionalProperties: false, properties: { force: { type: "boolean", description: "overwrite files changed outside the agent (after a person confirmed)" } } };

const ints: JsonSchema = { type: "array", items: { type: "integer" } };
const checkpointsAnswer: JsonSchema = {
  type: "object",
  properties: {
    active: { type: "integer", description: "the user turn the session stands on (0: before the first)" },
    turns: {
      type: "array",
      items: {
        type: "object",
        properties: { id: { type: "integer" }, parent: { type: "integer" }, turns: ints, title: { type: "string" }, at: { type: "number" } },
        required: ["id", "parent", "turns", "title", "at"],
      },
    },
    hidden: { ...ints, description: "engine turn numbers whose rows are off the active path (undone)" },
  },
  required: ["active", "turns", "hidden"],
};

/** A move's answer: 200 when it moved, 409 when it did not (nothing to move, a running turn, files changed outside). */
function answer(r: MoveResult): RouteReply {
  return { status: r.ok ? 200 : 409, body: r };
}

const changedFile: JsonSchema = {
  type: "object",
  required: ["path", "status", "changedOutside"],
  properties: {
    path: { type: "string", description: "project-relative (absolute when outside the project)" },
    status: { type: "string", enum: ["added", "modified", "deleted", "unchanged"] },
    changedOutside: { type: "boolean", description: "the file on disk is not what the session last wrote (undo/redo would ask for force)" },
    withheld: { type: "string", enum: ["outside_project", "secret_file", "binary", "too_large"], description: "why no diff or counts are given" },
    additions: { type: "integer" },
    deletions: { type: "integer" },
    diff: { type: "string", description: "unified diff (GET /session/{id}/diff only)" },
  },
};
const changesQuery = (withPath: boolean): JsonSchema => ({
  type: "object",
  properties: {
    turn: { type: "integer", minimum: 1, description: "only this user turn of the active path (its before against its after); default: the session's checkpoint against the disk now" },
    ...(withPath ? { path: { type: "string", maxLength: 4096, description: "only this file (as the changes list names it)" } } : {}),
  },
});

export function checkpointRoutes(service: CheckpointsService, project: string): RouteDefinition[] {
  const sid = async (req: RouteRequest) => (await req.session(req.params.id!)).info.id;
  const force = (req: RouteRequest) => ({ force: (req.body as { force?: boolean } | undefined)?.force === true });
  // 404 / 409 session_busy (the error shape) from opening the session; 409 `refused` when it did not move
  const responses = { 200: moved, 404: ERROR_SCHEMA, 409: { anyOf: [refused, ERROR_SCHEMA] } };
  const changes = async (req: RouteRequest, diff: boolean) => {
    const id = await sid(req);
    const q = req.query as { turn?: number; path?: string };
    if (q.turn !== undefined && !service.activePath(id)[q.turn - 1]) throw new HttpError(404, "turn_not_found", `turn ${q.turn} is not on the session's active path`);
    return { sessionId: id, files: sessionChanges(service, id, project, { diff, ...(q.turn !== undefined ? { turn: q.turn } : {}), ...(q.path !== undefined ? { only: q.path } : {}) }) };
  };
  const changesAnswer: JsonSchema = { type: "object", required: ["sessionId", "files"], properties: { sessionId: { type: "string" }, files: { type: "array", items: changedFile } } };
  return [
    {
      method: "GET",
      url: "/session/:id/checkpoints",
      operationId: "sessionCheckpoints",
      summary: "the session's user turns (every branch), the one it stands on, and the engine turns off the active path (a client hides those rows after an undo)",
      schema: { params: sessionParams, response: { 200: checkpointsAnswer } },
      handler: async (req) => {
        const id = await sid(req);
        const on = new Set(service.activePath(id).flatMap((t) => t.turns));
        const turns = service.turns(id);
        const hidden = [...new Set(turns.flatMap((t) => t.turns).filter((n) => !on.has(n)))].sort((a, b) => a - b);
        return { active: service.active(id), turns: turns.map((t) => ({ id: t.id, parent: t.parent, turns: t.turns, title: t.title, at: t.at })), hidden };
      },
    },
    {
      method: "GET",
      url: "/session/:id/changes",
      operationId: "sessionChanges",
      summary: "the files the session changed (its active path's turns): status and line counts against the checkpoint",
      schema: { params: sessionParams, querystring: changesQuery(false), response: { 200: changesAnswer, 404: ERROR_SCHEMA } },
      handler: (req) => changes(req, false),
    },
    {
      method: "GET",
      url: "/session/:id/diff",
      operationId: "sessionDiff",
      summary: "the unified diff of the session's changed files against the checkpoint (files outside the project and .env files are named, never shown)",
      schema: { params: sessionParams, querystring: changesQuery(true), response: { 200: changesAnswer, 404: ERROR_SCHEMA } },
      handler: (req) => changes(req, true),
    },
    {
      method: "POST",
      url: "/session/:id/undo",
      operationId: "sessionUndo",
      summary: "take back the last user turn: its conversation (the journal's leaf moves back) and the files it changed",
      schema: { params: sessionParams, body: forceBody, response: responses },
      handler: async (req) => answer(await service.undo(await sid(req), force(req))),
    },
    {
      method: "POST",
      url: "/session/:id/redo",
      operationId: "sessionRedo",
      summary: "re-apply the user turn the last undo took back",
      schema: { params: sessionParams, body: forceBody, response: responses },
      handler: async (req) => answer(await service.redo(await sid(req), force(req))),
    },
    {
      method: "POST",
      url: "/session/:id/rewind",
      operationId: "sessionRewind",
      summary: "go back to before user turn `turn` of the active path (1 = the first), undoing it and the turns after it",
      schema: {
        params: sessionParams,
        body: { type: "object", additionalProperties: false, required: ["turn"], properties: { turn: { type: "integer", minimum: 1 }, force: { type: "boolean" } } },
        response: responses,
      },
      handler: async (req) => {
        const id = await sid(req);
        const b = req.body as { turn: number; force?: boolean };
        const t = service.activePath(id)[b.turn - 1];
        if (!t) return answer({ ok: false, reason: "nothing", message: `turn ${b.turn} is not on the session's active path` });
        return answer(await service.rewind(id, t.parent, { force: b.force === true }));
      },
    },
  ];
}
